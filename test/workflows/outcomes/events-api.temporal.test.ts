/**
 * The events API end to end: the sandbox operator, the receiver and workers on the real dev server, the ledger in
 * the run's PostgreSQL with its dispatcher, stand-ins for the client's endpoints that verify every delivery with the
 * `standardwebhooks` package, and the HTTP API. Events are listed newest first with their delivery, each once across
 * pages; an endpoint gets only the types it lists; the test event reaches every endpoint, signed. During an outage
 * every waiting event is listed with its place in its queue, and once the endpoint answers, one redelivery request
 * sends the whole queue in seconds; after a longer one, one job redelivers every failed event once more, each with
 * its own webhook-id. Every answer is checked against the OpenAPI document.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import request from 'supertest';
import { createApiApp } from '../../../src/api/app';
import { ledgerIdempotency } from '../../../src/api/idempotency';
import { loadClientWebhookConfig } from '../../../src/config/client-webhooks';
import { type RunningOutcomeReceiver, startOutcomeReceiver } from '../../../src/demo/outcome-receiver';
import type { OutcomeDeliveryTimings } from '../../../src/domain/timings';
import type { EventView } from '../../../src/ledger/views';
import { SecretString } from '../../../src/secrets/secret-string';
import { checkAnswersAfterEach, recordAnswers } from '../../helpers/openapi-answers';
import {
  depositCrypto,
  endUserWithWallet,
  offRampEnded,
  type RampStack,
  useRampStacks,
  waitFor,
} from '../../helpers/ramp-stack';

const API_KEY = 'events-api-test-key-0a1b2c3d';
const auth = { Authorization: `Bearer ${API_KEY}` };
const FAST_DELIVERY: OutcomeDeliveryTimings = {
  attemptTimeoutMs: 3_000,
  retryInitialMs: 200,
  retryMaximumMs: 500,
  retryForMs: 60_000,
};
/** A backoff far longer than the test waits: what goes out within the test went out without waiting for it. */
const LONG_BACKOFF: OutcomeDeliveryTimings = {
  attemptTimeoutMs: 3_000,
  retryInitialMs: 10 * 60_000,
  retryMaximumMs: 60 * 60_000,
  retryForMs: 24 * 60 * 60_000,
};

