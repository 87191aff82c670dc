/**
 * /metrics and /readyz are not open by default (they needed no token, and compose publishes the receiver on all
 * interfaces), and a scrape costs Temporal no visibility count: the ramps are counted in the ledger, and what is still
 * read from Temporal is shared by concurrent scrapes and reused for the cache TTL.
 */
import { ledgerIdempotency } from '../../../src/api/idempotency';
import type { Ledger } from '../../../src/database/connection';
import type { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import request from 'supertest';
import { createApiApp } from '../../../src/api/app';
import type { RampApi } from '../../../src/api/types';
import { SecretString } from '../../../src/secrets/secret-string';
import type { ReceiverConfig } from '../../../src/config/receiver';
import { RampMetrics } from '../../../src/observability/metrics';
import { createReceiverApp } from '../../../src/webhooks/receiver';
import { connectTestClient, fastTimings } from '../../helpers/temporal';
import { freshTestDatabase } from '../../helpers/database';

const TOKEN = 'metrics-token-exposure-0123456789';
const logger = pino({ level: 'silent' });

describe('/metrics and /readyz exposure and cost', () => {
  let client: Client;
  let connection: Connection;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
  });
  afterAll(async () => {
    await connection.close();
  });

  test('a receiver bound to all interfaces without METRICS_TOKEN serves neither metrics nor readiness details', async () => {
    const config: ReceiverConfig = {
      publicUrl: 'https://hooks.example',
      transactionSecret: new SecretString('tx-secret-exposure-0123456789abcdef'),
      orderSecret: new SecretString('order-secret-exposure-0123456789abcdef'),
      port: 8443,
      host: '0.0.0.0',
      tls: { local: true },
    };
    const open = createReceiverApp(config, {
      temporal: client,
      taskQueue: 'exposure',
      timings: fastTimings(),
      logger,
      observability: { metrics: new RampMetrics() },
    });
    expect((await request(open).get('/metrics')).status).toBe(401);
    expect((await request(open).get('/readyz')).body).toEqual({ status: 'ready' });
    const withToken = createReceiverApp(config, {
      temporal: client,
      taskQueue: 'exposure',
      timings: fastTimings(),
      logger,
      observability: { metrics: new RampMetrics(), metricsToken: new SecretString(TOKEN) },
    });
    expect((await request(withToken).get('/metrics').set('authorization', `Bearer ${TOKEN}`)).status).toBe(
      200,
    );
    expect((await request(withToken).get('/readyz').set('authorization', `Bearer ${TOKEN}`)).body).toEqual({
      status: 'ready',
      checks: { temporal: 'ok' },
      deliveryHeaders: {},
    });
  });

  test('ramps are counted in the ledger, no visibility count; concurrent scrapes share one read, reused for the TTL', async () => {
    const count = jest.spyOn(client.workflow, 'count');
    const list = jest.spyOn(client.workflow, 'list');
    const database = await freshTestDatabase();
    try {
      const metrics = new RampMetrics({
        ledger: database.db,
        temporal: client,
        logger,
        cacheTtlMs: 1_500,
        timeoutMs: 5_000,
      });
      const app = createApiApp({
        ramp: {} as RampApi,
        idempotency: ledgerIdempotency({} as Ledger),
        apiKey: new SecretString('api-key-exposure-0123456789abcdef'),
        logger,
        health: { metrics, metricsToken: new SecretString(TOKEN), bindHost: '0.0.0.0' },
      });
      expect((await request(app).get('/metrics')).status).toBe(401);
      expect(count).not.toHaveBeenCalled();

      const scrape = () => request(app).get('/metrics').set('authorization', `Bearer ${TOKEN}`);
      const first = await Promise.all(Array.from({ length: 20 }, scrape));
      expect(first.map((response) => response.status)).toEqual(Array(20).fill(200));
      expect(first[0]!.text).toContain('ramp_processes_started{direction="off-ramp"} 0');
      expect(list).toHaveBeenCalledTimes(1);
      expect((await scrape()).status).toBe(200);
      expect(list).toHaveBeenCalledTimes(1);
      await new Promise((resolve) => setTimeout(resolve, 1_600));
      await Promise.all(Array.from({ length: 5 }, scrape));
      expect(list).toHaveBeenCalledTimes(2);
      expect(count).not.toHaveBeenCalled();
    } finally {
      count.mockRestore();
      list.mockRestore();
      await database.close();
    }
  });
});
