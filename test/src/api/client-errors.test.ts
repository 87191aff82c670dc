/**
 * The API answers the client's own mistakes with a JSON 4xx, including what express and body-parser raise on their
 * own (it once answered 500 to a malformed percent-encoding and to a corrupt gzip body), and a Temporal call that
 * does not answer in time with 503 and Retry-After.
 */
import request from 'supertest';
import { AUTH, stubApp } from '../../helpers/api-stub';

describe('API: client errors', () => {
  test.each(['%ZZ', 'a%FF', '%ED%A0%80'])(
    'GET /v1/end-users/%s is a 400 that reaches nothing',
    async (raw) => {
      const { app, ramp } = stubApp();
      for (const path of [`/v1/end-users/${raw}`, `/v1/end-users/${raw}/deposit-wallet`]) {
        const response = path.endsWith('wallet')
          ? await request(app).post(path).set(AUTH)
          : await request(app).get(path).set(AUTH);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: { code: 'malformed_uri', message: expect.any(String) } });
      }
      expect(ramp.getEndUserOverview).not.toHaveBeenCalled();
      expect(ramp.ensureDepositWallet).not.toHaveBeenCalled();
    },
  );

  test.each(['..', '%2e%2e', 'a%2Fb', '%F0%9F%98%80', 'x'.repeat(129)])(
    'the end user ID %s is invalid input',
    async (raw) => {
      const { app, ramp } = stubApp();
      const response = await request(app).get(`/v1/end-users/${raw}`).set(AUTH);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_input');
      expect(ramp.getEndUserOverview).not.toHaveBeenCalled();
    },
  );

  test('a corrupt gzip body is a 400, an unknown encoding a 415', async () => {
    const { app, ramp } = stubApp();
    const gzip = await request(app)
      .post('/v1/quotes')
      .set(AUTH)
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .send('{"direction":"on-ramp"}');
    expect(gzip.status).toBe(400);
    expect(gzip.body).toEqual({ error: { code: 'malformed_body', message: expect.any(String) } });
    const foo = await request(app)
      .post('/v1/quotes')
      .set(AUTH)
      .set('content-type', 'application/json')
      .set('content-encoding', 'foo')
      .send('{}');
    expect(foo.status).toBe(415);
    expect(foo.body.error.code).toBe('unsupported_encoding');
    expect(ramp.quote).not.toHaveBeenCalled();
  });
});

describe('API: Temporal deadline', () => {
  test('a Temporal call that does not answer within the deadline is a prompt 503 with Retry-After', async () => {
    const never = () => jest.fn(() => new Promise<never>(() => undefined));
    const names = [
      'ensureDepositWallet',
      'getEndUserOverview',
      'quote',
      'setupAccount',
      'getAccount',
      'listAlerts',
      'startOnRamp',
      'getOnRamp',
      'getOffRamp',
      'listRamps',
      'redeliverEvent',
    ] as const;
    const { app } = stubApp(Object.fromEntries(names.map((name) => [name, never()])), {
      temporalTimeoutMs: 300,
    });
    for (const [method, path] of [
      ['get', '/v1/on-ramps/ord-1'],
      ['get', '/v1/off-ramps/tx-1'],
      ['get', '/v1/ramps'],
      ['post', '/v1/events/evt_onramp~ord-1~1/redeliver'],
      ['get', '/v1/alerts'],
      ['get', '/v1/account'],
      ['get', '/v1/end-users/u1'],
      ['post', '/v1/end-users/u1/deposit-wallet'],
      ['post', '/v1/account/setup'],
    ] as const) {
      const started = Date.now();
      const response = await request(app)[method](path).set(AUTH);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.body).toEqual({
        error: { code: 'temporarily_unavailable', message: expect.any(String) },
      });
    }
  });
});
