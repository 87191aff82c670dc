/**
 * The compiled build as production runs it: `npm run build`, then `node dist/src/entry/worker.js` (plain node, no tsx)
 * with the workflow bundle made at build time, against the run's Temporal server and a sandbox operator, its version
 * made current by the compiled release command. A reconciliation runs on it to its end, after an account setup
 * through the typed client. The same build is the typed client's package: `ramp-orchestrator/client` resolves to it,
 * for node and for the compiler.
 */
import { freshTestDatabase, type TestDatabase } from '../helpers/database';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { RunningSandbox } from '../../src/sandbox/server';
import { RampClient } from '../../src/client/ramp-client';
import { DEFAULT_PROCESS_IDS } from '../../src/domain/ids';
import { Proc } from '../helpers/processes';
import { connectTestClient, fastTimings, testServer } from '../helpers/temporal';
import type { reconcileWorkflow } from '../../workflows/operations/reconcile/workflow';
import { EMAIL, PASSCODE, startTestSandbox } from '../helpers/client-stack';

const ROOT = path.join(__dirname, '..', '..');

describe('the compiled worker (node dist/src/entry/worker.js)', () => {
  let sandbox: RunningSandbox;
  let database: TestDatabase;
  let worker: Proc;
  const taskQueue = `compiled-${randomUUID()}`;

  beforeAll(async () => {
    await promisify(execFile)('npm', ['run', '--silent', 'build'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(existsSync(path.join(ROOT, 'dist', 'workflow-bundle.js'))).toBe(true);
    sandbox = await startTestSandbox();
    database = await freshTestDatabase();
    const { address, namespace } = testServer();
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TEMPORAL_ADDRESS: address,
      TEMPORAL_NAMESPACE: namespace,
      TEMPORAL_TASK_QUEUE: taskQueue,
    };
    worker = new Proc(
      'compiled-worker',
      process.execPath,
      [path.join(ROOT, 'dist', 'src', 'entry', 'worker.js')],
      {
        cwd: ROOT,
        logFile: path.join(mkdtempSync(path.join(os.tmpdir(), 'compiled-worker-')), 'worker.log'),
        env: {
          ...env,
          DATABASE_URL: database.url,
          OPERATOR_BASE_URL: sandbox.url,
          OPERATOR_EMAIL: EMAIL,
          OPERATOR_PASSCODE: PASSCODE,
          RECEIVER_PUBLIC_URL: 'https://127.0.0.1:8443',
          RECEIVER_TRANSACTION_SECRET: randomBytes(16).toString('hex'),
          RECEIVER_ORDER_SECRET: randomBytes(16).toString('hex'),
          LOG_LEVEL: 'info',
        },
      },
    );
    await worker.waitForOutput(/"msg":"Worker started"/, 60_000);
    // The worker polls as the package's version, which gets work once the release makes it current.
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const released = await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, 'dist', 'src', 'entry', 'release.js'), '--make-current', version],
      { cwd: ROOT, env },
    );
    expect(released.stdout).toContain(`${version} is current`);
    expect(released.stdout).toMatch(new RegExp(`Worker Deployment ${taskQueue}: current ${version}\\n`));
  }, 180_000);

  afterAll(async () => {
    if (!worker) return;
    const ended = await worker.stop('SIGTERM');
    await sandbox.close();
    await database.close();
    // SIGTERM is a graceful stop: the SDK drains the worker and the process exits 0.
    expect(ended).toEqual({ code: 0, signal: null });
  }, 60_000);

  test('serves the task queue from the prebuilt bundle and runs a reconciliation to its end', async () => {
    const { connection, client } = await connectTestClient();
    const ramp = new RampClient({
      connection,
      database,
      namespace: testServer().namespace,
      taskQueue,
      timings: fastTimings(),
      processIds: { ...DEFAULT_PROCESS_IDS, accountSetupWorkflowId: `account-${taskQueue}` },
    });
    const account = await ramp.setupAccount();
    expect(account.masterWallet.walletId).toBeTruthy();
    const result = await client.workflow.execute<typeof reconcileWorkflow>('reconcileWorkflow', {
      workflowId: `reconcile-${taskQueue}`,
      taskQueue,
      args: [{ timings: fastTimings() }],
      workflowExecutionTimeout: '2m',
    });
    // Completed: a result with a finish time, read back from the closed workflow too.
    expect(Date.parse(result.finishedAt)).toBeGreaterThanOrEqual(Date.parse(result.startedAt));
    expect((await client.workflow.getHandle(`reconcile-${taskQueue}`).describe()).status.name).toBe(
      'COMPLETED',
    );
    // The workflow code came from dist/workflow-bundle.js: the SDK logs this line only when it bundles at start.
    expect(worker.output).not.toContain('Workflow bundle created');
    // Its own lines are pino JSON, the SDK's among them.
    expect(worker.output).toMatch(/^\{"level":30,.*"sdk":true/m);
  });

  test("the build is the client's package: `import { RampClient } from 'ramp-orchestrator/client'` for node and tsc", async () => {
    const run = promisify(execFile);
    // Node resolves the package's own name through package.json `exports` (as a backend depending on it would).
    const script =
      "const client = require('ramp-orchestrator/client'); console.log(JSON.stringify({ resolved: require.resolve('ramp-orchestrator/client'), exports: Object.keys(client).sort() }))";
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: ROOT });
    const loaded = JSON.parse(stdout) as { resolved: string; exports: string[] };
    expect(loaded.resolved).toBe(path.join(ROOT, 'dist', 'src', 'client', 'index.js'));
    expect(loaded.exports).toEqual(
      expect.arrayContaining([
        'RampClient',
        'ConflictError',
        'InvalidInputError',
        'NotFoundError',
        'OutcomeTimeoutError',
      ]),
    );
    // The compiler finds its declarations the same way: a consumer's typed calls compile against them.
    const consumerDir = path.join(ROOT, 'dist', 'package-consumer');
    mkdirSync(consumerDir, { recursive: true });
    const consumer = path.join(consumerDir, 'consumer.ts');
    writeFileSync(
      consumer,
      [
        "import { ConflictError, RampClient, type OnRampView, type RampPage } from 'ramp-orchestrator/client';",
        'export async function onRamp(ramp: RampClient): Promise<[OnRampView, RampPage]> {',
        "  const started = await ramp.startOnRamp('user-1', 'order-1', { quoteRequest: { direction: 'on-ramp', coinFrom: 'MXN', coinTo: 'USDT', chainTo: 'TRX', amountFrom: '100' } });",
        "  if (!started.created) throw new ConflictError('already there');",
        "  const state: OnRampView = await ramp.waitForOutcome({ orderReference: 'order-1' }, { timeoutMs: 1_000 });",
        "  return [state, await ramp.listRamps({ endUserId: 'user-1', limit: 20 })];",
        '}',
        '',
      ].join('\n'),
    );
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const compiled = await run(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--types',
        'node',
        consumer,
      ],
      { cwd: ROOT },
    ).catch((error: Error & { stdout?: string }) => ({
      stdout: `tsc failed: ${error.stdout ?? error.message}`,
    }));
    expect(compiled.stdout).toBe('');
  }, 120_000);
});