describe('the events API (sandbox + receiver + dev server + ledger + HTTP API)', () => {
  const stacks = useRampStacks();
  const receivers: RunningOutcomeReceiver[] = [];
  checkAnswersAfterEach();
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  });

  async function receiver(options: Parameters<typeof startOutcomeReceiver>[0] = {}) {
    const started = await startOutcomeReceiver(options);
    receivers.push(started);
    return started;
  }
  const apiOf = (stack: RampStack) =>
    recordAnswers(
      createApiApp({
        ramp: stack.ramp,
        idempotency: ledgerIdempotency(stack.database.db),
        apiKey: new SecretString(API_KEY),
        logger: pino({ level: 'silent' }),
      }),
    );

  /** Every page of GET /v1/events with this query, in order. */
  async function allPages(app: ReturnType<typeof apiOf>, query: Record<string, string>) {
    const listed: EventView[] = [];
    let pageToken: string | null = null;
    let pages = 0;
    do {
      const response = await request(app)
        .get('/v1/events')
        .query({ ...query, ...(pageToken ? { pageToken } : {}) })
        .set(auth);
      expect(response.status).toBe(200);
      listed.push(...(response.body.data as EventView[]));
      pageToken = response.body.pagination.nextPageToken as string | null;
      pages += 1;
    } while (pageToken && pages < 50);
    return { listed, pages };
  }

  test('listed newest first, each once across pages; an endpoint gets only its types; the test event reaches every endpoint', async () => {
    const everything = await receiver();
    const settledOnly = await receiver({ secret: everything.secret });
    const stack = await stacks.start({
      clientWebhooks: loadClientWebhookConfig({
        CLIENT_WEBHOOK_URLS: `${everything.url},${settledOnly.url}#types=off_ramp.settled+on_ramp.*`,
        CLIENT_WEBHOOK_SECRET: everything.secret,
      }),
      timings: { outcomeDelivery: FAST_DELIVERY },
    });
    const app = apiOf(stack);
    const since = new Date().toISOString();
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address);
    await offRampEnded(stack, depositId);
    const references = [`evt-a-${randomUUID()}`, `evt-b-${randomUUID()}`];
    for (const reference of references) await stack.ramp.startOnRamp(user.endUserId, reference);

    // deposit_wallet.created, off_ramp.created, off_ramp.settled, on_ramp.created twice: all delivered.
    const { listed, pages } = await waitFor('five delivered events of the user', async () => {
      const all = await allPages(app, { endUserId: user.endUserId, limit: '2' });
      return all.listed.length === 5 && all.listed.every((record) => record.delivery === 'delivered')
        ? all
        : undefined;
    });
    expect(pages).toBe(3);
    expect(new Set(listed.map((record) => record.webhookId)).size).toBe(5);
    const times = listed.map((record) => record.event.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    expect(listed.map((record) => record.event.type)).toEqual([
      'on_ramp.created',
      'on_ramp.created',
      'off_ramp.settled',
      'off_ramp.created',
      'deposit_wallet.created',
    ]);
    for (const record of listed) {
      const sent = everything.confirmed().find((delivery) => delivery.webhookId === record.webhookId)!;
      expect(JSON.parse(sent.body)).toEqual(record.event);
      expect(record).toMatchObject({ attempts: 1, waitingFor: 0, nextAttemptAt: null, error: null });
      expect(record.deliveredAt).not.toBeNull();
    }

    // Filters: by type, by delivery, by time.
    const settled = await request(app)
      .get('/v1/events')
      .query({ endUserId: user.endUserId, type: 'off_ramp.settled' })
      .set(auth);
    expect((settled.body.data as EventView[]).map((record) => record.webhookId)).toEqual([
      `evt_offramp~${depositId}~2`,
    ]);
    const none = await request(app)
      .get('/v1/events')
      .query({ endUserId: user.endUserId, status: 'failed', since })
      .set(auth);
    expect(none.body.data).toEqual([]);
    const later = await request(app)
      .get('/v1/events')
      .query({ endUserId: user.endUserId, until: since })
      .set(auth);
    expect(later.body.data).toEqual([]);
    const one = await request(app).get(`/v1/events/evt_offramp~${depositId}~2`).set(auth);
    expect(one.body.data).toMatchObject({ webhookId: `evt_offramp~${depositId}~2`, delivery: 'delivered' });
    expect(
      (await request(app).get(`/v1/events/evt_offramp~missing-${randomUUID()}~1`).set(auth)).status,
    ).toBe(404);

    // The filtered endpoint got exactly its types; the other one everything.
    const typesAt = (at: RunningOutcomeReceiver) =>
      at
        .confirmed()
        .filter((delivery) => delivery.event?.data.endUserId === user.endUserId)
        .map((delivery) => delivery.event?.type)
        .sort();
    expect(typesAt(settledOnly)).toEqual(['off_ramp.settled', 'on_ramp.created', 'on_ramp.created']);
    expect(typesAt(everything)).toHaveLength(5);

    // The test event: to every endpoint, whatever its types, signed; its record says delivered.
    const test = await request(app).post('/v1/events/test').set(auth);
    expect(test.status).toBe(202);
    const testId = test.body.data.webhookId as string;
    expect(testId).toMatch(/^evt_test~[0-9a-f-]{36}~1$/);
    const delivered = await waitFor('the test event to be delivered', async () => {
      const response = await request(app).get(`/v1/events/${testId}`).set(auth);
      return response.body.data?.delivery === 'delivered' ? (response.body.data as EventView) : undefined;
    });
    expect(delivered.event).toMatchObject({ type: 'test.ping' });
    for (const at of [everything, settledOnly]) {
      const pings = at.deliveries.filter((delivery) => delivery.webhookId === testId);
      expect(pings.map((delivery) => [delivery.verified, delivery.event?.type])).toEqual([
        [true, 'test.ping'],
      ]);
    }
    for (const reference of references)
      await stacks.client.workflow.getHandle(`onramp/${reference}`).terminate('test over');
  }, 150_000);

  test('during an outage every waiting event is listed in its queue; once the endpoint answers, one redelivery request sends the queue in seconds', async () => {
    let down = true;
    const backend = await receiver({ respond: (delivery) => (down || !delivery.verified ? 503 : 204) });
    const clientWebhooks = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: backend.url,
      CLIENT_WEBHOOK_SECRET: backend.secret,
      CLIENT_WEBHOOK_TIMEOUT: '2s',
    });
    const label = clientWebhooks.endpoints[0]!.label;
    const stack = await stacks.start({ clientWebhooks, timings: { outcomeDelivery: LONG_BACKOFF } });
    const app = apiOf(stack);
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address);
    await offRampEnded(stack, depositId);
    const [created, settled] = [`evt_offramp~${depositId}~1`, `evt_offramp~${depositId}~2`];

    // The wallet's event and the off-ramp's first each refused once; the off-ramp's second waits behind its first.
    const waiting = await waitFor('the waiting events listed', async () => {
      const { listed } = await allPages(app, { endUserId: user.endUserId, status: 'pending' });
      return listed.length === 3 && listed.filter((record) => record.attempts === 1).length === 2
        ? listed
        : undefined;
    });
    expect(waiting.map((record) => [record.event.type, record.attempts, record.waitingFor])).toEqual([
      ['off_ramp.settled', 0, 1],
      ['off_ramp.created', 1, 0],
      ['deposit_wallet.created', 1, 0],
    ]);
    for (const record of waiting.filter((refused) => refused.attempts === 1)) {
      expect(record.error).toBe(`${label} answered HTTP 503`);
      expect(Date.parse(record.nextAttemptAt!)).toBeGreaterThan(Date.now() + 9 * 60_000);
      expect(record.giveUpAt).not.toBeNull();
    }
    expect(backend.confirmed()).toEqual([]);
    expect(backend.deliveries.map((delivery) => delivery.webhookId)).not.toContain(settled);

    down = false;
    const redelivered = await request(app).post(`/v1/events/${created}/redeliver`).set(auth);
    expect(redelivered.status).toBe(202);
    expect(redelivered.body.data).toMatchObject({ webhookId: created, event: waiting[1]!.event });
    const after = await waitFor(
      'every event delivered (the backoff is ten minutes)',
      async () => {
        const { listed } = await allPages(app, { endUserId: user.endUserId });
        return listed.length === 3 && listed.every((record) => record.delivery === 'delivered')
          ? listed
          : undefined;
      },
      15_000,
    );
    expect(after.map((record) => record.attempts)).toEqual([1, 2, 2]);
    // Each once, the off-ramp's in its order.
    const confirmed = backend.confirmed().map((delivery) => delivery.webhookId);
    expect([...confirmed].sort()).toEqual(waiting.map((record) => record.webhookId).sort());
    expect(backend.deliveries.filter((delivery) => delivery.answered === 204)).toHaveLength(3);
    expect(confirmed.indexOf(settled)).toBeGreaterThan(confirmed.indexOf(created));
    expect(
      (await request(app).post(`/v1/events/evt_offramp~missing-${randomUUID()}~1/redeliver`).set(auth))
        .status,
    ).toBe(404);
    expect((await request(app).post('/v1/events/not-an-event/redeliver').set(auth)).status).toBe(400);
  }, 150_000);

  test('after a client outage, one job redelivers every failed event once more, each with its own webhook-id', async () => {
    let down = true;
    let release!: () => void;
    // Back up, but holding its answers until the test has seen the job running.
    const held = new Promise<void>((resolve) => (release = resolve));
    const backend = await receiver({
      respond: async (delivery) => (down || !delivery.verified ? 503 : (await held, 204)),
    });
    const stack = await stacks.start({
      clientWebhooks: loadClientWebhookConfig({
        CLIENT_WEBHOOK_URLS: backend.url,
        CLIENT_WEBHOOK_SECRET: backend.secret,
        CLIENT_WEBHOOK_TIMEOUT: '2s',
      }),
      timings: { outcomeDelivery: { ...FAST_DELIVERY, retryForMs: 3_000 } },
    });
    const app = apiOf(stack);
    const since = new Date().toISOString();
    const user = await endUserWithWallet(stack);
    const references = [`out-a-${randomUUID()}`, `out-b-${randomUUID()}`];
    for (const reference of references) await stack.ramp.startOnRamp(user.endUserId, reference);

    const failed = await waitFor('three failed events', async () => {
      const all = await allPages(app, { endUserId: user.endUserId, status: 'failed' });
      return all.listed.length === 3 ? all.listed : undefined;
    });
    for (const record of failed) {
      expect(record.error).toMatch(/HTTP 503/);
      expect(record).toMatchObject({ nextAttemptAt: null, giveUpAt: null });
    }
    const ids = failed.map((record) => record.webhookId).sort();
    expect(backend.confirmed()).toEqual([]);

    down = false;
    const started = await request(app)
      .post('/v1/events/redeliver')
      .set(auth)
      .send({ status: 'failed', endUserId: user.endUserId, since });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({
      status: 'running',
      matched: 3,
      delivered: 0,
      filter: { status: 'failed', endUserId: user.endUserId, since },
    });
    const jobId = started.body.data.jobId as string;
    release();
    const done = await waitFor('the job to complete', async () => {
      const response = await request(app).get(`/v1/events/redeliveries/${jobId}`).set(auth);
      const job = response.body.data as { status: string } | undefined;
      return job?.status === 'completed' ? job : undefined;
    });
    expect(done).toMatchObject({ jobId, matched: 3, delivered: 3, failed: 0, noEndpoint: 0 });

    // Each event confirmed exactly once, under its own id and with its own body.
    const confirmed = backend.confirmed();
    expect(confirmed.map((delivery) => delivery.webhookId).sort()).toEqual(ids);
    expect(backend.deliveries.filter((delivery) => delivery.answered === 204)).toHaveLength(3);
    for (const record of failed) {
      const sent = confirmed.find((delivery) => delivery.webhookId === record.webhookId)!;
      expect(JSON.parse(sent.body)).toEqual(record.event);
    }
    const after = await allPages(app, { endUserId: user.endUserId });
    expect(after.listed).toHaveLength(3);
    expect(after.listed.every((record) => record.delivery === 'delivered')).toBe(true);
    expect(after.listed.every((record) => record.attempts > 1)).toBe(true);
    expect((await request(app).get(`/v1/events/redeliveries/${randomUUID()}`).set(auth)).status).toBe(404);
    const missingSince = await request(app).post('/v1/events/redeliver').set(auth).send({ status: 'failed' });
    expect(missingSince.status).toBe(400);
    for (const reference of references)
      await stacks.client.workflow.getHandle(`onramp/${reference}`).terminate('test over');
  }, 150_000);
});
