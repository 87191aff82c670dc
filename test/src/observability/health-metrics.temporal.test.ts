/**
 * /readyz goes unready when Temporal stops (a dev server this test starts and stops) or the operator login fails;
 * /metrics on the receiver counts the deliveries of an off-ramp scenario.
 */
import { ledgerIdempotency } from '../../../src/api/idempotency';
import type { Ledger } from '../../../src/database/connection';
import { Client, Connection } from '@temporalio/client';
import request from 'supertest';
import { createApiApp } from '../../../src/api/app';
import type { RampApi } from '../../../src/api/types';
import { loadOperatorConfig } from '../../../src/config/operator';
import { SecretString } from '../../../src/secrets/secret-string';
import { testReceiverConfig } from '../../helpers/receiver';
import { OperatorClient } from '../../../src/operator/client';
import type { RunningSandbox } from '../../../src/sandbox/server';
import { startDevServer, type RunningDevServer } from '../../../src/temporal/dev-server';
import { createReceiverApp } from '../../../src/webhooks/receiver';
import { connectTestClient, fastTimings } from '../../helpers/temporal';
import {
  depositCrypto,
  EMAIL,
  endUserWithWallet,
  offRampEnded,
  PASSCODE,
  postToReceiver,
  type RampStack,
  startRampStack,
  waitFor,
} from '../../helpers/ramp-stack';
import { captureLines } from '../../helpers/logs';
import { startSandboxOnLoopback } from '../../helpers/sandbox';
import { getInsecure, metricValue } from '../../helpers/metrics';

describe('/readyz', () => {
  let server: RunningDevServer | undefined;
  let connection: Connection | undefined;
  let sandbox: RunningSandbox | undefined;

  afterAll(async () => {
    // A readiness call to the stopped server may still have a gRPC retry scheduled (it ends at its deadline).
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await connection?.close().catch(() => undefined);
    await server?.stop();
    await sandbox?.close();
  });

  test('is ready while Temporal answers and the operator login works, unready once Temporal stops or the login fails', async () => {
    sandbox = await startSandboxOnLoopback({ seed: 7, email: EMAIL, passcode: PASSCODE });
    server = await startDevServer({
      cliPath: process.env.TEST_TEMPORAL_CLI_PATH!,
      namespace: 'readyz-test',
      uiPort: null,
    });
    connection = await Connection.connect({ address: server.address });
    const temporal = new Client({ connection, namespace: 'readyz-test' });
    const { logger } = captureLines();
    const operator = new OperatorClient({
      config: loadOperatorConfig({
        OPERATOR_BASE_URL: sandbox.url,
        OPERATOR_EMAIL: EMAIL,
        OPERATOR_PASSCODE: PASSCODE,
      }),
      logger,
    });
    const badOperator = new OperatorClient({
      config: loadOperatorConfig({
        OPERATOR_BASE_URL: sandbox.url,
        OPERATOR_EMAIL: EMAIL,
        OPERATOR_PASSCODE: 'wrong-passcode-123456',
      }),
      logger,
    });
    const receiver = createReceiverApp(testReceiverConfig(), {
      temporal,
      taskQueue: 'readyz',
      timings: fastTimings(),
      logger,
      observability: { operator, timeoutMs: 1500 },
    });
    const fakeRamp = {} as RampApi;
    // Bound to loopback: the readiness details need no metrics token there.
    const api = createApiApp({
      ramp: fakeRamp,
      idempotency: ledgerIdempotency({} as Ledger),
      apiKey: new SecretString('api-key-readyz-0123456789abcdef'),
      logger,
      health: { temporal, operator, timeoutMs: 1500, bindHost: '127.0.0.1' },
    });
    const apiBadLogin = createApiApp({
      ramp: fakeRamp,
      idempotency: ledgerIdempotency({} as Ledger),
      apiKey: new SecretString('api-key-readyz-0123456789abcdef'),
      logger,
      health: { temporal, operator: badOperator, timeoutMs: 1500, bindHost: '127.0.0.1' },
    });

    for (const app of [receiver, api]) {
      expect((await request(app).get('/healthz')).status).toBe(200);
      const ready = await request(app).get('/readyz'); // no API key needed
      expect(ready.status).toBe(200);
      // The receiver's details add the header names of the deliveries it got: none yet.
      expect(ready.body).toEqual({
        status: 'ready',
        checks: { temporal: 'ok', operator: 'ok' },
        ...(app === receiver ? { deliveryHeaders: {} } : {}),
      });
    }
    const badLogin = await request(apiBadLogin).get('/readyz');
    expect(badLogin.status).toBe(503);
    expect(badLogin.body).toEqual({ status: 'unready', checks: { temporal: 'ok', operator: 'failing' } });
    expect(badLogin.text).not.toContain('wrong-passcode');
    expect(badLogin.text).not.toContain(sandbox.url);

    await server.stop();
    for (const app of [receiver, api]) {
      expect((await request(app).get('/healthz')).status).toBe(200);
      const unready = await request(app).get('/readyz');
      expect(unready.status).toBe(503);
      expect(unready.body.status).toBe('unready');
      expect(['failing', 'timeout']).toContain(unready.body.checks.temporal);
      expect(unready.body.checks.operator).toBe('ok');
      expect(unready.text).not.toContain(server.address);
    }
  });
});

describe('/metrics on the receiver', () => {
  let stack: RampStack | undefined;
  let connection: Connection;
  let client: Client;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
  });
  afterAll(async () => {
    await stack?.close();
    await connection.close();
  });

  test('counts the deliveries of an off-ramp scenario by kind and answer', async () => {
    stack = await startRampStack(client, connection);
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address);
    expect((await offRampEnded(stack, depositId)).status).toBe('settled');
    const bad = await postToReceiver(
      stack.receiver.recipientUrls.transaction,
      JSON.stringify({ nope: true }),
    );
    expect(bad.status).toBe(400);

    const delivered = (kind: string) =>
      stack!.sandbox
        .deliveries()
        .filter((attempt) => attempt.recipientKind === kind && attempt.status === 200).length;
    const text = await waitFor(
      'metrics to match the sandbox deliveries',
      async () => {
        const response = await getInsecure(`${stack!.receiver.url}/metrics`);
        expect(response.status).toBe(200);
        const ok =
          metricValue(response.body, 'ramp_webhook_deliveries_total', {
            kind: 'transaction',
            answer: '200',
          }) === delivered('transaction') &&
          metricValue(response.body, 'ramp_webhook_deliveries_total', { kind: 'order', answer: '200' }) ===
            delivered('order');
        return ok ? response.body : undefined;
      },
      15_000,
    );
    expect(delivered('transaction')).toBeGreaterThan(0);
    expect(metricValue(text, 'ramp_webhook_deliveries_total', { kind: 'transaction', answer: '400' })).toBe(
      1,
    );
    expect(text).toContain('# TYPE ramp_webhook_deliveries_total counter');
    // The secret path segment never becomes a label.
    expect(text).not.toContain(stack.receiverConfig.transactionSecret.reveal());
  });
});
