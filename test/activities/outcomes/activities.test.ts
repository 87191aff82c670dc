import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { createOutcomeActivities, type DeliverOutcomeRequest } from '../../../activities/outcomes/activities';
import { loadClientWebhookConfig } from '../../../src/config/client-webhooks';
import type { OutcomeEvent } from '../../../src/domain/outcome-events';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
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
const request = { webhookId: 'evt_offramp~tx-1~2', event };
const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

interface Seen {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local endpoint answering `status` (a function of how many requests it has seen). */
async function endpoint(status: (count: number) => number, delayMs = 0) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      const answer = status(seen.length);
      setTimeout(() => {
        if (answer === 302) res.writeHead(302, { location: 'http://127.0.0.1:1/' }).end();
        else res.writeHead(answer).end();
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function capture() {
  const chunks: string[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk.toString());
        callback();
      },
    }),
  );
  return { logger, text: () => chunks.join('') };
}

/** The activity as a plain function (no method taken off its object). */
const deliverWith = (deps: Parameters<typeof createOutcomeActivities>[0]) => {
  const activities = createOutcomeActivities(deps);
  return (input: DeliverOutcomeRequest) => activities.deliverOutcomeEvent(input);
};

const attempt = (n: number, heartbeatDetails?: unknown) =>
  new MockActivityEnvironment(
    { attempt: n, activityId: '7', ...(heartbeatDetails === undefined ? {} : { heartbeatDetails }) },
    { logger: quiet },
  );

