/**
 * The local dev server runs its SQLite with npm start's pragmas (WAL, synchronous=OFF): every signal-with-start it
 * acknowledged must still be there after the server process is SIGKILLed and started again on the same file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '../../src/http/free-port';
import { DEV_SERVER_TUNING, type RunningDevServer, startDevServer } from '../../src/temporal/dev-server';

const NAMESPACE = 'kill-test';
const WORKFLOWS = 40;

describe('the dev server killed mid-run', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ramp-dev-server-kill-'));
  const dbFile = path.join(dir, 'temporal.sqlite');
  let server: RunningDevServer | undefined;

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (port: number) =>
    startDevServer({
      cliPath: process.env.TEST_TEMPORAL_CLI_PATH!,
      namespace: NAMESPACE,
      uiPort: null,
      port,
      dbFile,
      tuning: DEV_SERVER_TUNING,
    });

  test('keeps every acknowledged signal-with-start across a SIGKILL', async () => {
    const port = await freePort();
    server = await start(port);
    const ids = Array.from({ length: WORKFLOWS }, (_, index) => `kill-test-${index}`);
    let connection = await Connection.connect({ address: server.address });
    let client = new Client({ connection, namespace: NAMESPACE });
    // No worker: the workflows stay open, holding the start and the signal.
    await Promise.all(
      ids.map((workflowId) =>
        client.workflow.signalWithStart('noSuchWorkflow', {
          workflowId,
          taskQueue: 'kill-test-no-worker',
          args: [],
          signal: 'delivery',
          signalArgs: [workflowId],
        }),
      ),
    );
    await connection.close();

    const killed = server;
    server = undefined;
    process.kill(killed.pid!, 'SIGKILL');
    await killed.stop();
    server = await start(port);

    connection = await Connection.connect({ address: server.address });
    client = new Client({ connection, namespace: NAMESPACE });
    try {
      for (const workflowId of ids) {
        const history = await client.workflow.getHandle(workflowId).fetchHistory();
        const signals = (history.events ?? []).filter(
          (event) => event.workflowExecutionSignaledEventAttributes,
        );
        expect(signals).toHaveLength(1);
      }
    } finally {
      await connection.close();
    }
  });
});
