/**
 * One delivery attempt (src/outcomes/send.ts) against real local HTTP endpoints: signed for the standardwebhooks
 * package, credentials as Basic authentication, only a 2xx confirms, a retry goes only to the endpoints that have
 * not confirmed, an endpoint gets only its types (the test event every endpoint), and no failure names a URL.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { loadClientWebhookConfig } from '../../../src/config/client-webhooks';
import type { OutcomeEvent, TestPingEvent } from '../../../src/domain/outcome-events';
import { attemptDelivery } from '../../../src/outcomes/send';

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
const webhookId = 'evt_offramp~tx-1~2';

interface Seen {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local endpoint answering `status` (a function of how many requests it has seen), after `delayMs`. */
async function endpoint(status: (count: number) => number, delayMs = 0) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      const answer = status(seen.length);
      setTimeout(() => {
        if (res.destroyed) return;
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

const verified = (seen: Seen) =>
  new Webhook(SECRET).verify(seen.body, {
    'webhook-id': String(seen.headers['webhook-id']),
    'webhook-timestamp': String(seen.headers['webhook-timestamp']),
    'webhook-signature': String(seen.headers['webhook-signature']),
  });

describe('attemptDelivery', () => {
  const servers: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  async function started(status: (count: number) => number, delayMs = 0) {
    const server = await endpoint(status, delayMs);
    servers.push(server);
    return server;
  }

  test('without endpoints it sends nothing and says nothing receives the event', async () => {
    await expect(attemptDelivery(undefined, webhookId, event, [])).resolves.toEqual({
      receiving: [],
      confirmed: [],
      failures: [],
    });
    const none = loadClientWebhookConfig({});
    await expect(attemptDelivery(none, webhookId, event, [])).resolves.toEqual({
      receiving: [],
      confirmed: [],
      failures: [],
    });
  });

  test('posts the event, signed for standardwebhooks, to every endpoint; credentials go as Basic authentication', async () => {
    const first = await started(() => 204);
    const second = await started(() => 200);
    const config = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: `http://user:pa55@${first.host}/hook?token=t0k,http://${second.host}/other`,
      CLIENT_WEBHOOK_SECRET: SECRET,
    });
    const result = await attemptDelivery(config, webhookId, event, []);
    const labels = [`endpoint 1 (${first.host})`, `endpoint 2 (${second.host})`];
    expect(result.receiving).toEqual(labels);
    expect([...result.confirmed].sort()).toEqual(labels);
    expect(result.failures).toEqual([]);
    for (const server of [first, second]) {
      expect(server.seen).toHaveLength(1);
      const seen = server.seen[0]!;
      expect(JSON.parse(seen.body)).toEqual(event);
      expect(seen.headers['webhook-id']).toBe(webhookId);
      expect(seen.headers['content-type']).toBe('application/json');
      expect(verified(seen)).toEqual(event);
    }
    expect(first.seen[0]!.path).toBe('/hook?token=t0k');
    expect(first.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from('user:pa55').toString('base64')}`);
    expect(second.seen[0]!.path).toBe('/other');
    expect(second.seen[0]!.headers.authorization).toBeUndefined();
  });

  test('a non-2xx answer or a redirect is a failure; a retry goes only to the endpoints that did not confirm', async () => {
    const confirming = await started(() => 204);
    const failing = await started((count) => (count === 1 ? 500 : count === 2 ? 302 : 204));
    const config = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: `http://${confirming.host}/a?secret=s1,http://${failing.host}/b?secret=s2`,
      CLIENT_WEBHOOK_SECRET: SECRET,
    });
    const [one, two] = [`endpoint 1 (${confirming.host})`, `endpoint 2 (${failing.host})`];

    const first = await attemptDelivery(config, webhookId, event, []);
    expect(first).toEqual({
      receiving: [one, two],
      confirmed: [one],
      failures: [`${two} answered HTTP 500`],
    });
    // The redirect is not followed: it is the endpoint's answer, and not a 2xx.
    const redirected = await attemptDelivery(config, webhookId, event, first.confirmed);
    expect(redirected).toEqual({
      receiving: [one, two],
      confirmed: [],
      failures: [`${two} answered HTTP 302`],
    });
    const third = await attemptDelivery(config, webhookId, event, first.confirmed);
    expect(third).toEqual({ receiving: [one, two], confirmed: [two], failures: [] });

    expect(confirming.seen).toHaveLength(1);
    expect(failing.seen).toHaveLength(3);
    // Every attempt carries the same webhook-id and the same body, each signed afresh.
    expect(new Set(failing.seen.map((seen) => seen.body))).toEqual(new Set([JSON.stringify(event)]));
    expect(new Set(failing.seen.map((seen) => seen.headers['webhook-id']))).toEqual(new Set([webhookId]));
    for (const seen of failing.seen) expect(verified(seen)).toEqual(event);
    for (const failure of [...first.failures, ...redirected.failures])
      expect(failure).not.toMatch(/secret=|\/a|\/b/);
  });

  test('no answer within CLIENT_WEBHOOK_TIMEOUT is a failure; an unreachable endpoint is named without its URL', async () => {
    const slow = await started(() => 204, 2_000);
    const config = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: `http://${slow.host}/slow?k=v,http://user:pw@127.0.0.1:1/closed`,
      CLIENT_WEBHOOK_SECRET: SECRET,
      CLIENT_WEBHOOK_TIMEOUT: '200ms',
    });
    const result = await attemptDelivery(config, webhookId, event, []);
    expect(result.confirmed).toEqual([]);
    expect([...result.failures].sort()).toEqual([
      `endpoint 1 (${slow.host}) did not answer within 200 ms`,
      'endpoint 2 (127.0.0.1:1) was unreachable',
    ]);
    expect(result.failures.join(' ')).not.toMatch(/slow|closed|pw|k=v/);
  });

  test('a stopping dispatcher aborts an attempt under way without waiting for the endpoint', async () => {
    const held = await started(() => 204, 5_000);
    const config = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: `http://${held.host}/held`,
      CLIENT_WEBHOOK_SECRET: SECRET,
      CLIENT_WEBHOOK_TIMEOUT: '10s',
    });
    const abort = new AbortController();
    const attempt = attemptDelivery(config, webhookId, event, [], abort.signal);
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (held.seen.length === 0) return;
        clearInterval(poll);
        resolve();
      }, 10);
    });
    abort.abort();
    await expect(attempt).resolves.toEqual({
      receiving: [`endpoint 1 (${held.host})`],
      confirmed: [],
      failures: [`endpoint 1 (${held.host}) was unreachable`],
    });
  });

  test('an endpoint gets only the types it lists; the test event goes to every endpoint', async () => {
    const everything = await started(() => 204);
    const onRamps = await started(() => 204);
    const config = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: `http://${everything.host}/a,http://${onRamps.host}/b#types=on_ramp.*`,
      CLIENT_WEBHOOK_SECRET: SECRET,
    });
    const all = `endpoint 1 (${everything.host})`;
    const filtered = `endpoint 2 (${onRamps.host})`;
    await expect(attemptDelivery(config, webhookId, event, [])).resolves.toEqual({
      receiving: [all],
      confirmed: [all],
      failures: [],
    });
    expect([everything.seen.length, onRamps.seen.length]).toEqual([1, 0]);
    // The URL the filtered endpoint is posted to carries no fragment.
    const onRamp: OutcomeEvent = { ...event, type: 'on_ramp.settled' };
    await attemptDelivery(config, 'evt_onramp~ref-1~2', onRamp, []);
    expect(onRamps.seen.map((seen) => seen.path)).toEqual(['/b']);

    // Only the filtered endpoint configured: nothing receives an off-ramp event.
    const onlyFiltered = { ...config, endpoints: config.endpoints.slice(1) };
    await expect(attemptDelivery(onlyFiltered, webhookId, event, [])).resolves.toEqual({
      receiving: [],
      confirmed: [],
      failures: [],
    });
    const ping: TestPingEvent = { type: 'test.ping', timestamp: event.timestamp, data: { message: 'hi' } };
    const pinged = await attemptDelivery(config, 'evt_test~t~1', ping, []);
    expect(pinged.receiving).toEqual([all, filtered]);
    expect([...pinged.confirmed].sort()).toEqual([all, filtered]);
    expect(onRamps.seen.map((seen) => JSON.parse(seen.body).type as string)).toEqual([
      'on_ramp.settled',
      'test.ping',
    ]);
  });
});
