/** The codec server: the Web UI's request shape, CORS, the bearer token, client errors and exposure. */
import { randomBytes } from 'node:crypto';
import { METADATA_ENCODING_KEY, type Payload } from '@temporalio/common';
import request from 'supertest';
import { plannedWebUi } from '../../../src/temporal/temporal-server';
import { loadEncryptionConfig, parseEncryptionKeys } from '../../../src/config/encryption';
import { loadTemporalConfig } from '../../../src/config/temporal';
import { SecretString } from '../../../src/secrets/secret-string';
import { createCodecServer, payloadToJson, startCodecServer } from '../../../src/temporal/codec-server';
import { EncryptionCodec } from '../../../src/temporal/encryption-codec';

const k1 = randomBytes(32).toString('base64');
const json = (value: unknown): Payload => ({
  metadata: { [METADATA_ENCODING_KEY]: Buffer.from('json/plain') },
  data: Buffer.from(JSON.stringify(value)),
});

describe('codec server', () => {
  const keys = parseEncryptionKeys(`k1:${k1}`);
  const codec = new EncryptionCodec(keys);
  const origin = 'http://127.0.0.1:8233';
  const app = createCodecServer({ codec, corsOrigins: [origin] });
  const guarded = createCodecServer({
    codec,
    corsOrigins: [origin],
    token: new SecretString('codec-token-0123456789'),
  });

  test('decodes the Web UI JSON shape, with CORS for the UI origin', async () => {
    const [encrypted] = await codec.encode([json({ amount: '99.99' })]);
    const response = await request(app)
      .post('/codec/decode')
      .set('origin', origin)
      .set('x-namespace', 'ramp-orchestrator')
      .send({ payloads: [payloadToJson(encrypted!)] });
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe(origin);
    const decodedBody = response.body as { payloads: Array<{ data: string }> };
    expect(JSON.parse(Buffer.from(decodedBody.payloads[0]!.data, 'base64').toString())).toEqual({
      amount: '99.99',
    });
    const encoded = await request(app)
      .post('/codec/encode')
      .send({ payloads: [payloadToJson(json('x'))] });
    const encodedBody = encoded.body as { payloads: Array<{ metadata: Record<string, string> }> };
    expect(Buffer.from(encodedBody.payloads[0]!.metadata.encoding!, 'base64').toString()).toBe(
      'binary/encrypted',
    );
  });

  test('answers the preflight for the UI origin (X-Namespace allowed) and refuses others', async () => {
    const preflight = await request(app)
      .options('/codec/decode')
      .set('origin', origin)
      .set('access-control-request-method', 'POST')
      .set('access-control-request-headers', 'content-type,x-namespace');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toMatch(/X-Namespace/i);
    expect(preflight.headers['access-control-allow-methods']).toMatch(/POST/);
    const foreign = await request(app)
      .options('/codec/decode')
      .set('origin', 'https://evil.example')
      .set('access-control-request-method', 'POST');
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });

  test('with a token, POSTs need the bearer (preflight does not)', async () => {
    const body = { payloads: [payloadToJson(json('x'))] };
    expect((await request(guarded).post('/codec/decode').send(body)).status).toBe(401);
    expect(
      (await request(guarded).post('/codec/decode').set('authorization', 'Bearer wrong').send(body)).status,
    ).toBe(401);
    expect(
      (
        await request(guarded)
          .post('/codec/decode')
          .set('authorization', 'Bearer codec-token-0123456789')
          .send(body)
      ).status,
    ).toBe(200);
    expect((await request(guarded).options('/codec/decode').set('origin', origin)).status).toBe(204);
  });

  test('bad bodies get 400', async () => {
    expect((await request(app).post('/codec/decode').send({ nope: 1 })).status).toBe(400);
    expect(
      (await request(app).post('/codec/decode').set('content-type', 'application/json').send('{bad')).status,
    ).toBe(400);
  });
});

