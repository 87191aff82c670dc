/**
 * /metrics and /readyz are not open by default (they needed no token, and compose publishes the receiver on all
 * interfaces), and a scrape costs Temporal nothing: every call the API's Temporal connection makes is counted, and
 * scrapes add none (the ramps, outcome events and incidents are counted in the ledger; the worker versions are read in
 * the background, whatever the scrapes).
 */
import { ledgerIdempotency } from '../../../src/api/idempotency';
import type { Ledger } from '../../../src/database/connection';
import { Client, Connection, type ConnectionOptions } from '@temporalio/client';
import pino from 'pino';
import request from 'supertest';
import { createApiApp } from '../../../src/api/app';
import type { RampApi } from '../../../src/api/types';
import { SecretString } from '../../../src/secrets/secret-string';
import type { ReceiverConfig } from '../../../src/config/receiver';
import { RampMetrics } from '../../../src/observability/metrics';
import { createReceiverApp } from '../../../src/webhooks/receiver';
import { connectTestClient, fastTimings, testServer } from '../../helpers/temporal';
import { raiseIncident } from '../../../src/ledger/incidents';
import { freshTestDatabase } from '../../helpers/database';

const TOKEN = 'metrics-token-exposure-0123456789';
type GrpcInterceptor = NonNullable<ConnectionOptions['interceptors']>[number];
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

  test('a scrape makes no call to Temporal: none counted over 61 scrapes, while the ledger is read', async () => {
    // Every gRPC call of this connection, whatever the client method behind it.
    const calls: string[] = [];
    const counted = await Connection.connect({
      address: testServer().address,
      interceptors: [
        (options, nextCall) => {
          calls.push(options.method_definition.path);
          // The call itself, untouched (the interceptor only counts it).
          return nextCall(options) as ReturnType<GrpcInterceptor>;
        },
      ],
    });
    const temporal = new Client({ connection: counted, namespace: testServer().namespace });
    const database = await freshTestDatabase();
    const metrics = new RampMetrics({
      ledger: database.db,
      temporal,
      workerDeployment: `metrics-cost-${Date.now()}`,
      logger,
      cacheTtlMs: 200,
    });
    try {
      // As the API runs it: ledger, Temporal and the worker versions.
      const app = createApiApp({
        ramp: {} as RampApi,
        idempotency: ledgerIdempotency({} as Ledger),
        apiKey: new SecretString('api-key-exposure-0123456789abcdef'),
        logger,
        health: { metrics, metricsToken: new SecretString(TOKEN), bindHost: '0.0.0.0' },
      });
      // The background read of the versions is made at start, and counted: the counter sees the connection. It goes on
      // by its timer, whatever the scrapes; stopped here, so that what follows counts the scrapes' calls alone.
      await metrics.versionRead;
      expect(calls).toContain('/temporal.api.workflowservice.v1.WorkflowService/DescribeWorkerDeployment');
      metrics.close();
      const before = calls.length;

      await raiseIncident(database.db, {
        key: 'gas-low/networks/tron-mainnet',
        requestId: 'r1',
        kind: 'gas-low',
        message: 'low',
        workflowId: 'ops/gas-monitor',
        details: { network: 'networks/tron-mainnet' },
      });
      const scrape = () => request(app).get('/metrics').set('authorization', `Bearer ${TOKEN}`);
      const together = await Promise.all(Array.from({ length: 30 }, scrape));
      expect(together.map((response) => response.status)).toEqual(Array(30).fill(200));
      for (let index = 0; index < 30; index += 1) {
        const response = await scrape();
        expect(response.status).toBe(200);
        if (index % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const body = (await scrape()).text;
      expect(body).toContain('ramp_processes_started{direction="off-ramp"} 0');
      expect(body).toContain('ramp_incidents_open{kind="gas-low",acknowledged="false"} 1');
      expect(body).toContain('ramp_database_up 1');
      expect(calls.slice(before)).toEqual([]);
    } finally {
      metrics.close();
      await database.close();
      await counted.close();
    }
  });
});
