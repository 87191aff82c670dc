/**
 * An outage of the client's endpoint, as an on-call team drills it: the sandbox operator, the receiver and workers on
 * the real dev server, the ledger with its dispatcher, the HTTP API, and a stand-in for the client's backend that
 * answers 500 while a deposit wallet is created, an off-ramp and an on-ramp settle and an on-ramp expires. The retry
 * backoff is ten minutes: whatever arrives within the test arrived without waiting for it. During the outage
 * `GET /v1/events` lists every event from the moment it was raised, each with its place in its process's queue; once
 * the endpoint answers again, either documented procedure (`POST /v1/events/redeliver` with `since` the outage
 * began, or a `POST /v1/events/test` the endpoint confirms) brings every event within seconds, in each process's
 * order, exactly once per webhook-id after deduplication.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import request from 'supertest';
import { createApiApp } from '../../../src/api/app';
import { ledgerIdempotency } from '../../../src/api/idempotency';
import { loadClientWebhookConfig } from '../../../src/config/client-webhooks';
import { type RunningOutcomeReceiver, startOutcomeReceiver } from '../../../src/demo/outcome-receiver';
import { endUserWorkflowId, offRampWorkflowId, onRampWorkflowId } from '../../../src/domain/ids';
import { parseOutcomeWebhookId } from '../../../src/domain/outcome-events';
import type { OutcomeDeliveryTimings } from '../../../src/domain/timings';
import { readEventView } from '../../../src/ledger/outcome-events';
import type { EventView } from '../../../src/ledger/views';
import { SecretString } from '../../../src/secrets/secret-string';
import { eventsOf } from '../../helpers/database';
import { checkAnswersAfterEach, recordAnswers } from '../../helpers/openapi-answers';
import {
  depositCrypto,
  depositFiat,
  endUserWithWallet,
  offRampEnded,
  onRampEnded,
  useRampStacks,
  waitFor,
} from '../../helpers/ramp-stack';

const API_KEY = 'outage-recovery-test-key-7f3e';
const auth = { Authorization: `Bearer ${API_KEY}` };
/** A backoff far longer than the test waits: what goes out within the test went out without waiting for it. */
const LONG_BACKOFF: OutcomeDeliveryTimings = {
  attemptTimeoutMs: 3_000,
  retryInitialMs: 10 * 60_000,
  retryMaximumMs: 60 * 60_000,
  retryForMs: 24 * 60 * 60_000,
};
/** How soon after the procedure every event must have arrived. */
const WITHIN_SECONDS_MS = 10_000;

