/**
 * The outcome dispatcher (src/outcomes/dispatcher.ts): its retry and give-up rules as pure functions, then the
 * dispatcher itself against the run's real PostgreSQL and real local endpoints (no Temporal: the events are
 * written as a process's ledger write writes them). An outage keeps each process's order and goes out within
 * seconds once the endpoint answers, whatever the backoff; each webhook-id is confirmed once; a give-up marks the
 * event failed and counts on its endpoint's one incident (in the ledger's incident store); two dispatchers on one
 * database never send one event at once.
 */
import { randomUUID } from 'node:crypto';
import { loadClientWebhookConfig } from '../../../src/config/client-webhooks';
import {
  outcomeWebhookId,
  type OutcomeEventType,
  parseOutcomeWebhookId,
  type RaisedEvent,
  testWebhookId,
} from '../../../src/domain/outcome-events';
import { TEST_EVENT_RETRY_FOR_MS, type OutcomeDeliveryTimings } from '../../../src/domain/timings';
import {
  type AttemptOutcome,
  type ClaimedEvent,
  claimDueEvents,
  endpointsGaveUp,
  endpointsRefused,
  insertRaisedEvents,
  listEventViews,
  readEventView,
  recordAttempt,
  requeueEvent,
  startRedelivery,
  redeliveryProgress,
} from '../../../src/ledger/outcome-events';
import {
  attemptOutcome,
  type DispatcherIncidents,
  type RunningDispatcher,
  retryDelayMs,
  startDispatcher,
} from '../../../src/outcomes/dispatcher';
import {
  type ReceivedDelivery,
  type RunningOutcomeReceiver,
  startOutcomeReceiver,
} from '../../../src/demo/outcome-receiver';
import { createAlertActivities } from '../../../activities/operations/alerts/activities';
import { listIncidents } from '../../../src/ledger/incidents';
import { dispatcherIncidents, dispatcherRequestId } from '../../../src/outcomes/incidents';
import { testActivityConfig } from '../../helpers/activities';
import { eventsOf, freshTestDatabase, type TestDatabase } from '../../helpers/database';
import { captureLogger } from '../../helpers/logs';
import { waitFor } from '../../helpers/wait';

const timings = (overrides: Partial<OutcomeDeliveryTimings> = {}): OutcomeDeliveryTimings => ({
  attemptTimeoutMs: 2_000,
  retryInitialMs: 1_000,
  retryMaximumMs: 5_000,
  retryForMs: 60_000,
  ...overrides,
});

/** A backoff far longer than any test waits: whatever goes out within a test went out without waiting for it. */
const LONG_BACKOFF = timings({
  retryInitialMs: 10 * 60_000,
  retryMaximumMs: 60 * 60_000,
  retryForMs: 24 * 60 * 60_000,
});

const claimed = (overrides: Partial<ClaimedEvent> = {}): ClaimedEvent => ({
  webhookId: 'evt_offramp~tx-1~1',
  processId: 'offramp/tx-1',
  event: {
    type: 'off_ramp.created',
    timestamp: '2026-01-01T00:00:00.000Z',
    data: { workflowId: 'offramp/tx-1', endUserId: 'alice', status: 'awaiting-deposit', step: 'created' },
  },
  attempt: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  confirmedEndpoints: [],
  giveUpAt: '2026-01-01T01:00:00.000Z',
  traceParent: null,
  ...overrides,
});

