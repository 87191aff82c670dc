/**
 * The HTTP API over the real typed client (dev server + sandbox + worker): the key is required, and an
 * authorised call goes all the way to the operator.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import request from 'supertest';
import { createApiApp } from '../../../src/api/app';
import { SecretString } from '../../../src/config/operator';
import { type Stack, startStack } from '../../helpers/client-stack';

const API_KEY = 'integration-test-api-key-5f1d9c';

describe('HTTP API (real dev server + sandbox over HTTP)', () => {
  let stack: Stack;
  let app: ReturnType<typeof createApiApp>;

  beforeAll(async () => {
    stack = await startStack();
    app = createApiApp({
      ramp: stack.ramp,
      apiKey: new SecretString(API_KEY),
      logger: pino({ level: 'silent' }),
    });
  });
  afterAll(async () => {
    await stack.stop();
  });

  test('without its key (or with a wrong one) every route answers 401 JSON and nothing reaches the operator', async () => {
    const before = stack.sandbox.calls().length;
    for (const [method, path] of [
      ['post', '/v1/quotes'],
      ['post', '/v1/end-users/u1/deposit-wallet'],
      ['get', '/v1/end-users/u1'],
      ['post', '/v1/account/setup'],
      ['get', '/v1/account'],
      ['get', '/v1/unknown'],
    ] as const) {
      const missing = await request(app)[method](path).send({});
      expect(missing.status).toBe(401);
      expect(missing.body.error.code).toBe('unauthorized');
      const wrong = await request(app)[method](path).set('Authorization', 'Bearer not-the-key').send({});
      expect(wrong.status).toBe(401);
    }
    expect(stack.sandbox.calls().length).toBe(before);
  });

  test('with the key: deposit wallet, end user, quote; 404 for an unknown user; 400 for bad input', async () => {
    const auth = { Authorization: `Bearer ${API_KEY}` };
    const endUserId = `api-${randomUUID().slice(0, 8)}`;
    const created = await request(app).post(`/v1/end-users/${endUserId}/deposit-wallet`).set(auth);
    expect(created.status).toBe(200);
    expect(created.body.data.addresses).toHaveLength(2);

    const user = await request(app).get(`/v1/end-users/${endUserId}`).set(auth);
    expect(user.status).toBe(200);
    expect(user.body.data.wallet.walletId).toBe(created.body.data.walletId);

    const unknown = await request(app)
      .get(`/v1/end-users/nobody-${randomUUID().slice(0, 8)}`)
      .set(auth);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');

    const quote = await request(app)
      .post('/v1/quotes')
      .set(auth)
      .send({ direction: 'off-ramp', coinFrom: 'USDT', chainFrom: 'TRX', coinTo: 'MXN', amountFrom: '20' });
    expect(quote.status).toBe(200);
    expect(quote.body.data.targetAmount).toMatch(/^\d+(\.\d+)?$/);

    const before = stack.sandbox.calls().length;
    const bad = await request(app)
      .post('/v1/quotes')
      .set(auth)
      .send({ direction: 'off-ramp', coinFrom: 'USDT', chainFrom: 'TRX', coinTo: 'MXN', amountFrom: '-1' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_input');
    expect((bad.body.error.issues as string[]).join('\n')).toMatch(/amountFrom/);
    expect(stack.sandbox.calls().length).toBe(before);
  });
});