describe('an outage of the client endpoint (sandbox + receiver + dev server + ledger + HTTP API)', () => {
  const stacks = useRampStacks();
  let backend: RunningOutcomeReceiver | undefined;
  checkAnswersAfterEach();
  afterEach(async () => {
    await backend?.close();
    backend = undefined;
  });

  test.each([
    ['a redelivery since the outage began', 'redeliver'],
    ['a test event the endpoint confirms', 'test.ping'],
  ] as const)(
    'every event is listed while the endpoint answers 500, and arrives within seconds of %s, in order, once',
    async (_name, procedure) => {
      let down = true;
      backend = await startOutcomeReceiver({
        respond: (delivery) => (down || !delivery.verified ? 500 : 204),
      });
      const clientWebhooks = loadClientWebhookConfig({
        CLIENT_WEBHOOK_URLS: backend.url,
        CLIENT_WEBHOOK_SECRET: backend.secret,
        CLIENT_WEBHOOK_TIMEOUT: '2s',
      });
      const label = clientWebhooks.endpoints[0]!.label;
      const stack = await stacks.start({ clientWebhooks, timings: { outcomeDelivery: LONG_BACKOFF } });
      const app = recordAnswers(
        createApiApp({
          ramp: stack.ramp,
          idempotency: ledgerIdempotency(stack.database.db),
          apiKey: new SecretString(API_KEY),
          logger: pino({ level: 'silent' }),
        }),
      );
      const listPending = async (endUserId: string) => {
        const response = await request(app)
          .get('/v1/events')
          .query({ endUserId, status: 'pending', limit: '100' })
          .set(auth);
        expect(response.status).toBe(200);
        return response.body.data as EventView[];
      };

      // The outage: a wallet, an off-ramp and an on-ramp to settlement, and an on-ramp that expires.
      const outageBegan = new Date().toISOString();
      const user = await endUserWithWallet(stack);
      const depositId = await depositCrypto(stack, user.address);
      const [settling, expiring] = [`outage-a-${randomUUID()}`, `outage-b-${randomUUID()}`];
      await stack.ramp.startOnRamp(user.endUserId, settling);
      await stack.ramp.startOnRamp(user.endUserId, expiring);
      await depositFiat(stack, settling);
      await depositFiat(stack, expiring, 'expired');
      expect((await offRampEnded(stack, depositId)).status).toBe('settled');
      expect((await onRampEnded(stack, settling)).status).toBe('settled');
      expect((await onRampEnded(stack, expiring)).status).toBe('expired');

      const processes = [
        endUserWorkflowId(user.endUserId),
        offRampWorkflowId(depositId),
        onRampWorkflowId(settling),
        onRampWorkflowId(expiring),
      ];
      const expectedTypes: Record<string, string[]> = {
        [processes[0]!]: ['deposit_wallet.created'],
        [processes[1]!]: ['off_ramp.created', 'off_ramp.settled'],
        [processes[2]!]: ['on_ramp.created', 'on_ramp.settled'],
        [processes[3]!]: ['on_ramp.created', 'on_ramp.expired'],
      };
      // Listed during the outage: each process's first event refused once and waiting for its retry, the others
      // behind it, never tried.
      const listed = await waitFor('every event listed, each first one refused', async () => {
        const pending = await listPending(user.endUserId);
        const firsts = pending.filter((view) => view.waitingFor === 0);
        return pending.length === 7 && firsts.length === 4 && firsts.every((view) => view.error !== null)
          ? pending
          : undefined;
      });
      const processOf = (view: { webhookId: string }) => parseOutcomeWebhookId(view.webhookId)!.workflowId;
      for (const workflowId of processes) {
        const queue = listed
          .filter((view) => processOf(view) === workflowId)
          .sort((a, b) => a.waitingFor - b.waitingFor);
        expect(queue.map((view) => view.event.type)).toEqual(expectedTypes[workflowId]);
        expect(queue.map((view) => view.waitingFor)).toEqual(queue.map((_view, place) => place));
        const [first, ...behind] = queue;
        expect(first).toMatchObject({
          delivery: 'pending',
          attempts: 1,
          error: `${label} answered HTTP 500`,
        });
        expect(Date.parse(first!.nextAttemptAt!)).toBeGreaterThan(Date.now() + 9 * 60_000);
        for (const view of behind)
          expect(view).toMatchObject({ delivery: 'pending', attempts: 0, nextAttemptAt: null });
      }
      // What the ledger holds of these processes is exactly what was listed.
      const recorded = (await Promise.all(processes.map((id) => eventsOf(stack.database.db, id)))).flat();
      expect(recorded.map((event) => event.webhookId).sort()).toEqual(
        listed.map((view) => view.webhookId).sort(),
      );
      // The endpoint saw only the first events, each refused once.
      expect(backend.confirmed()).toEqual([]);
      expect(backend.deliveries.map((delivery) => delivery.webhookId).sort()).toEqual(
        listed
          .filter((view) => view.waitingFor === 0)
          .map((view) => view.webhookId)
          .sort(),
      );

      // The endpoint answers again; a procedure of docs/integration.md ("When your endpoint is down").
      down = false;
      const procedureAt = Date.now();
      let jobId: string | undefined;
      if (procedure === 'redeliver') {
        const started = await request(app)
          .post('/v1/events/redeliver')
          .set(auth)
          .send({ since: outageBegan });
        expect(started.status).toBe(202);
        expect(started.body.data).toMatchObject({ status: 'running', filter: { since: outageBegan } });
        expect(started.body.data.matched).toBe(7);
        jobId = started.body.data.jobId as string;
      } else {
        const ping = await request(app).post('/v1/events/test').set(auth);
        expect(ping.status).toBe(202);
        expect(ping.body.data).toMatchObject({ delivery: 'pending', event: { type: 'test.ping' } });
        const pingId = ping.body.data.webhookId as string;
        await waitFor('the test event confirmed', () =>
          backend!.confirmed().some((delivery) => delivery.webhookId === pingId) ? true : undefined,
        );
      }
      const arrived = await waitFor(
        'every event to arrive (the backoff is ten minutes)',
        () => {
          const confirmed = backend!
            .confirmed()
            .filter((delivery) => processes.includes(processOf(delivery)));
          return confirmed.length === 7 ? confirmed : undefined;
        },
        WITHIN_SECONDS_MS,
      );
      expect(arrived.at(-1)!.receivedAt - procedureAt).toBeLessThan(WITHIN_SECONDS_MS);

      // Each process's events in its order; each webhook-id once after deduplication, as its process raised it.
      for (const workflowId of processes) {
        const ofProcess = arrived.filter((delivery) => processOf(delivery) === workflowId);
        expect(ofProcess.map((delivery) => delivery.event?.type)).toEqual(expectedTypes[workflowId]);
        expect(ofProcess.map((delivery) => parseOutcomeWebhookId(delivery.webhookId)!.sequence)).toEqual(
          expectedTypes[workflowId]!.map((_type, index) => index + 1),
        );
      }
      for (const view of listed) {
        const sent = arrived.find((delivery) => delivery.webhookId === view.webhookId)!;
        expect(sent.verified).toBe(true);
        expect(JSON.parse(sent.body)).toEqual(view.event);
      }
      expect(backend.deliveries.filter((delivery) => delivery.answered === 204)).toHaveLength(
        backend.confirmed().length,
      );
      if (jobId !== undefined) {
        const done = await waitFor('the job to complete', async () => {
          const response = await request(app).get(`/v1/events/redeliveries/${jobId}`).set(auth);
          const job = response.body.data as { status: string } | undefined;
          return job?.status === 'completed' ? job : undefined;
        });
        expect(done).toMatchObject({ matched: 7, delivered: 7, failed: 0, noEndpoint: 0 });
      }
      // Each first event was refused once and then confirmed: none waited for its ten-minute retry.
      for (const view of listed.filter((listedView) => listedView.waitingFor === 0))
        expect(await readEventView(stack.database.db, view.webhookId)).toMatchObject({
          delivery: 'delivered',
          attempts: 2,
        });
      expect(await listPending(user.endUserId)).toEqual([]);
    },
    180_000,
  );
});
