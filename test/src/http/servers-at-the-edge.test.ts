/**
 * The receiver (HTTPS), the API and the codec server at the edge, as measured: a 20 kB or 1 MB URL got Node's bare
 * 431 with an empty body, and 18 half-sent TLS requests were all still held after 15 s (Node's 60 s headers
 * timeout, checked every 30 s). Now: a JSON 431, and half-sent requests closed within the (here shortened) headers
 * timeout while normal requests are served.
 */
import type { Ledger } from '../../../src/database/connection';
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { type ApiHttpLimits, startApiServer, type RunningApiServer } from '../../../src/api/server';
import type { RampApi } from '../../../src/api/types';
import { parseEncryptionKeys } from '../../../src/config/encryption';
import { SecretString } from '../../../src/secrets/secret-string';
import { startCodecServer, type RunningCodecServer } from '../../../src/temporal/codec-server';
import { startReceiver, type RunningReceiver } from '../../../src/webhooks/receiver';
import { isErrorEnvelope, rawRequest, requestText, slowClient, type RawTarget } from '../../helpers/raw-http';
import { testReceiverConfig } from '../../helpers/receiver';

const HTTP: Required<ApiHttpLimits> = {
  timeouts: { headersTimeoutMs: 800, requestTimeoutMs: 2_000, keepAliveTimeoutMs: 500 },
  temporalTimeoutMs: 1_000,
};
const logger = pino({ level: 'silent' });

describe('servers at the edge', () => {
  let connection: Connection;
  let api: RunningApiServer;
  let receiver: RunningReceiver;
  let codec: RunningCodecServer;
  const targets: Array<[string, RawTarget]> = [];

  beforeAll(async () => {
    // Nothing here reaches Temporal: a lazy connection that is never used.
    connection = Connection.lazy({ address: '127.0.0.1:1' });
    const temporal = new Client({ connection });
    api = await startApiServer({
      config: {
        port: 0,
        host: '127.0.0.1',
        apiKey: new SecretString('edge-api-key-0123456789'),
        idempotencyRetentionMs: 86_400_000,
      },
      ramp: {} as RampApi,
      ledger: {} as Ledger,
      logger,
      http: HTTP,
    });
    receiver = await startReceiver(testReceiverConfig(), {
      temporal,
      taskQueue: 'edge',
      timings: {} as never,
      logger,
      timeouts: HTTP.timeouts,
    });
    const keys = parseEncryptionKeys(`k1:${randomBytes(32).toString('base64')}`);
    codec = await startCodecServer(
      {
        keys,
        codecServer: { host: '127.0.0.1', port: 0, corsOrigins: [], token: undefined, publicUrl: undefined },
      },
      { timeouts: HTTP.timeouts },
    );
    targets.push(
      ['API', { host: '127.0.0.1', port: api.port }],
      ['receiver', { host: '127.0.0.1', port: receiver.port, tls: true }],
      ['codec server', { host: '127.0.0.1', port: codec.port }],
    );
  });

  afterAll(async () => {
    await Promise.all([api?.close(), receiver?.close(), codec?.close()]);
    await connection?.close();
  });

  test.each([20_000, 1_000_000])('a %i-byte URL gets a JSON 431 from each', async (length) => {
    for (const [name, target] of targets) {
      const answer = await rawRequest(target, requestText('GET', `/v1/${'a'.repeat(length)}`));
      expect({ name, status: answer.status }).toEqual({ name, status: 431 });
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body)).toEqual({
        error: { code: 'headers_too_large', message: expect.any(String) },
      });
    }
  });

  test('half-sent requests are closed within the headers timeout, while each server keeps serving', async () => {
    const started = Date.now();
    const slow = await Promise.all(
      targets.flatMap(([name, target]) =>
        Array.from({ length: 18 }, async (_unused, index) => ({
          name,
          client: await slowClient(target, index % 3 ? 'POST /webhooks/transa' : ''),
        })),
      ),
    );
    // And TLS handshakes that never finish (a TCP connection to the receiver that sends nothing, or half a hello).
    const handshakes = await Promise.all(
      Array.from({ length: 6 }, async (_unused, index) => ({
        name: 'receiver handshake',
        client: await slowClient(
          { host: '127.0.0.1', port: receiver.port },
          index % 2 ? '\x16\x03\x01\x02\x00\x01' : '',
        ),
      })),
    );
    slow.push(...handshakes);
    for (const [name, target] of targets) {
      const answer = await rawRequest(target, requestText('GET', '/healthz'));
      expect({ name, status: answer.status }).toEqual({ name, status: 200 });
    }
    const held = await Promise.all(slow.map(async ({ name, client }) => ({ name, ms: await client.closed })));
    for (const { name, ms } of held)
      expect({ name, closedInTime: ms < HTTP.timeouts.headersTimeoutMs * 3 }).toEqual({
        name,
        closedInTime: true,
      });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test('a request that is not HTTP gets a JSON 400 from each', async () => {
    for (const [name, target] of targets) {
      const answer = await rawRequest(target, 'GET / HTTP/1.1\r\nHost: localhost\r\nno colon here\r\n\r\n');
      expect({ name, status: answer.status }).toEqual({ name, status: 400 });
      expect(isErrorEnvelope(JSON.parse(answer.body))).toBe(true);
    }
  });
});
