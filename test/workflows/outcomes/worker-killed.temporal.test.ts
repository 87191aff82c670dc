/**
 * The worker SIGKILLed (its own process) while an outcome event is being sent: the client's backend holds its
 * answer, the worker dies, another worker takes over. The event still arrives, with the same webhook-id and body,
 * and the process records it delivered once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pino from 'pino';
import { createActivities } from '../../../activities';
import { RampClient } from '../../../src/client/ramp-client';
import { testActivityConfig } from '../../helpers/activities';
import { loadClientWebhookConfig } from '../../../src/config/client-webhooks';
import { startOutcomeReceiver } from '../../../src/demo/outcome-receiver';
import { onRampWorkflowId } from '../../../src/domain/ids';
import type { RunningSandbox } from '../../../src/sandbox/server';
import {
  connectTestClient,
  fastTimings,
  type RunningTestWorker,
  startTestWorker,
  testServer,
} from '../../helpers/temporal';
import {
  operatorEnv,
  operatorFor,
  startTestSandbox,
  testReceiver,
  waitFor,
} from '../../helpers/client-stack';

function startWorkerProcess(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, '..', '..', 'helpers', 'worker-process.ts')],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker process never got ready:\n${output}`)), 60_000);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker-ready')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => reject(new Error(`worker process exited (${code}):\n${output}`)));
  });
}

describe('worker killed while an outcome event is being sent (real dev server, worker process)', () => {
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: Math.floor(Math.random() * 2 ** 31) });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  test('the event is still delivered, with the same id, and recorded delivered once', async () => {
    let holding = true;
    const backend = await startOutcomeReceiver({
      // The first delivery is never answered: the worker sending it dies meanwhile.
      respond: () => (holding ? new Promise<number>(() => undefined) : 204),
    });
    const { client, connection } = await connectTestClient();
    const taskQueue = `outcome-kill-${randomUUID()}`;
    const timings = fastTimings({
      outcomeDelivery: {
        attemptTimeoutMs: 2_000,
        retryInitialMs: 200,
        retryMaximumMs: 500,
        retryForMs: 60_000,
      },
    });
    const ramp = new RampClient({ connection, namespace: testServer().namespace, taskQueue, timings });
    const webhookEnv = {
      CLIENT_WEBHOOK_URLS: backend.url,
      CLIENT_WEBHOOK_SECRET: backend.secret,
      CLIENT_WEBHOOK_TIMEOUT: '10s',
    };
    const reference = `ref-${randomUUID()}`;
    let child: ChildProcess | undefined;
    let replacement: RunningTestWorker | undefined;
    try {
      child = await startWorkerProcess({ ...operatorEnv(sandbox), ...webhookEnv, TASK_QUEUE: taskQueue });
      await ramp.startOnRamp('kill-user', reference);
      await waitFor(
        () => backend.deliveries.length === 1,
        'the first delivery to arrive (and be held)',
        30_000,
      );
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      holding = false;
      replacement = await startTestWorker(
        createActivities({
          operator: operatorFor(sandbox),
          temporal: client,
          logger: pino({ level: 'silent' }),
          config: {
            ...testActivityConfig({ receiver: () => testReceiver() }),
            clientWebhooks: loadClientWebhookConfig(webhookEnv),
          },
        }),
        taskQueue,
      );
      const record = await waitFor(
        async () => {
          const state = await ramp.getOnRamp(reference);
          return state.outcomes?.events[0]?.delivery === 'delivered' ? state.outcomes : undefined;
        },
        'the event to be delivered by the new worker',
        30_000,
      );
      const webhookId = `evt_onramp~${reference}~1`;
      expect(record.events).toHaveLength(1);
      expect(record.events[0]).toMatchObject({ webhookId, delivery: 'delivered' });
      expect(backend.deliveries.length).toBeGreaterThanOrEqual(2);
      expect(new Set(backend.deliveries.map((delivery) => delivery.webhookId))).toEqual(new Set([webhookId]));
      expect(new Set(backend.deliveries.map((delivery) => delivery.body)).size).toBe(1);
      expect(backend.deliveries.every((delivery) => delivery.verified)).toBe(true);
      expect(backend.deliveries[0]!.answered).toBeUndefined();
      expect(backend.confirmed()).toHaveLength(1);
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await client.workflow
        .getHandle(onRampWorkflowId(reference))
        .terminate('test over')
        .catch(() => undefined);
      await replacement?.stop();
      await backend.close();
      await connection.close();
    }
  }, 120_000);
});