describe('codec server: client errors and exposure', () => {
  const keys = parseEncryptionKeys(`k1:${k1}`);
  const codec = new EncryptionCodec(keys);
  const origin = 'http://127.0.0.1:8233';
  const body = JSON.stringify({ payloads: [payloadToJson(json('x'))] });

  function spiedApp(options: { allowedHosts?: string[]; token?: SecretString } = {}) {
    const calls: string[] = [];
    const spy = {
      encode: (payloads: Payload[]) => {
        calls.push('encode');
        return codec.encode(payloads);
      },
      decode: (payloads: Payload[]) => {
        calls.push('decode');
        return codec.decode(payloads);
      },
    };
    return { app: createCodecServer({ codec: spy, corsOrigins: [origin], ...options }), calls };
  }

  test('an unknown content encoding or charset is a 415 and a corrupt gzip body a 400 (once all 500)', async () => {
    const { app, calls } = spiedApp();
    const foo = await request(app)
      .post('/codec/decode')
      .set('content-type', 'application/json')
      .set('content-encoding', 'foo')
      .send(body);
    expect(foo.status).toBe(415);
    expect(foo.body).toEqual({ error: { code: 'unsupported_encoding', message: expect.any(String) } });
    const latin1 = await request(app)
      .post('/codec/decode')
      .set('content-type', 'application/json; charset=latin1')
      .send(body);
    expect(latin1.status).toBe(415);
    const gzip = await request(app)
      .post('/codec/decode')
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .send(body);
    expect(gzip.status).toBe(400);
    expect(gzip.body).toEqual({ error: { code: 'malformed_body', message: expect.any(String) } });
    expect(calls).toEqual([]);
  });

  test('only application/json is decoded: a cross-origin text/plain "simple request" gets 415 and no CORS grant', async () => {
    const { app, calls } = spiedApp();
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const response = await request(app)
        .post('/codec/encode')
        .set('origin', 'https://evil.example')
        .set('content-type', contentType)
        .send(body);
      expect(response.status).toBe(415);
      expect(response.body.error.code).toBe('unsupported_media_type');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect((await request(app).post('/codec/encode')).status).toBe(415);
    expect(calls).toEqual([]);
    // The Web UI's own call still works.
    expect(
      (
        await request(app)
          .post('/codec/encode')
          .set('origin', origin)
          .set('content-type', 'application/json')
          .send(body)
      ).status,
    ).toBe(200);
  });

  test('the Host header must name localhost, the bound or the public host (DNS rebinding)', async () => {
    const { app, calls } = spiedApp({ allowedHosts: ['codec.internal.example'] });
    for (const host of ['evil.example', 'evil.example:8234', '127.0.0.1.evil.example', '', 'a b']) {
      const response = await request(app)
        .post('/codec/decode')
        .set('host', host)
        .set('content-type', 'application/json')
        .send(body);
      expect({ host, status: response.status }).toEqual({ host, status: 403 });
      expect(response.body.error.code).toBe('host_not_allowed');
    }
    expect(calls).toEqual([]);
    for (const host of [
      '127.0.0.1:8234',
      'localhost:8234',
      'LOCALHOST',
      '[::1]:8234',
      'codec.internal.example',
      'codec.internal.example:443',
    ]) {
      expect(
        (
          await request(app)
            .post('/codec/decode')
            .set('host', host)
            .set('content-type', 'application/json')
            .send(body)
        ).status,
      ).toBe(200);
    }
  });

  test('refuses to start without a token on a non-loopback address', async () => {
    const codecServer = { host: '0.0.0.0', port: 0, corsOrigins: [], token: undefined, publicUrl: undefined };
    await expect(startCodecServer({ keys, codecServer })).rejects.toThrow(/CODEC_SERVER_TOKEN is required/);
    await expect(
      startCodecServer({ keys, codecServer: { ...codecServer, host: '10.1.2.3' } }),
    ).rejects.toThrow(/CODEC_SERVER_TOKEN is required/);
  });

  test('CORS follows the Web UI actually served (TEMPORAL_UI_PORT), not a fixed 8233', async () => {
    const webUi = await plannedWebUi(loadTemporalConfig({ TEMPORAL_UI_PORT: '9233' }));
    expect(webUi).toEqual({ ip: '127.0.0.1', port: 9233 });
    const encryption = loadEncryptionConfig({ PAYLOAD_ENCRYPTION_KEYS: `k1:${k1}`, CODEC_SERVER_PORT: '0' });
    expect(encryption.codecServer.corsOrigins).toBeUndefined();
    const running = await startCodecServer(encryption, { webUi });
    try {
      const preflight = (from: string) =>
        fetch(`${running.url}/codec/decode`, {
          method: 'OPTIONS',
          headers: { origin: from, 'access-control-request-method': 'POST' },
        });
      const ui = await preflight('http://127.0.0.1:9233');
      expect(ui.status).toBe(204);
      expect(ui.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:9233');
      expect((await preflight('http://localhost:9233')).status).toBe(204);
      expect((await preflight('http://127.0.0.1:8233')).status).toBe(403);
    } finally {
      await running.close();
    }
    // An explicit CODEC_SERVER_CORS_ORIGINS still wins.
    expect(
      loadEncryptionConfig({ CODEC_SERVER_CORS_ORIGINS: 'https://ui.example/' }).codecServer.corsOrigins,
    ).toEqual(['https://ui.example']);
  });
});
