/**
 * deliverOutcomeEvent, the activity runs from 1.0 histories still call: it hands their event to the ledger's
 * queue (the run's real PostgreSQL) with its own webhook-id, and the dispatcher delivers it from there.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { createOutcomeActivities, type DeliverOutcomeRequest } from '../../../activities/outcomes/activities';
import { loadClientWebhookConfig } from '../../../src/config/client-webhooks';
import type { OutcomeEvent } from '../../../src/domain/outcome-events';
import { claimDueEvents, readEventView, recordAttempt } from '../../../src/ledger/outcome-events';
import { testActivityConfig } from '../../helpers/activities';
import { freshTestDatabase, type TestDatabase } from '../../helpers/database';

const event: OutcomeEvent = {
  type: 'off_ramp.settled',
  timestamp: '2026-01-01T00:00:00.000Z',
  data: {
    workflowId: 'offramp/tx-1',
    endUserId: 'alice',
    status: 'settled',
    step: 'Settled',
    fiatAmount: '858.18',
  },
};
const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
// Two endpoints, one of which takes on-ramp events only: an off-ramp event has one endpoint.
const clientWebhooks = loadClientWebhookConfig({
  CLIENT_WEBHOOK_URLS: 'http://127.0.0.1:9/all,http://127.0.0.1:9/on-ramps#types=on_ramp.*',
  CLIENT_WEBHOOK_SECRET: SECRET,
});

/** One attempt of the activity as a 1.0 sender schedules it (its schedule-to-close is CLIENT_WEBHOOK_RETRY_FOR). */
const attempt = (scheduleToCloseTimeoutMs: number) =>
  new MockActivityEnvironment({ attempt: 1, activityId: '7', scheduleToCloseTimeoutMs }, { logger: quiet });

describe('deliverOutcomeEvent (runs from 1.0 histories)', () => {
  let database: TestDatabase;
  let deliver: (input: DeliverOutcomeRequest) => Promise<{ endpoints: number }>;
  beforeEach(async () => {
    database = await freshTestDatabase();
    const activities = createOutcomeActivities({
      ledger: database.db,
      config: testActivityConfig({ clientWebhooks }),
    });
    deliver = (input) => activities.deliverOutcomeEvent(input);
  });
  afterEach(async () => {
    await database.close();
  });

  const rowOf = (webhookId: string) =>
    database.db.selectFrom('outcome_events').selectAll().where('webhook_id', '=', webhookId).execute();

  test("queues the event under its webhook-id, in its process's order, retried for the activity's own time", async () => {
    const request = { webhookId: 'evt_offramp~tx-1~2', event };
    await expect(attempt(90_000).run(deliver, request)).resolves.toEqual({ endpoints: 1 });
    // Retried (a worker lost the answer): still one event.
    await expect(attempt(90_000).run(deliver, request)).resolves.toEqual({ endpoints: 1 });
    const rows = await rowOf(request.webhookId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      process_id: 'offramp/tx-1',
      sequence: 2,
      type: 'off_ramp.settled',
      end_user_id: 'alice',
      body: event,
      delivery: 'pending',
      attempts: 0,
    });
    expect(Number(rows[0]!.retry_for_ms)).toBe(90_000);
    expect(await readEventView(database.db, request.webhookId)).toMatchObject({
      delivery: 'pending',
      waitingFor: 0,
    });
  });

  test('a 1.0 redelivery puts a delivered event back in its queue, with the same webhook-id and body', async () => {
    const request = {
      webhookId: 'evt_offramp~tx-2~1',
      event: { ...event, data: { ...event.data, workflowId: 'offramp/tx-2' } },
    };
    await attempt(90_000).run(deliver, request);
    const [claimed, ...none] = await claimDueEvents(database.db, 10, 10_000);
    expect([claimed?.webhookId, none]).toEqual([request.webhookId, []]);
    await recordAttempt(database.db, claimed!, {
      kind: 'confirmed',
      confirmed: ['endpoint 1 (127.0.0.1:9)'],
    });
    expect(await readEventView(database.db, request.webhookId)).toMatchObject({ delivery: 'delivered' });

    await attempt(90_000).run(deliver, request);
    const [row] = await rowOf(request.webhookId);
    expect(row).toMatchObject({
      delivery: 'pending',
      body: request.event,
      confirmed_endpoints: [],
      delivered_at: null,
      give_up_at: null,
      attempts: 1,
    });
    expect(Date.parse(row!.next_attempt_at!)).toBeLessThanOrEqual(Date.now());
  });

  test('an event nothing receives is still queued (the dispatcher records it as having no endpoint)', async () => {
    const onlyOnRamps = createOutcomeActivities({
      ledger: database.db,
      config: testActivityConfig({
        clientWebhooks: { ...clientWebhooks, endpoints: clientWebhooks.endpoints.slice(1) },
      }),
    });
    const request = { webhookId: 'evt_offramp~tx-3~1', event };
    await expect(
      attempt(90_000).run((input: DeliverOutcomeRequest) => onlyOnRamps.deliverOutcomeEvent(input), request),
    ).resolves.toEqual({ endpoints: 0 });
    expect(await rowOf(request.webhookId)).toHaveLength(1);
  });

  test('without a schedule-to-close it is retried for CLIENT_WEBHOOK_RETRY_FOR by default; a foreign id is refused', async () => {
    await attempt(0).run(deliver, { webhookId: 'evt_offramp~tx-4~1', event });
    expect(Number((await rowOf('evt_offramp~tx-4~1'))[0]!.retry_for_ms)).toBe(24 * 60 * 60 * 1000);
    await expect(attempt(90_000).run(deliver, { webhookId: 'msg_123', event })).rejects.toThrow(
      'Not the webhook-id of an outcome event: msg_123',
    );
    expect(await database.db.selectFrom('outcome_events').select('webhook_id').execute()).toHaveLength(1);
  });
});