describe('the retry rules', () => {
  test('waits double from the first retry wait after each attempt, capped at the longest', () => {
    const rules = timings({ retryInitialMs: 1_000, retryMaximumMs: 5_000 });
    expect([1, 2, 3, 4, 5, 30].map((attempt) => retryDelayMs(rules, attempt))).toEqual([
      1_000, 2_000, 4_000, 5_000, 5_000, 5_000,
    ]);
  });

  test('an attempt is confirmed, refused (retried after its wait) or given up (no wait fits before give-up)', () => {
    const rules = timings({ retryInitialMs: 1_000, retryMaximumMs: 5_000 });
    const now = Date.parse('2026-01-01T00:59:50.000Z');
    const two = { receiving: ['endpoint 1 (a)', 'endpoint 2 (b)'] };
    expect(attemptOutcome(rules, claimed(), { receiving: [], confirmed: [], failures: [] }, now)).toEqual({
      kind: 'no-endpoint',
    });
    expect(
      attemptOutcome(
        rules,
        claimed({ confirmedEndpoints: ['endpoint 1 (a)'] }),
        { ...two, confirmed: ['endpoint 2 (b)'], failures: [] },
        now,
      ),
    ).toEqual({ kind: 'confirmed', confirmed: ['endpoint 1 (a)', 'endpoint 2 (b)'] });
    // Third attempt: the next waits 4 s, and 10 s are left.
    expect(
      attemptOutcome(
        rules,
        claimed({ attempt: 3 }),
        { ...two, confirmed: ['endpoint 1 (a)'], failures: ['endpoint 2 (b) answered HTTP 500'] },
        now,
      ),
    ).toEqual({
      kind: 'refused',
      confirmed: ['endpoint 1 (a)'],
      error: 'endpoint 2 (b) answered HTTP 500',
      retryInMs: 4_000,
    });
    // Fourth: the next would wait 5 s, and only 5 s are left.
    expect(
      attemptOutcome(
        rules,
        claimed({ attempt: 4 }),
        {
          ...two,
          confirmed: [],
          failures: ['endpoint 1 (a) was unreachable', 'endpoint 2 (b) answered HTTP 500'],
        },
        now + 5_000,
      ),
    ).toEqual({
      kind: 'given-up',
      confirmed: [],
      error: 'endpoint 1 (a) was unreachable; endpoint 2 (b) answered HTTP 500',
    });
  });
});

/** Incidents as the dispatcher raises and resolves them, kept for assertions. */
function recordingIncidents() {
  const undelivered: Array<{ endpoint: string; webhookId: string; error: string }> = [];
  const recovered: string[] = [];
  const incidents: DispatcherIncidents = {
    undelivered(endpoint, event, error) {
      undelivered.push({ endpoint, webhookId: event.webhookId, error });
      return Promise.resolve();
    },
    recovered(endpoint) {
      recovered.push(endpoint);
      return Promise.resolve();
    },
  };
  return { incidents, undelivered, recovered };
}

/** A process's events as its ledger write records them, numbered from 1. */
function raised(processId: string, types: OutcomeEventType[]): RaisedEvent[] {
  return types.map((type, index) => ({
    webhookId: outcomeWebhookId(processId, index + 1),
    sequence: index + 1,
    event: {
      type,
      timestamp: new Date().toISOString(),
      data: { workflowId: processId, endUserId: 'alice', status: type.split('.')[1]!, step: type },
    },
  }));
}

const idsOf = (events: RaisedEvent[]) => events.map((event) => event.webhookId);
const isConfirmed = (delivery: ReceivedDelivery) =>
  delivery.answered !== undefined && delivery.answered >= 200 && delivery.answered < 300;
/** The webhook-ids an endpoint confirmed, in arrival order, each as often as it confirmed it. */
const confirmedIds = (at: RunningOutcomeReceiver, of?: RaisedEvent[]) =>
  at.deliveries
    .filter(isConfirmed)
    .map((delivery) => delivery.webhookId)
    .filter((id) => !of || idsOf(of).includes(id));

