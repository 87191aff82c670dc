/**
 * A Temporal that stalls (its process paused with SIGSTOP: connections stay open, nothing answers) gets prompt 503s
 * with Retry-After from every endpoint that needs it, within its deadline, and recovers once Temporal answers again;
 * what the ledger and the process answer alone (a read, the incidents, /metrics) answers as before.
 */
import { freshTestDatabase, type TestDatabase } from '../helpers/database';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { type ApiHttpLimits, startApiServer, type RunningApiServer } from '../../src/api/server';
import { RampClient } from '../../src/client/ramp-client';
import { SecretString } from '../../src/secrets/secret-string';
import { RampMetrics } from '../../src/observability/metrics';
import { startDevServer, type RunningDevServer } from '../../src/temporal/dev-server';
import { startReceiver, type RunningReceiver } from '../../src/webhooks/receiver';
import { fastTimings } from '../helpers/temporal';
import { testReceiverConfig } from '../helpers/receiver';
import { isErrorEnvelope } from '../helpers/raw-http';

const DEADLINE_MS = 1_000;
const API_KEY = 'stall-test-api-key-0123456789';
const HTTP: Required<ApiHttpLimits> = {
  timeouts: { headersTimeoutMs: 5_000, requestTimeoutMs: 10_000, keepAliveTimeoutMs: 1_000 },
  temporalTimeoutMs: DEADLINE_MS,
};

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
  ms: number;
}

function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const request = (url.startsWith('https:') ? https.request : http.request)(
      url,
      {
        method: init.method ?? 'GET',
        headers: init.headers ?? {},
        rejectUnauthorized: false,
        timeout: 20_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: response.headers['retry-after'],
            body: Buffer.concat(chunks).toString(),
            ms: Date.now() - started,
          }),
        );
      },
    );
    request.on('timeout', () =>
      request.destroy(new Error(`no answer from ${new URL(url).pathname} within 20 s`)),
    );
    request.on('error', reject);
    request.end(init.body);
  });
}

describe('Temporal stalls', () => {
  let server: RunningDevServer;
  let connection: Connection;
  let api: RunningApiServer;
  let receiver: RunningReceiver;
  let database: TestDatabase;

  beforeAll(async () => {
    database = await freshTestDatabase();
    server = await startDevServer({
      cliPath: process.env.TEST_TEMPORAL_CLI_PATH!,
      namespace: 'stall-test',
      uiPort: null,
    });
    connection = await Connection.connect({ address: server.address });
    const temporal = new Client({ connection, namespace: 'stall-test' });
    const ramp = new RampClient({
      connection,
      database,
      namespace: 'stall-test',
      taskQueue: `stall-${randomUUID()}`,
      timings: fastTimings(),
    });
    const logger = pino({ level: 'silent' });
    // No caching: every scrape reads the ledger for this test to mean anything.
    const metrics = () => new RampMetrics({ ledger: database.db, logger, cacheTtlMs: 0 });
    api = await startApiServer({
      config: {
        port: 0,
        host: '127.0.0.1',
        apiKey: new SecretString(API_KEY),
        idempotencyRetentionMs: 86_400_000,
      },
      ramp,
      ledger: database.db,
      logger,
      health: { temporal, metrics: metrics(), timeoutMs: DEADLINE_MS },
      http: HTTP,
    });
    receiver = await startReceiver(testReceiverConfig({ temporalTimeoutMs: DEADLINE_MS }), {
      temporal,
      taskQueue: 'stall',
      timings: fastTimings(),
      logger,
      observability: { metrics: metrics(), timeoutMs: DEADLINE_MS },
      timeouts: HTTP.timeouts,
    });
  });

  afterAll(async () => {
    await api?.close();
    await receiver?.close();
    await connection?.close();
    await server?.stop();
    await database?.close();
  });

  test('every endpoint backed by Temporal answers 503 with Retry-After within its deadline, and recovers', async () => {
    const auth = { authorization: `Bearer ${API_KEY}` };
    const delivery = JSON.stringify({
      data: { eventType: 'transaction-created', payload: { id: `tx-${randomUUID()}` } },
    });
    const endpoints = (): Array<[string, () => Promise<Answer>]> => [
      ['API /readyz', () => call(`${api.url}/readyz`)],
      ['receiver /readyz', () => call(`${receiver.url}/readyz`)],
      [
        'receiver delivery',
        () =>
          call(receiver.recipientUrls.transaction, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: delivery,
          }),
      ],
    ];

    // Temporal answering: everything is fine.
    const healthy = await Promise.all(
      endpoints().map(async ([name, send]) => [name, (await send()).status] as const),
    );
    expect(Object.fromEntries(healthy)).toEqual({
      'API /readyz': 200,
      'receiver /readyz': 200,
      'receiver delivery': 200,
    });

    process.kill(server.pid!, 'SIGSTOP');
    try {
      // A read of the ledger does not wait on Temporal: the unknown user is the ledger's 404, at once; the incidents
      // and the metrics are the ledger's and the process's own.
      const read = await call(`${api.url}/v1/end-users/u1`, { headers: auth });
      expect({ status: read.status, fast: read.ms < 1_000 }).toEqual({ status: 404, fast: true });
      for (const url of [`${api.url}/v1/alerts`, `${api.url}/metrics`, `${receiver.url}/metrics`]) {
        const answer = await call(url, { headers: auth });
        expect({ url, status: answer.status, fast: answer.ms < 1_000 }).toEqual({
          url,
          status: 200,
          fast: true,
        });
      }
      const stalled = await Promise.all(
        endpoints().map(async ([name, send]) => [name, await send()] as const),
      );
      for (const [name, answer] of stalled) {
        expect({ name, status: answer.status }).toEqual({ name, status: 503 });
        expect({ name, retryAfter: answer.retryAfter }).toEqual({
          name,
          retryAfter: expect.stringMatching(/^[1-9]\d*$/),
        });
        // The deadline plus slack: without a deadline a Temporal call waits on a stalled server for its whole timeout.
        expect({ name, fast: answer.ms < DEADLINE_MS + 2_500 }).toEqual({ name, fast: true });
        const body = JSON.parse(answer.body) as unknown;
        if (name.endsWith('/readyz')) expect(body).toMatchObject({ status: 'unready' });
        else expect(isErrorEnvelope(body)).toBe(true);
      }
    } finally {
      process.kill(server.pid!, 'SIGCONT');
    }

    // Once Temporal answers again, so do they.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answers = await Promise.all([call(`${api.url}/readyz`), call(`${receiver.url}/readyz`)]);
      if (answers.every((answer) => answer.status === 200)) break;
      if (Date.now() > deadline)
        throw new Error(`no recovery: ${answers.map((answer) => answer.status).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });
});
