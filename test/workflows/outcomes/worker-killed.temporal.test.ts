/**
 * The worker SIGKILLed (its own process, with the outcome dispatcher it runs) while an outcome event is being sent:
 * the client's backend holds its answer, the worker dies, another worker takes over. The event, leased to the dead
 * dispatcher, is taken over once its lease runs out and still arrives, with the same webhook-id and body; the
 * ledger records it delivered once.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { createActivities } from '../../../activities';
import { RampClient } from '../../../src/client/ramp-client';
import { loadClientWebhookConfig } from '../../../src/config/client-webhooks';
import { startOutcomeReceiver } from '../../../src/demo/outcome-receiver';
import { onRampWorkflowId } from '../../../src/domain/ids';
import { type RunningDispatcher, startDispatcher } from '../../../src/outcomes/dispatcher';
import type { RunningSandbox } from '../../../src/sandbox/server';
import { testActivityConfig } from '../../helpers/activities';
import { eventsOf, freshTestDatabase } from '../../helpers/database';
import { type KillableWorker, startWorkerProcess } from '../../helpers/killable-worker';
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

describe('worker killed while an outcome event is being sent (real dev server, worker process, ledger)', () => {
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: Math.floor(Math.random() * 2 ** 31) });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  test('the event is still delivered, with the same id and body, and recorded delivered once', async () => {
    let holding = true;
    const backend = await startOutcomeReceiver({
      // The first delivery is never answered: the worker sending it dies meanwhile.
      respond: () => (holding ? new Promise<number>(() => undefined) : 204),
    });
    const { client, connection } = await connectTestClient();
    const database = await freshTestDatabase();
    const taskQueue = `outcome-kill-${randomUUID()}`;
    const timings = fastTimings({
      outcomeDelivery: {
        attemptTimeoutMs: 5_000,
        retryInitialMs: 200,
        retryMaximumMs: 500,
        retryForMs: 60_000,
      },
    });
    const ramp = new RampClient({
      connection,
      database,
      namespace: testServer().namespace,
      taskQueue,
      timings,
    });
    // An attempt's lease is CLIENT_WEBHOOK_TIMEOUT and 5 s: the new worker takes the event over 8 s after the claim.
    const webhookEnv = {
      CLIENT_WEBHOOK_URLS: backend.url,
      CLIENT_WEBHOOK_SECRET: backend.secret,
      CLIENT_WEBHOOK_TIMEOUT: '3s',
    };
    const clientWebhooks = loadClientWebhookConfig(webhookEnv);
    const reference = `ref-${randomUUID()}`;
    const webhookId = `evt_onramp~${reference}~1`;
    let worker: KillableWorker | undefined;
    let replacement: RunningTestWorker | undefined;
    let dispatcher: RunningDispatcher | undefined;
    try {
      worker = await startWorkerProcess({
        ...operatorEnv(sandbox),
        ...webhookEnv,
        TASK_QUEUE: taskQueue,
        DATABASE_URL: database.url,
      });
      await ramp.startOnRamp('kill-user', reference);
      await waitFor(
        () => backend.deliveries.length === 1,
        'the first delivery to arrive (and be held)',
        30_000,
      );
      await worker.kill();
      // The dead worker's attempt: counted, never recorded.
      expect(await eventsOf(database.db, onRampWorkflowId(reference))).toMatchObject([
        { webhookId, delivery: 'pending', attempts: 1 },
      ]);
      holding = false;
      const logger = pino({ level: 'silent' });
      replacement = await startTestWorker(
        createActivities({
          operator: operatorFor(sandbox),
          temporal: client,
          logger,
          ledger: database.db,
          config: { ...testActivityConfig({ receiver: () => testReceiver() }), clientWebhooks },
        }),
        taskQueue,
      );
      dispatcher = startDispatcher({ database, clientWebhooks, timings: timings.outcomeDelivery, logger });
      const events = await waitFor(
        async () => {
          const recorded = await eventsOf(database.db, onRampWorkflowId(reference));
          return recorded[0]?.delivery === 'delivered' ? recorded : undefined;
        },
        'the event to be delivered by the new worker',
        30_000,
      );
      expect(events).toMatchObject([{ webhookId, delivery: 'delivered', attempts: 2 }]);
      expect(backend.deliveries).toHaveLength(2);
      expect(new Set(backend.deliveries.map((delivery) => delivery.webhookId))).toEqual(new Set([webhookId]));
      expect(new Set(backend.deliveries.map((delivery) => delivery.body)).size).toBe(1);
      expect(JSON.parse(backend.deliveries[0]!.body)).toEqual(events[0]!.event);
      expect(backend.deliveries.every((delivery) => delivery.verified)).toBe(true);
      expect(backend.deliveries[0]!.answered).toBeUndefined();
      expect(backend.confirmed()).toHaveLength(1);
      const attempts = await database.db
        .selectFrom('delivery_attempts')
        .select(['attempt', 'outcome'])
        .where('webhook_id', '=', webhookId)
        .execute();
      expect(attempts).toEqual([{ attempt: 2, outcome: 'confirmed' }]);
    } finally {
      await worker?.kill();
      await client.workflow
        .getHandle(onRampWorkflowId(reference))
        .terminate('test over')
        .catch(() => undefined);
      await dispatcher?.stop();
      await replacement?.stop();
      await backend.close();
      await database.close();
      await connection.close();
    }
  }, 120_000);
});
