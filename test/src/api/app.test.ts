import request from 'supertest';
import { AUTH, stubApp } from '../../helpers/api-stub';

describe('API app: key, JSON errors', () => {
  test('401 JSON without the key, with a wrong key, or with a non-Bearer scheme', async () => {
    const { app, ramp } = stubApp();
    for (const headers of [
      {},
      { Authorization: 'Bearer wrong' },
      { Authorization: `Basic ${AUTH.Authorization.slice(7)}` },
    ]) {
      const response = await request(app).get('/v1/account').set(headers);
      expect(response.status).toBe(401);
      expect(response.headers['content-type']).toMatch(/json/);
      expect(response.body.error.code).toBe('unauthorized');
    }
    expect(ramp.getAccount).not.toHaveBeenCalled();
  });

  test('unknown routes answer 404 JSON; malformed JSON answers 400 JSON', async () => {
    const { app } = stubApp();
    const unknown = await request(app).get('/v1/nothing-here').set(AUTH);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const malformed = await request(app)
      .post('/v1/quotes')
      .set(AUTH)
      .set('content-type', 'application/json')
      .send('{"direction":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('malformed_json');
    const latin1 = await request(app)
      .post('/v1/quotes')
      .set(AUTH)
      .set('content-type', 'application/json; charset=latin1')
      .send('{}');
    expect(latin1.status).toBe(415);
    expect(latin1.body.error.code).toBe('unsupported_encoding');
  });

  test('an unexpected failure is a generic 500 without details', async () => {
    const { app } = stubApp({ getAccount: jest.fn().mockRejectedValue(new Error('secret detail')) });
    const response = await request(app).get('/v1/account').set(AUTH);
    expect(response.status).toBe(500);
    expect(JSON.stringify(response.body)).not.toContain('secret detail');
  });

  test('healthz needs no key', async () => {
    const { app } = stubApp();
    expect((await request(app).get('/healthz')).status).toBe(200);
  });
});