describe('the dispatcher on the ledger (real PostgreSQL, real endpoints)', () => {
  let database: TestDatabase;
  const dispatchers: RunningDispatcher[] = [];
  const receivers: RunningOutcomeReceiver[] = [];

  beforeEach(async () => {
    database = await freshTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.stop()));
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
    await database.close();
  });

  async function receiver(options: Parameters<typeof startOutcomeReceiver>[0] = {}) {
    const started = await startOutcomeReceiver(options);
    receivers.push(started);
    return started;
  }
  function dispatcher(options: Omit<Parameters<typeof startDispatcher>[0], 'database'>) {
    const running = startDispatcher({ database, ...options });
    dispatchers.push(running);
    return running;
  }
  /** A new process of `kind` that raised `types`, recorded in the ledger as its write records them. */
  async function recorded(kind: string, types: OutcomeEventType[], retryForMs: number) {
    const processId = `${kind}/${randomUUID()}`;
    const events = raised(processId, types);
    await insertRaisedEvents(database.db, processId, events, retryForMs);
    return events;
  }
  const health = (label: string) =>
    database.db.selectFrom('endpoint_health').selectAll().where('label', '=', label).executeTakeFirst();
  const attemptsOf = (webhookId: string) =>
    database.db
      .selectFrom('delivery_attempts')
      .select(['attempt', 'outcome', 'error'])
      .where('webhook_id', '=', webhookId)
      .orderBy('attempt')
      .execute();
  const allDelivered = async (events: RaisedEvent[]) => {
    for (const { webhookId } of events)
      if ((await readEventView(database.db, webhookId))?.delivery !== 'delivered') return false;
    return true;
  };
  /** A test event, as POST /v1/events/test queues it. */
  async function ping(): Promise<string> {
    const uuid = randomUUID();
    const webhookId = testWebhookId(uuid);
    const event = {
      type: 'test.ping' as const,
      timestamp: new Date().toISOString(),
      data: { message: 'ping' },
    };
    await insertRaisedEvents(
      database.db,
      `test/${uuid}`,
      [{ webhookId, sequence: 1, event }],
      TEST_EVENT_RETRY_FOR_MS,
    );
    return webhookId;
  }

  test('an outage: each process waits in order, and once the endpoint answers the queue goes out in seconds, each webhook-id once', async () => {
    let down = true;
    const flaky = await receiver({ respond: (delivery) => (down || !delivery.verified ? 500 : 204) });
    // Always confirms: a retry must never go to it again.
    const steady = await receiver({ secret: flaky.secret });
    const password = `pw-${randomUUID()}`;
    const token = `token-${randomUUID()}`;
    const flakyUrl = `${flaky.url.replace('http://', `http://client:${password}@`)}?token=${token}`;
    const clientWebhooks = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: `${flakyUrl},${steady.url}`,
      CLIENT_WEBHOOK_SECRET: flaky.secret,
      CLIENT_WEBHOOK_TIMEOUT: '2s',
    });
    const [flakyLabel, steadyLabel] = clientWebhooks.endpoints.map((endpoint) => endpoint.label);
    const { retryForMs } = LONG_BACKOFF;
    const offRamp = await recorded(
      'offramp',
      ['off_ramp.created', 'off_ramp.stuck', 'off_ramp.settled'],
      retryForMs,
    );
    const onRamp = await recorded('onramp', ['on_ramp.created', 'on_ramp.settled'], retryForMs);
    const { incidents, undelivered, recovered } = recordingIncidents();
    const { logger, text } = captureLogger();
    dispatcher({ clientWebhooks, timings: LONG_BACKOFF, logger, incidents });

    // Each process's first event refused by the failing endpoint, and waiting for its retry.
    const [a1, a2, a3] = idsOf(offRamp) as [string, string, string];
    const [b1, b2] = idsOf(onRamp) as [string, string];
    await waitFor(
      async () =>
        (await readEventView(database.db, a1))?.error && (await readEventView(database.db, b1))?.error,
      'both first events refused and recorded',
      10_000,
      50,
    );
    const during = (await listEventViews(database.db, { delivery: 'pending' }, 10)).data;
    const view = (id: string) => during.find((event) => event.webhookId === id)!;
    expect(during).toHaveLength(5);
    expect([a1, a2, a3, b1, b2].map((id) => view(id).waitingFor)).toEqual([0, 1, 2, 0, 1]);
    expect(view(a1)).toMatchObject({ attempts: 1, error: `${flakyLabel} answered HTTP 500` });
    expect(Date.parse(view(a1).nextAttemptAt!)).toBeGreaterThan(Date.now() + 9 * 60_000);
    // Those behind have no time of their own: they go right after the earlier ones.
    expect([a2, a3, b2].map((id) => [view(id).attempts, view(id).nextAttemptAt])).toEqual([
      [0, null],
      [0, null],
      [0, null],
    ]);
    // The steady endpoint has each first event, and nothing later went anywhere: the rest wait behind them.
    expect(steady.deliveries.map((delivery) => delivery.webhookId).sort()).toEqual([a1, b1].sort());
    expect(flaky.deliveries.map((delivery) => delivery.webhookId).sort()).toEqual([a1, b1].sort());
    expect((await health(flakyLabel!))?.failing_since).not.toBeNull();

    // The endpoint answers again; a test event confirmed by it sets everything waiting for it going.
    down = false;
    const pingId = await ping();
    await waitFor(
      () => allDelivered([...offRamp, ...onRamp]),
      'the queues to go out (the backoff is ten minutes)',
      10_000,
      50,
    );

    for (const events of [offRamp, onRamp]) {
      // In order, and each confirmed exactly once by each endpoint.
      expect(confirmedIds(flaky, events)).toEqual(idsOf(events));
      expect(confirmedIds(steady, events)).toEqual(idsOf(events));
      expect(steady.deliveries.filter((delivery) => idsOf(events).includes(delivery.webhookId))).toHaveLength(
        events.length,
      );
      // Every attempt of an event carries the same body: the event as its process raised it.
      for (const event of events) {
        const bodies = new Set(
          [...flaky.deliveries, ...steady.deliveries]
            .filter((delivery) => delivery.webhookId === event.webhookId)
            .map((delivery) => delivery.body),
        );
        expect(bodies.size).toBe(1);
        expect(JSON.parse([...bodies][0]!)).toEqual(event.event);
      }
    }
    expect(confirmedIds(flaky).filter((id) => id === pingId)).toHaveLength(1);
    // The only refusals were the two first attempts: nothing waited for its ten-minute retry.
    expect(
      flaky.deliveries
        .filter((delivery) => delivery.answered === 500)
        .map((d) => d.webhookId)
        .sort(),
    ).toEqual([a1, b1].sort());
    expect([...flaky.deliveries, ...steady.deliveries].every((delivery) => delivery.verified)).toBe(true);
    expect(flaky.deliveries.every((delivery) => delivery.authorization?.startsWith('Basic '))).toBe(true);

    const processId = parseOutcomeWebhookId(a1)!.workflowId;
    expect((await eventsOf(database.db, processId)).map((event) => [event.delivery, event.attempts])).toEqual(
      [
        ['delivered', 2],
        ['delivered', 1],
        ['delivered', 1],
      ],
    );
    expect(await attemptsOf(a1)).toEqual([
      { attempt: 1, outcome: 'refused', error: `${flakyLabel} answered HTTP 500` },
      { attempt: 2, outcome: 'confirmed', error: null },
    ]);
    expect((await health(flakyLabel!))?.failing_since).toBeNull();
    expect(await health(steadyLabel!)).toBeUndefined();
    // Refused for a while is no incident; nothing was given up.
    expect([undelivered, recovered]).toEqual([[], []]);

    expect(text()).toContain('outcome event not confirmed');
    expect(text()).toContain('outcome event delivered');
    const secretBytes = flaky.secret.slice('whsec_'.length);
    for (const needle of [password, token, flaky.url, steady.url, flaky.secret, secretBytes])
      expect(text()).not.toContain(needle);
  }, 30_000);

  test('a redelivery request for a waiting event sends it now, and its queue after it', async () => {
    let down = true;
    const backend = await receiver({ respond: (delivery) => (down || !delivery.verified ? 503 : 204) });
    const clientWebhooks = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: backend.url,
      CLIENT_WEBHOOK_SECRET: backend.secret,
    });
    const events = await recorded(
      'offramp',
      ['off_ramp.created', 'off_ramp.settled'],
      LONG_BACKOFF.retryForMs,
    );
    dispatcher({ clientWebhooks, timings: LONG_BACKOFF, logger: captureLogger().logger });
    const [first] = idsOf(events) as [string];
    await waitFor(async () => (await readEventView(database.db, first))?.error, 'a refusal', 10_000, 50);

    down = false;
    // What POST /v1/events/{webhookId}/redeliver does.
    await expect(requeueEvent(database.db, first)).resolves.toBe(true);
    await waitFor(() => allDelivered(events), 'the event and the one behind it', 10_000, 50);
    expect(confirmedIds(backend)).toEqual(idsOf(events));
    expect(backend.deliveries.map((delivery) => [delivery.webhookId, delivery.answered])).toEqual([
      [first, 503],
      [first, 204],
      [events[1]!.webhookId, 204],
    ]);
  }, 30_000);

  test('an attempt under way when its endpoint answers again, refused, is retried at once and not on its backoff', async () => {
    let down = true;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = await recorded('offramp', ['off_ramp.created'], LONG_BACKOFF.retryForMs);
    const [slowId] = idsOf(slow) as [string];
    let slowAnswered = false;
    const backend = await receiver({
      respond: async (delivery) => {
        // The slow event's first attempt is under way through the recovery, and refused in the end.
        if (delivery.webhookId === slowId && !slowAnswered) {
          slowAnswered = true;
          await held;
          return 500;
        }
        return down || !delivery.verified ? 500 : 204;
      },
    });
    const quick = await recorded('onramp', ['on_ramp.created'], LONG_BACKOFF.retryForMs);
    const clientWebhooks = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: backend.url,
      CLIENT_WEBHOOK_SECRET: backend.secret,
      CLIENT_WEBHOOK_TIMEOUT: '5s',
    });
    dispatcher({ clientWebhooks, timings: LONG_BACKOFF, logger: captureLogger().logger });
    const [quickId] = idsOf(quick) as [string];
    await waitFor(
      async () => slowAnswered && (await readEventView(database.db, quickId))?.error,
      'the slow attempt under way and the other event refused',
      10_000,
      50,
    );

    down = false;
    const pingId = await ping();
    await waitFor(() => allDelivered(quick), 'the refused event, hurried by the test event', 10_000, 50);
    expect((await readEventView(database.db, pingId))?.delivery).toBe('delivered');
    release();
    await waitFor(() => allDelivered(slow), 'the slow event (the backoff is ten minutes)', 10_000, 50);
    expect(await attemptsOf(slowId)).toEqual([
      { attempt: 1, outcome: 'refused', error: expect.stringContaining('answered HTTP 500') },
      { attempt: 2, outcome: 'confirmed', error: null },
    ]);
  }, 30_000);

  test('a redelivery since an outage reaches every event not confirmed, whatever its state, each process in its order', async () => {
    let down = false;
    const flaky = await receiver({ respond: (delivery) => (down || !delivery.verified ? 500 : 204) });
    const steady = await receiver({ secret: flaky.secret });
    const clientWebhooks = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: `${flaky.url},${steady.url}`,
      CLIENT_WEBHOOK_SECRET: flaky.secret,
    });
    const before = await recorded('onramp', ['on_ramp.created'], LONG_BACKOFF.retryForMs);
    dispatcher({ clientWebhooks, timings: LONG_BACKOFF, logger: captureLogger().logger });
    await waitFor(() => allDelivered(before), 'an event delivered before the outage', 10_000, 50);
    down = true;
    const outageBegan = new Date().toISOString();
    // Waiting for its retry, with one behind it never tried; and one given up at its first refusal.
    const waiting = await recorded(
      'offramp',
      ['off_ramp.created', 'off_ramp.settled'],
      LONG_BACKOFF.retryForMs,
    );
    const givenUp = await recorded('onramp', ['on_ramp.created', 'on_ramp.expired'], 1);
    const [w1, w2] = idsOf(waiting) as [string, string];
    const [g1, g2] = idsOf(givenUp) as [string, string];
    await waitFor(
      async () =>
        (await readEventView(database.db, w1))?.error !== null &&
        (await readEventView(database.db, g2))?.delivery === 'failed',
      'the outage to leave events pending and failed',
      10_000,
      50,
    );
    expect(
      await Promise.all([w1, w2, g1, g2].map(async (id) => (await readEventView(database.db, id))?.delivery)),
    ).toEqual(['pending', 'pending', 'failed', 'failed']);

    down = false;
    const job = await startRedelivery(database.db, {
      jobId: randomUUID(),
      filter: { since: outageBegan },
      query: { since: outageBegan },
    });
    expect(job.matched).toBe(4);
    const done = await waitFor(
      async () => {
        const progress = await redeliveryProgress(database.db, job.jobId);
        return progress?.status === 'completed' ? progress : undefined;
      },
      'the redelivery to end (the backoff is ten minutes)',
      10_000,
      50,
    );
    expect(done).toMatchObject({ matched: 4, delivered: 4, failed: 0, noEndpoint: 0 });
    // Each process in its order; the flaky endpoint has each event once, the one before the outage not again.
    expect(confirmedIds(flaky, waiting)).toEqual([w1, w2]);
    expect(confirmedIds(flaky, givenUp)).toEqual([g1, g2]);
    expect(confirmedIds(flaky, before)).toEqual(idsOf(before));
    // The steady endpoint keeps what it confirmed of a pending event; a given-up event goes to every endpoint again.
    expect(confirmedIds(steady, waiting)).toEqual([w1, w2]);
    expect(confirmedIds(steady, givenUp)).toEqual([g1, g2, g1, g2]);
  }, 30_000);

  test("an event never confirmed is failed and counts on its endpoint's one incident, resolved when it confirms again", async () => {
    let firstDown = true;
    const first = await receiver({ respond: (delivery) => (firstDown || !delivery.verified ? 500 : 204) });
    const second = await receiver({ secret: first.secret, respond: () => 503 });
    const clientWebhooks = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: `${first.url},${second.url}`,
      CLIENT_WEBHOOK_SECRET: first.secret,
    });
    const [firstLabel, secondLabel] = clientWebhooks.endpoints.map((endpoint) => endpoint.label) as [
      string,
      string,
    ];
    const quick = timings({ retryInitialMs: 100, retryMaximumMs: 200, retryForMs: 1_500 });
    const offRamp = await recorded('offramp', ['off_ramp.created', 'off_ramp.settled'], quick.retryForMs);
    const onRamp = await recorded('onramp', ['on_ramp.created'], quick.retryForMs);
    const everything = [...offRamp, ...onRamp];
    const { logger } = captureLogger();
    const incidents = dispatcherIncidents(
      createAlertActivities(
        { logger, config: testActivityConfig(), ledger: database.db },
        dispatcherRequestId,
      ),
    );
    dispatcher({ clientWebhooks, timings: quick, logger, incidents });
    const incidentOf = async (label: string, status: 'open' | 'resolved' = 'open') =>
      (await listIncidents(database.db, { status, kind: 'outcome-event-undelivered' }, 10)).data.filter(
        (incident) => incident.details.endpoint === label,
      );

    const failed = await waitFor(
      async () => {
        const page = await listEventViews(database.db, { delivery: 'failed' }, 10);
        return page.data.length === everything.length ? page.data : undefined;
      },
      'every event given up',
      20_000,
      50,
    );
    for (const event of failed) {
      expect(event).toMatchObject({ nextAttemptAt: null, giveUpAt: null, waitingFor: 0 });
      expect(event.deliveredAt).not.toBeNull();
      expect(event.error).toContain(`${firstLabel} answered HTTP 500`);
      expect(event.error).toContain(`${secondLabel} answered HTTP 503`);
      expect(event.error).not.toContain('/outcome-events');
    }
    // Retried before it was given up; the event behind it was first tried once it was.
    const [a1, a2] = idsOf(offRamp) as [string, string];
    expect((await readEventView(database.db, a1))!.attempts).toBeGreaterThan(1);
    const order = first.deliveries.map((delivery) => delivery.webhookId);
    expect(order.indexOf(a2)).toBeGreaterThan(order.lastIndexOf(a1));
    // Three events missed by two endpoints: two incidents, one each, each counting the three.
    for (const label of [firstLabel, secondLabel]) {
      expect(await incidentOf(label)).toEqual([
        expect.objectContaining({
          key: `outcome-event-undelivered/endpoint/${label}`,
          occurrences: everything.length,
        }),
      ]);
      expect(await health(label)).toMatchObject({ incident_open: true });
    }

    // The first endpoint answers again: its incident is resolved at its first confirmation.
    firstDown = false;
    const pingId = await ping();
    await waitFor(
      async () => ((await incidentOf(firstLabel, 'resolved')).length > 0 ? true : undefined),
      'the first endpoint to recover',
      10_000,
      50,
    );
    expect(await incidentOf(firstLabel)).toEqual([]);
    expect(await health(firstLabel)).toMatchObject({ incident_open: false, failing_since: null });
    expect(await health(secondLabel)).toMatchObject({ incident_open: true });
    expect((await readEventView(database.db, pingId))?.delivery).toBe('pending');
    // Recovery hurries what is pending; what was given up stays failed until someone redelivers it.
    for (const event of everything)
      expect((await readEventView(database.db, event.webhookId))?.delivery).toBe('failed');

    // Redelivered by filter: the first endpoint takes each once; the second still refuses, and its one incident
    // counts the events missed again.
    const job = await startRedelivery(database.db, {
      jobId: randomUUID(),
      filter: { status: 'failed' },
      query: { delivery: 'failed' },
    });
    expect(job.matched).toBe(everything.length);
    const done = await waitFor(
      async () => {
        const progress = await redeliveryProgress(database.db, job.jobId);
        return progress?.status === 'completed' ? progress : undefined;
      },
      'the redelivery to end',
      20_000,
      50,
    );
    expect(done).toMatchObject({ matched: 3, delivered: 0, failed: 3, noEndpoint: 0 });
    for (const event of everything)
      expect(confirmedIds(first).filter((id) => id === event.webhookId)).toHaveLength(1);
    expect(confirmedIds(second)).toEqual([]);
    // Each give-up counts on the incident just after its event is recorded failed.
    const counted = await waitFor(
      async () => {
        const found = await incidentOf(secondLabel);
        return found[0]?.occurrences === 2 * everything.length ? found : undefined;
      },
      "the second endpoint's incident to count every event it missed",
      10_000,
      50,
    );
    expect(counted).toEqual([expect.objectContaining({ occurrences: 2 * everything.length })]);
    expect(await incidentOf(firstLabel)).toEqual([]);
  }, 60_000);

  test("an attempt's record says when the next event of its process is due, and recovers a failing endpoint once", async () => {
    const label = 'endpoint 1 (a)';
    const events = await recorded('offramp', ['off_ramp.created', 'off_ramp.settled'], 60_000);
    await endpointsRefused(database.db, [label]);
    await endpointsGaveUp(database.db, [label]);
    // The first event's turn: the second waits behind it.
    const [first, ...none] = await claimDueEvents(database.db, 10, 60_000);
    expect([first?.webhookId, none]).toEqual([events[0]!.webhookId, []]);
    const confirmed: AttemptOutcome = { kind: 'confirmed', confirmed: [label] };
    await expect(recordAttempt(database.db, first!, confirmed, [label])).resolves.toEqual({
      current: true,
      laterPending: true,
      recovered: [{ label, incidentWasOpen: true }],
    });
    expect(await health(label)).toMatchObject({ failing_since: null, incident_open: false });
    // Now the second's; the endpoint is healthy already, and the same record again changes nothing.
    const [second] = await claimDueEvents(database.db, 10, 60_000);
    expect(second?.webhookId).toBe(events[1]!.webhookId);
    await expect(recordAttempt(database.db, second!, confirmed, [label])).resolves.toEqual({
      current: true,
      laterPending: false,
      recovered: [],
    });
    await expect(recordAttempt(database.db, second!, confirmed, [label])).resolves.toEqual({
      current: false,
      laterPending: false,
      recovered: [],
    });
  });

  test('a bulk redelivery leaves an attempt under way to its dispatcher: no other takes the event meanwhile', async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    const events = await recorded('offramp', ['off_ramp.created'], 60_000);
    // A dispatcher has it, its answer not in yet.
    const [underWay] = await claimDueEvents(database.db, 1, 60_000);
    expect(underWay?.webhookId).toBe(events[0]!.webhookId);
    const job = await startRedelivery(database.db, {
      jobId: randomUUID(),
      filter: { since },
      query: { since },
    });
    expect(job.matched).toBe(1);
    // What any other dispatcher would take now.
    expect(await claimDueEvents(database.db, 10, 60_000)).toEqual([]);
    await expect(
      recordAttempt(database.db, underWay!, { kind: 'confirmed', confirmed: ['endpoint 1 (a)'] }),
    ).resolves.toMatchObject({ current: true });
    expect(await redeliveryProgress(database.db, job.jobId)).toMatchObject({
      status: 'completed',
      delivered: 1,
    });
  });

  test('two dispatchers on one database never send one event at once; an event leased by a dead one waits for its lease', async () => {
    const inFlight = new Map<string, number>();
    let mostAtOnce = 0;
    const backend = await receiver({
      respond: async (delivery) => {
        const now = (inFlight.get(delivery.webhookId) ?? 0) + 1;
        inFlight.set(delivery.webhookId, now);
        mostAtOnce = Math.max(mostAtOnce, now);
        await new Promise((resolve) => setTimeout(resolve, 150));
        inFlight.set(delivery.webhookId, now - 1);
        return delivery.verified ? 204 : 400;
      },
    });
    // Each dispatcher posts with its own credentials, so the endpoint tells them apart (the label is the same).
    const configFor = (user: string) =>
      loadClientWebhookConfig({
        CLIENT_WEBHOOK_URLS: backend.url.replace('http://', `http://${user}:pw@`),
        CLIENT_WEBHOOK_SECRET: backend.secret,
      });
    const basic = (user: string) => `Basic ${Buffer.from(`${user}:pw`).toString('base64')}`;

    // A dispatcher that claimed an event and died before its answer: the event is leased to it for 2 s.
    const orphan = await recorded('onramp', ['on_ramp.created', 'on_ramp.settled'], 60_000);
    const leaseMs = 2_000;
    const claimedAt = Date.now();
    expect((await claimDueEvents(database.db, 1, leaseMs)).map((event) => event.webhookId)).toEqual([
      orphan[0]!.webhookId,
    ]);
    // More first events than one dispatcher takes at once.
    const processes: RaisedEvent[][] = [];
    for (let count = 0; count < 30; count += 1)
      processes.push(await recorded('offramp', ['off_ramp.created', 'off_ramp.settled'], 60_000));
    const logger = captureLogger().logger;
    dispatcher({ clientWebhooks: configFor('one'), timings: timings(), logger });
    dispatcher({ clientWebhooks: configFor('two'), timings: timings(), logger });

    const everything = [...orphan, ...processes.flat()];
    await waitFor(() => allDelivered(everything), 'every event delivered', 30_000, 100);
    expect(mostAtOnce).toBe(1);
    // Each event posted exactly once (all were confirmed at once), each process in its order.
    expect(backend.deliveries.map((delivery) => delivery.webhookId).sort()).toEqual(idsOf(everything).sort());
    const arrival = backend.deliveries.map((delivery) => delivery.webhookId);
    for (const events of [orphan, ...processes])
      expect(arrival.indexOf(events[1]!.webhookId)).toBeGreaterThan(arrival.indexOf(events[0]!.webhookId));
    // Both took part.
    const by = new Set(backend.deliveries.map((delivery) => delivery.authorization));
    expect(by).toEqual(new Set([basic('one'), basic('two')]));
    // The orphan went once its lease ran out, as its second attempt (the dead one's never recorded).
    const orphaned = backend.deliveries.find((delivery) => delivery.webhookId === orphan[0]!.webhookId)!;
    expect(orphaned.receivedAt).toBeGreaterThanOrEqual(claimedAt + leaseMs);
    expect(await attemptsOf(orphan[0]!.webhookId)).toEqual([
      { attempt: 2, outcome: 'confirmed', error: null },
    ]);
    const attempts = await database.db
      .selectFrom('delivery_attempts')
      .select(({ fn }) => fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(attempts.count)).toBe(everything.length);
  }, 60_000);
});
