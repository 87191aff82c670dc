/**
 * The limits every server of ours gets (src/http/server.ts), on a real listening HTTP and HTTPS server: a JSON 431
 * for an oversize request line instead of Node's bare one, and connections that never finish a request closed
 * within the configured headers timeout while normal requests are still served.
 */
import express from 'express';
import { listen, type ListeningServer } from '../../../src/http/listen';
import type { HttpServerTimeouts } from '../../../src/http/server';
import { createHttpServer, createHttpsServer } from '../../../src/http/server';
import { getLocalCertificate } from '../../../src/tls/local-certificate';
import { isErrorEnvelope, rawRequest, requestText, slowClient, type RawTarget } from '../../helpers/raw-http';

const TIMEOUTS: HttpServerTimeouts = {
  headersTimeoutMs: 600,
  requestTimeoutMs: 1200,
  keepAliveTimeoutMs: 500,
};

function app() {
  const served = express();
  served.get('/ping', (_req, res) => {
    res.json({ pong: true });
  });
  return served;
}

describe.each([
  ['HTTP', false],
  ['HTTPS', true],
])('%s server limits', (_name, secure) => {
  let running: ListeningServer;
  let target: RawTarget;

  beforeAll(async () => {
    const server = secure
      ? createHttpsServer(await getLocalCertificate(), app(), TIMEOUTS)
      : createHttpServer(app(), TIMEOUTS);
    running = await listen(server, 0, '127.0.0.1', secure ? 'https' : 'http');
    target = { host: '127.0.0.1', port: running.port, tls: secure };
  });
  afterAll(() => running.close());

  test.each([20_000, 1_000_000])('a %i-byte URL gets a JSON 431', async (length) => {
    const answer = await rawRequest(target, requestText('GET', `/${'a'.repeat(length)}`));
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'headers_too_large', message: expect.any(String) },
    });
  });

  test('a request that is not HTTP gets a JSON 400', async () => {
    const answer = await rawRequest(target, 'GET /ping HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(isErrorEnvelope(JSON.parse(answer.body))).toBe(true);
  });

  test('connections that never finish (or never start) a request are closed within the headers timeout; others are served meanwhile', async () => {
    const slow = await Promise.all(
      Array.from({ length: 40 }, (_unused, index) =>
        slowClient(
          target,
          index % 4 === 0 ? '' : index % 2 ? 'GET /pi' : 'GET /ping HTTP/1.1\r\nHost: x\r\n',
        ),
      ),
    );
    const normal = await rawRequest(target, requestText('GET', '/ping'));
    expect(normal.status).toBe(200);
    expect(JSON.parse(normal.body)).toEqual({ pong: true });
    const closedAfter = await Promise.all(slow.map((client) => client.closed));
    // Headers timeout plus Node's check interval (a quarter of it) plus scheduling slack; Node's default is 60 s.
    for (const ms of closedAfter) expect(ms).toBeLessThan(TIMEOUTS.headersTimeoutMs * 3);
    expect((await rawRequest(target, requestText('GET', '/ping'))).status).toBe(200);
  });
});
