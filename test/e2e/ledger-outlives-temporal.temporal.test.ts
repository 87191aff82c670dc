/**
 * The ledger outlives Temporal: ramps run to their end on a dev server of this test's own (the sandbox over HTTP, the
 * real receiver, worker and dispatcher), then that server is paused (SIGSTOP, as an outage leaves it: deleting closed
 * runs is asynchronous and the dev server may keep them) and every read a client makes answers exactly as it did:
 * each ramp, the ramp list, the events, the incidents and the statement, JSON and CSV, over the HTTP API.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import request from 'supertest';
import { createApiApp } from '../../src/api/app';
import { ledgerIdempotency } from '../../src/api/idempotency';
import { SecretString } from '../../src/secrets/secret-string';
import { type RunningDevServer, startDevServer } from '../../src/temporal/dev-server';
import {
  depositCrypto,
  depositFiat,
  endUserWithWallet,
  offRampEnded,
  onRampEnded,
  type RampStack,
  startRampStack,
  waitFor,
} from '../helpers/ramp-stack';

const API_KEY = 'ledger-outlives-temporal-key-0123';
const NAMESPACE = 'ledger-outlives-temporal';

describe('reads after Temporal stops answering (own dev server, paused)', () => {
  let server: RunningDevServer;
  let connection: Connection;
  let stack: RampStack | undefined;

  beforeAll(async () => {
    server = await startDevServer({
      cliPath: process.env.TEST_TEMPORAL_CLI_PATH!,
      namespace: NAMESPACE,
      uiPort: null,
    });
    connection = await Connection.connect({ address: server.address });
  });
  afterAll(async () => {
    if (server?.pid) process.kill(server.pid, 'SIGCONT');
    await stack?.close();
    await connection?.close();
    await server?.stop();
  });

  test('each ramp, the ramp list, the events, the incidents and the statement answer as before', async () => {
    const client = new Client({ connection, namespace: NAMESPACE });
    stack = await startRampStack(client, connection, {
      server: { address: server.address, namespace: NAMESPACE },
      timings: { onRampClaimWindowMs: 500 },
    });
    const from = new Date(Date.now() - 1_000).toISOString();
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address, '50');
    const reference = `lo-${randomUUID().slice(0, 12)}`;
    await stack.ramp.startOnRamp(user.endUserId, reference);
    await depositFiat(stack, reference);
    expect((await offRampEnded(stack, depositId)).status).toBe('settled');
    expect((await onRampEnded(stack, reference)).status).toBe('settled');
    const s = stack;
    // Every event delivered (none left waiting), both ramps booked.
    await waitFor('the events to be out and the ramps booked', async () => {
      const pending = await s.ramp.listEvents({ status: 'pending' });
      const booked = await s.database.db.selectFrom('bookings').select('workflow_id').execute();
      return pending.data.length === 0 && booked.length === 2 ? true : undefined;
    });

    const app = createApiApp({
      ramp: s.ramp,
      idempotency: ledgerIdempotency(s.database.db),
      apiKey: new SecretString(API_KEY),
      logger: pino({ level: 'silent' }),
      temporalTimeoutMs: 2_000,
    });
    const to = new Date(Date.now() + 60_000).toISOString();
    const reads = [
      `/v1/off-ramps/${depositId}`,
      `/v1/on-ramps/${reference}`,
      `/v1/end-users/${user.endUserId}`,
      `/v1/ramps?endUserId=${user.endUserId}`,
      '/v1/ramps?limit=1',
      `/v1/events?endUserId=${user.endUserId}`,
      '/v1/events?type=off_ramp.settled',
      // Incidents are in the ledger too, open and resolved.
      '/v1/alerts',
      '/v1/alerts?status=resolved',
      `/v1/statement?from=${from}&to=${to}`,
      `/v1/statement?from=${from}&to=${to}&format=csv`,
    ];
    const readAll = () =>
      Promise.all(
        reads.map(async (path) => {
          const response = await request(app).get(path).set('Authorization', `Bearer ${API_KEY}`);
          return { path, status: response.status, body: response.text };
        }),
      );
    const before = await readAll();
    for (const answer of before)
      expect({ path: answer.path, status: answer.status }).toEqual({ path: answer.path, status: 200 });
    // Paging follows from one page to the next without Temporal too.
    const firstPage = JSON.parse(before[4]!.body) as { pagination: { nextPageToken: string | null } };
    expect(firstPage.pagination.nextPageToken).not.toBeNull();

    process.kill(server.pid!, 'SIGSTOP');
    try {
      const during = await readAll();
      expect(during).toEqual(before);
      const next = await request(app)
        .get('/v1/ramps')
        .query({ limit: '1', pageToken: firstPage.pagination.nextPageToken! })
        .set('Authorization', `Bearer ${API_KEY}`);
      expect(next.status).toBe(200);
      // A call that needs Temporal (the account setup is a workflow's query) still says so: 503 with Retry-After.
      const account = await request(app).get('/v1/account').set('Authorization', `Bearer ${API_KEY}`);
      expect([account.status, account.headers['retry-after']]).toEqual([503, expect.stringMatching(/^\d+$/)]);
    } finally {
      process.kill(server.pid!, 'SIGCONT');
    }
  }, 180_000);
});
