/**
 * Idempotency-Key against the real stack (dev server, worker, sandbox over HTTP, the ledger in PostgreSQL), over
 * real HTTP servers: the same body replayed with Idempotent-Replayed, another body 422, a concurrent repeat 409, the
 * key kept across an API restart (a new process's server, client and pool), and a key used after its retention runs
 * afresh.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { startApiServer, type RunningApiServer } from '../../../src/api/server';
import type { RampApi } from '../../../src/api/types';
import { RampClient } from '../../../src/client/ramp-client';
import { openDatabase } from '../../../src/database/connection';
import { SecretString } from '../../../src/secrets/secret-string';
import { type Stack, startStack, waitFor } from '../../helpers/client-stack';
import { testServer } from '../../helpers/temporal';

const API_KEY = 'idempotency-test-api-key-3c9e1f';
const DAY_MS = 86_400_000;

describe('Idempotency-Key (real dev server, sandbox over HTTP, real HTTP servers)', () => {
  let stack: Stack;
  const servers: RunningApiServer[] = [];

  beforeAll(async () => {
    stack = await startStack();
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  afterAll(async () => {
    await stack.stop();
  });

  async function serve(
    ramp: RampApi,
    idempotencyRetentionMs = DAY_MS,
    ledger = stack.database.db,
  ): Promise<RunningApiServer> {
    const server = await startApiServer({
      config: { port: 0, host: '127.0.0.1', apiKey: new SecretString(API_KEY), idempotencyRetentionMs },
      ramp,
      ledger,
      logger: pino({ level: 'silent' }),
    });
    servers.push(server);
    return server;
  }

  const post = async (server: RunningApiServer, path: string, key: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${API_KEY}`,
        'idempotency-key': key,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return {
      status: response.status,
      replayed: response.headers.get('idempotent-replayed'),
      body: (await response.json()) as { data?: Record<string, unknown>; error?: { code: string } },
    };
  };

  test('the same body gets the first answer again; another body with the key is 422; nothing runs twice', async () => {
    const server = await serve(stack.ramp);
    const key = randomUUID();
    const body = {
      endUserId: `idem-${randomUUID().slice(0, 8)}`,
      orderReference: `idem-${randomUUID()}`,
      quoteRequest: {
        direction: 'on-ramp',
        coinFrom: 'MXN',
        coinTo: 'USDT',
        chainTo: 'TRX',
        amountFrom: '500',
      },
    };
    const first = await post(server, '/v1/on-ramps', key, body);
    expect([first.status, first.replayed]).toEqual([201, null]);
    const operatorCalls = stack.sandbox.calls().length;

    // Keys reordered: the same request. It is not run again (no second quote), and it is still a 201.
    const { quoteRequest, orderReference, endUserId } = body;
    const again = await post(server, '/v1/on-ramps', key, { quoteRequest, orderReference, endUserId });
    expect([again.status, again.replayed]).toEqual([201, 'true']);
    expect(again.body).toEqual(first.body);
    expect(stack.sandbox.calls().length).toBe(operatorCalls);

    const other = await post(server, '/v1/on-ramps', key, { ...body, orderReference: `${orderReference}-2` });
    expect([other.status, other.body.error?.code]).toEqual([422, 'idempotency_key_reused']);
    // The same key on another route is another key.
    const elsewhere = await post(server, `/v1/end-users/${endUserId}/deposit-wallet`, key);
    expect([elsewhere.status, elsewhere.replayed]).toEqual([200, null]);

    const kept = await stack.database.db
      .selectFrom('idempotency_keys')
      .select(['answer_status', 'answer_body'])
      .where('route', '=', 'startOnRamp')
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ answer_status: 201, answer_body: first.body });
  }, 60_000);

  test('a repeat while the first request runs is 409; once it has answered, the repeat gets its answer', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered = 0;
    // The real client, with the wallet call held until the test lets it go.
    const ensureDepositWallet = async (endUserId: string) => {
      entered += 1;
      await gate;
      return stack.ramp.ensureDepositWallet(endUserId);
    };
    const held = new Proxy(stack.ramp, {
      get(target, name) {
        if (name === 'ensureDepositWallet') return ensureDepositWallet;
        const value: unknown = Reflect.get(target, name);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    }) as RampApi;
    // A deadline long enough for the held call.
    const server = await startApiServer({
      config: {
        port: 0,
        host: '127.0.0.1',
        apiKey: new SecretString(API_KEY),
        idempotencyRetentionMs: DAY_MS,
      },
      ramp: held,
      ledger: stack.database.db,
      logger: pino({ level: 'silent' }),
      http: { temporalTimeoutMs: 30_000 },
    });
    servers.push(server);
    const key = randomUUID();
    const path = `/v1/end-users/held-${randomUUID().slice(0, 8)}/deposit-wallet`;
    const first = post(server, path, key);
    await waitFor(() => (entered === 1 ? true : undefined), 'the first request to run');
    const concurrent = await post(server, path, key);
    expect([concurrent.status, concurrent.body.error?.code]).toEqual([409, 'idempotency_key_in_use']);
    expect(entered).toBe(1);
    release();
    const answered = await first;
    expect([answered.status, answered.replayed]).toEqual([200, null]);
    const repeat = await post(server, path, key);
    expect([repeat.status, repeat.replayed, repeat.body]).toEqual([200, 'true', answered.body]);
    expect(entered).toBe(1);
  }, 60_000);

  test('the key holds across an API restart: a new server and client replay the first answer', async () => {
    const key = randomUUID();
    const path = `/v1/end-users/restart-${randomUUID().slice(0, 8)}/deposit-wallet`;
    const before = await serve(stack.ramp);
    const first = await post(before, path, key);
    expect(first.status).toBe(200);
    await before.close();
    servers.splice(servers.indexOf(before), 1);
    const wallets = stack.sandbox.calls().filter((call) => call.route === 'createWallet').length;

    // Another process: its own connection, pool, client and server; nothing of the first one's memory.
    const { Connection } = await import('@temporalio/client');
    const connection = await Connection.connect({ address: testServer().address });
    const database = openDatabase(stack.database.url, { applicationName: 'second API' });
    const ramp = new RampClient({
      connection,
      database,
      namespace: testServer().namespace,
      taskQueue: stack.worker.taskQueue,
      timings: stack.timings,
      processIds: stack.ramp.processIds,
    });
    try {
      const after = await serve(ramp, DAY_MS, database.db);
      const repeat = await post(after, path, key);
      expect([repeat.status, repeat.replayed, repeat.body]).toEqual([200, 'true', first.body]);
      expect(stack.sandbox.calls().filter((call) => call.route === 'createWallet').length).toBe(wallets);
    } finally {
      await connection.close();
      await database.close();
    }
  }, 60_000);

  test('after its retention the key is fresh: another request with it runs', async () => {
    const server = await serve(stack.ramp, 1_500);
    const key = randomUUID();
    const name = `retained-${randomUUID().slice(0, 8)}`;
    expect((await post(server, `/v1/end-users/${name}/deposit-wallet`, key)).status).toBe(200);
    expect((await post(server, `/v1/end-users/${name}-2/deposit-wallet`, key)).status).toBe(422);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    const later = await post(server, `/v1/end-users/${name}-2/deposit-wallet`, key);
    expect([later.status, later.replayed]).toEqual([200, null]);
  }, 60_000);
});
