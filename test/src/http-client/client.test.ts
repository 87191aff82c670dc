/**
 * The HTTP client against a stand-in server on loopback: what it sends (key, JSON, one Idempotency-Key per POST
 * call, kept across its retries), what it retries (5xx, after Retry-After; a broken connection; 409
 * idempotency_key_in_use) and what it throws (RampApiError with the envelope's code and issues).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RampApiError, RampHttpClient } from '../../../src/http-client';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

async function stand(answer: (seen: Seen, count: number, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const one = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      seen.push(one);
      answer(one, seen.length, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    seen,
    client: new RampHttpClient({ baseUrl: `http://127.0.0.1:${port}/`, apiKey: 'the-key', retryDelayMs: 10 }),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const json = (
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

describe('RampHttpClient', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });
  const started = async (answer: Parameters<typeof stand>[0]) => {
    const server = await stand(answer);
    open.push(server);
    return server;
  };

  test('a POST retried after 503 (Retry-After) and a broken connection keeps one Idempotency-Key; 201 is created', async () => {
    const server = await started((_seen, count, res) => {
      if (count === 1)
        return json(
          res,
          503,
          { error: { code: 'temporarily_unavailable', message: 'x' } },
          { 'retry-after': '0' },
        );
      if (count === 2) return res.socket?.destroy();
      json(res, 201, { data: { orderReference: 'r', status: 'awaiting-order' } });
    });
    const answer = await server.client.startOnRamp({ endUserId: 'u', orderReference: 'r' });
    expect(answer).toEqual({ created: true, state: { orderReference: 'r', status: 'awaiting-order' } });
    expect(server.seen).toHaveLength(3);
    const keys = server.seen.map((seen) => seen.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(server.seen[0]).toMatchObject({
      method: 'POST',
      url: '/v1/on-ramps',
      headers: { authorization: 'Bearer the-key', 'content-type': 'application/json' },
      body: '{"endUserId":"u","orderReference":"r"}',
    });
    // Another call is another key.
    await server.client.startOnRamp({ endUserId: 'u', orderReference: 'r' });
    expect(server.seen[3]!.headers['idempotency-key']).not.toBe(keys[0]);
  });

  test('409 idempotency_key_in_use is retried; a 4xx is thrown with its code and issues; GET sends no key', async () => {
    const server = await started((seen, count, res) => {
      if (seen.url.startsWith('/v1/quotes'))
        return count === 1
          ? json(res, 409, { error: { code: 'idempotency_key_in_use', message: 'x' } })
          : json(res, 200, { data: { targetAmount: '1' } });
      json(res, 400, {
        error: { code: 'invalid_input', message: 'Invalid ramp filter', issues: ['limit: no'] },
      });
    });
    await expect(
      server.client.quote({
        direction: 'off-ramp',
        coinFrom: 'USDT',
        chainFrom: 'TRX',
        coinTo: 'MXN',
        amountFrom: '1',
      }),
    ).resolves.toEqual({ targetAmount: '1' });
    const error = await server.client
      .listRamps({ limit: 500, endUserId: 'a b' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RampApiError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_input', issues: ['limit: no'] });
    const get = server.seen.at(-1)!;
    expect(get.url).toBe('/v1/ramps?limit=500&endUserId=a+b');
    expect(get.headers['idempotency-key']).toBeUndefined();
    expect(server.seen.filter((seen) => seen.url.startsWith('/v1/ramps'))).toHaveLength(1);
  });

  test("showDepositQuote POSTs the quote request to the end user's deposit-quote path, with a key", async () => {
    const server = await started((_seen, _count, res) =>
      json(res, 200, { data: { amountFrom: '50', targetAmount: '858.1' } }),
    );
    const request = {
      direction: 'off-ramp',
      coinFrom: 'USDT',
      chainFrom: 'TRX',
      coinTo: 'MXN',
      amountFrom: '50',
    } as const;
    await expect(server.client.showDepositQuote('user 1', request)).resolves.toEqual({
      amountFrom: '50',
      targetAmount: '858.1',
    });
    expect(server.seen[0]).toMatchObject({
      method: 'POST',
      url: '/v1/end-users/user%201/deposit-quote',
      body: JSON.stringify(request),
    });
    expect(server.seen[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('listAlerts sends its filter as the query and answers the page; an incident action POSTs with a key', async () => {
    const page = { data: [], pagination: { nextPageToken: 'next' } };
    const incident = { key: 'gas-low/networks/tron-mainnet', kind: 'gas-low' };
    const server = await started((seen, _count, res) =>
      seen.method === 'GET' ? json(res, 200, page) : json(res, 200, { data: incident }),
    );
    await expect(
      server.client.listAlerts({ status: 'resolved', kind: 'gas-low', limit: 5 }),
    ).resolves.toEqual(page);
    expect(server.seen[0]!.url).toBe('/v1/alerts?status=resolved&kind=gas-low&limit=5');
    const action = { key: incident.key, by: 'ana', reason: 'on it' };
    await expect(server.client.acknowledgeIncident(action)).resolves.toEqual(incident);
    expect(server.seen[1]).toMatchObject({
      method: 'POST',
      url: '/v1/alerts/acknowledge',
      body: JSON.stringify(action),
    });
    expect(server.seen[1]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('a 5xx that lasts is thrown after the retries; path values are one encoded segment', async () => {
    const server = await started((_seen, _count, res) =>
      json(res, 502, { error: { code: 'upstream_failed', message: 'x' } }),
    );
    await expect(server.client.getOnRamp('a/b')).rejects.toMatchObject({
      status: 502,
      code: 'upstream_failed',
    });
    expect(server.seen.map((seen) => seen.url)).toEqual(Array(4).fill('/v1/on-ramps/a%2Fb'));
  });
});
