/**
 * The worker SIGKILLed (its own process) while an outcome event is being sent: the client's backend holds its
 * answer, the worker dies, another worker takes over. The event still arrives, with the same webhook-id and body,
 * and the process records it delivered once.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { createActivities } from '../../../activities';
import { RampClient } from '../../../src/client/ramp-client';
import { testActivityConfig } from '../../helpers/activities';
import { type KillableWorker, startWorkerProcess } from '../../helpers/killable-worker';
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
    let worker: KillableWorker | undefined;
    let replacement: RunningTestWorker | undefined;
    try {
      worker = await startWorkerProcess({ ...operatorEnv(sandbox), ...webhookEnv, TASK_QUEUE: taskQueue });
      await ramp.startOnRamp('kill-user', reference);
      await waitFor(
        () => backend.deliveries.length === 1,
        'the first delivery to arrive (and be held)',
        30_000,
      );
      await worker.kill();
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
      await worker?.kill();
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