describe('deliverOutcomeEvent', () => {
  const servers: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  async function started(status: (count: number) => number, delayMs = 0) {
    const server = await endpoint(status, delayMs);
    servers.push(server);
    return server;
  }

  test('without endpoints it sends nothing and says so', async () => {
    const deliverOutcomeEvent = deliverWith({ logger: pino({ level: 'silent' }) });
    await expect(attempt(1).run(deliverOutcomeEvent, request)).resolves.toEqual({ endpoints: 0 });
  });

  test('posts the event, signed for standardwebhooks, to every endpoint; credentials go as Basic authentication', async () => {
    const first = await started(() => 204);
    const second = await started(() => 200);
    const clientWebhooks = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: `http://user:pa55@${first.host}/hook?token=t0k,http://${second.host}/other`,
      CLIENT_WEBHOOK_SECRET: SECRET,
    });
    const { logger, text } = capture();
    const deliverOutcomeEvent = deliverWith({ logger, clientWebhooks });
    await expect(attempt(1).run(deliverOutcomeEvent, request)).resolves.toEqual({ endpoints: 2 });
    for (const server of [first, second]) {
      expect(server.seen).toHaveLength(1);
      const { headers, body } = server.seen[0]!;
      expect(JSON.parse(body)).toEqual(event);
      expect(headers['webhook-id']).toBe(request.webhookId);
      expect(
        new Webhook(SECRET).verify(body, {
          'webhook-id': String(headers['webhook-id']),
          'webhook-timestamp': String(headers['webhook-timestamp']),
          'webhook-signature': String(headers['webhook-signature']),
        }),
      ).toEqual(event);
    }
    expect(first.seen[0]!.path).toBe('/hook?token=t0k');
    expect(first.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from('user:pa55').toString('base64')}`);
    expect(second.seen[0]!.headers.authorization).toBeUndefined();
    expect(text()).toContain('outcome event delivered');
    for (const secret of ['pa55', 't0k', '/hook', SECRET]) expect(text()).not.toContain(secret);
  });

  test('a non-2xx answer or a redirect fails the attempt; a retry goes only to the endpoints that did not confirm', async () => {
    const confirming = await started(() => 204);
    const failing = await started((count) => (count === 1 ? 500 : count === 2 ? 302 : 204));
    const clientWebhooks = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: `http://${confirming.host}/a?secret=s1,http://${failing.host}/b?secret=s2`,
      CLIENT_WEBHOOK_SECRET: SECRET,
    });
    const { logger, text } = capture();
    const deliverOutcomeEvent = deliverWith({ logger, clientWebhooks });

    const first = attempt(1);
    const heartbeats: unknown[] = [];
    first.on('heartbeat', (details: unknown) => heartbeats.push(details));
    const failure = await first.run(deliverOutcomeEvent, request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect((failure as ApplicationFailure).nonRetryable).toBe(false);
    expect((failure as Error).message).toBe(`endpoint 2 (${failing.host}) answered HTTP 500`);
    expect(heartbeats).toEqual([[0]]);

    // The next attempt starts from the heartbeat details: endpoint 1 is not sent the event again.
    const redirected = await attempt(2, [0])
      .run(deliverOutcomeEvent, request)
      .catch((error: unknown) => error);
    expect((redirected as Error).message).toBe(`endpoint 2 (${failing.host}) answered HTTP 302`);
    await expect(attempt(3, [0]).run(deliverOutcomeEvent, request)).resolves.toEqual({ endpoints: 2 });
    expect(confirming.seen).toHaveLength(1);
    expect(failing.seen).toHaveLength(3);
    expect(new Set(failing.seen.map((seen) => seen.body)).size).toBe(1);
    expect(new Set(failing.seen.map((seen) => seen.headers['webhook-id']))).toEqual(
      new Set([request.webhookId]),
    );
    expect(text()).toContain('outcome event not confirmed');
    for (const secret of ['secret=', '/a?', '/b?']) expect(text()).not.toContain(secret);
  });

  test('no answer within CLIENT_WEBHOOK_TIMEOUT is a failure; an unreachable endpoint is named without its URL', async () => {
    const slow = await started(() => 204, 1_000);
    const clientWebhooks = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: `http://${slow.host}/slow?k=v,http://user:pw@127.0.0.1:1/closed`,
      CLIENT_WEBHOOK_SECRET: SECRET,
      CLIENT_WEBHOOK_TIMEOUT: '200ms',
    });
    const deliverOutcomeEvent = deliverWith({
      logger: pino({ level: 'silent' }),
      clientWebhooks,
    });
    const failure = (await attempt(1)
      .run(deliverOutcomeEvent, request)
      .catch((error: unknown) => error)) as Error;
    expect(failure.message).toContain(`endpoint 1 (${slow.host}) did not answer within 200 ms`);
    expect(failure.message).toContain('endpoint 2 (127.0.0.1:1) was unreachable');
    expect(failure.message).not.toMatch(/slow|closed|pw|k=v/);
  });

  test('an endpoint gets only its types, the test event every endpoint; the record hears every attempt, refusal and end', async () => {
    const everything = await started(() => 204);
    const onRamps = await started((count) => (count === 1 ? 500 : 204));
    const clientWebhooks = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: `http://${everything.host}/a,http://${onRamps.host}/b#types=on_ramp.*`,
      CLIENT_WEBHOOK_SECRET: SECRET,
    });
    const told: Array<[string, string]> = [];
    const deliver = deliverWith({
      logger: pino({ level: 'silent' }),
      clientWebhooks,
      records: (where, news) => {
        told.push([where.webhookId, news.kind === 'ended' ? `ended ${news.delivery}` : news.kind]);
        return Promise.resolve();
      },
    });
    await expect(attempt(1).run(deliver, request)).resolves.toEqual({ endpoints: 1 });
    expect([everything.seen.length, onRamps.seen.length]).toEqual([1, 0]);

    const onlyFiltered = deliverWith({
      logger: pino({ level: 'silent' }),
      clientWebhooks: { ...clientWebhooks, endpoints: clientWebhooks.endpoints.slice(1) },
      records: (where, news) => {
        told.push([where.webhookId, news.kind === 'ended' ? `ended ${news.delivery}` : news.kind]);
        return Promise.resolve();
      },
    });
    // off_ramp.settled: the on-ramp endpoint does not take it.
    await expect(attempt(1).run(onlyFiltered, request)).resolves.toEqual({ endpoints: 0 });
    const ping = {
      webhookId: 'evt_test~t~1',
      event: { type: 'test.ping' as const, timestamp: event.timestamp, data: { message: 'hi' } },
    };
    await expect(attempt(1).run(onlyFiltered, ping)).rejects.toThrow(/answered HTTP 500/);
    await expect(attempt(2).run(onlyFiltered, ping)).resolves.toEqual({ endpoints: 1 });
    expect(told).toEqual([
      ['evt_offramp~tx-1~2', 'attempt'],
      ['evt_offramp~tx-1~2', 'ended delivered'],
      ['evt_offramp~tx-1~2', 'attempt'],
      ['evt_offramp~tx-1~2', 'ended no-endpoint'],
      ['evt_test~t~1', 'attempt'],
      ['evt_test~t~1', 'refused'],
      ['evt_test~t~1', 'attempt'],
      ['evt_test~t~1', 'ended delivered'],
    ]);
  });
});
