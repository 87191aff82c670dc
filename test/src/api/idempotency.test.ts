/**
 * The Idempotency-Key middleware over a stubbed store: which answers it replays, keeps, releases and refuses.
 * The store itself (a row per key in the ledger) is tested against PostgreSQL: idempotency.temporal.test.ts.
 */
import request from 'supertest';
import { AUTH, stubApp } from '../../helpers/api-stub';

const WALLET = {
  walletId: 'w-1',
  externalUserId: 'end-user:u-1',
  addresses: [{ network: 'networks/tron-mainnet', address: 'T1' }],
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('Idempotency-Key', () => {
  test('without the header nothing is claimed; with it, the claim names the route, the key and the request', async () => {
    const { app, keys } = stubApp({ ensureDepositWallet: jest.fn().mockResolvedValue(WALLET) });
    expect((await request(app).post('/v1/end-users/u-1/deposit-wallet').set(AUTH)).status).toBe(200);
    expect(keys.claim).not.toHaveBeenCalled();
    const response = await request(app)
      .post('/v1/end-users/u-1/deposit-wallet')
      .set({ ...AUTH, 'Idempotency-Key': 'key-1' });
    expect(response.status).toBe(200);
    expect(response.headers['idempotent-replayed']).toBeUndefined();
    expect(keys.claim).toHaveBeenCalledWith(
      expect.objectContaining({ route: 'ensureDepositWallet', key: 'key-1', retentionMs: 86_400_000 }),
    );
    const { requestId } = keys.claim.mock.calls[0][0] as { requestId: string };
    expect(keys.record).toHaveBeenCalledWith({
      route: 'ensureDepositWallet',
      key: 'key-1',
      requestId,
      status: 200,
      body: { data: WALLET },
      retentionMs: 86_400_000,
    });
  });

  test('the same body with its keys in another order is the same request; another body is not', async () => {
    const { app, keys } = stubApp({
      startOnRamp: jest.fn().mockRejectedValue(new Error('not reached')),
    });
    keys.claim.mockResolvedValue({ outcome: 'mismatch' });
    const post = (body: object) =>
      request(app)
        .post('/v1/on-ramps')
        .set({ ...AUTH, 'Idempotency-Key': 'k' })
        .send(body);
    await post({ endUserId: 'u', orderReference: 'r' });
    await post({ orderReference: 'r', endUserId: 'u' });
    await post({ endUserId: 'u', orderReference: 'r2' });
    const prints = keys.claim.mock.calls.map((call) => (call[0] as { fingerprint: string }).fingerprint);
    expect(prints[0]).toBe(prints[1]);
    expect(prints[2]).not.toBe(prints[0]);
  });

  test('a kept answer is replayed as it was, with Idempotent-Replayed: true, and nothing runs', async () => {
    const { app, ramp, keys } = stubApp();
    keys.claim.mockResolvedValue({
      outcome: 'replay',
      answer: {
        status: 409,
        body: { error: { code: 'conflict', message: 'another end user' } },
        recordedAt: '2026-01-01T00:00:00Z',
      },
    });
    const response = await request(app)
      .post('/v1/on-ramps')
      .set({ ...AUTH, 'Idempotency-Key': 'k' })
      .send({ endUserId: 'u', orderReference: 'r' });
    expect(response.status).toBe(409);
    expect(response.headers['idempotent-replayed']).toBe('true');
    expect(response.body).toEqual({ error: { code: 'conflict', message: 'another end user' } });
    expect(ramp.startOnRamp).not.toHaveBeenCalled();
  });

  test('in progress: 409; used with another request: 422; nothing runs', async () => {
    const { app, ramp, keys } = stubApp();
    keys.claim.mockResolvedValueOnce({ outcome: 'in-progress' });
    keys.claim.mockResolvedValueOnce({ outcome: 'mismatch' });
    const busy = await request(app)
      .post('/v1/account/setup')
      .set({ ...AUTH, 'Idempotency-Key': 'k' });
    expect([busy.status, busy.body.error.code]).toEqual([409, 'idempotency_key_in_use']);
    const reused = await request(app)
      .post('/v1/account/setup')
      .set({ ...AUTH, 'Idempotency-Key': 'k' });
    expect([reused.status, reused.body.error.code]).toEqual([422, 'idempotency_key_reused']);
    expect(ramp.setupAccount).not.toHaveBeenCalled();
  });

  test('400 (nothing ran) and 5xx (retry) release the key; a refusal such as 409 is kept', async () => {
    const { app, keys } = stubApp({
      ensureDepositWallet: jest.fn().mockRejectedValue(new Error('boom')),
    });
    const headers = { ...AUTH, 'Idempotency-Key': 'k' };
    expect((await request(app).post('/v1/on-ramps').set(headers).send({ endUserId: '' })).status).toBe(400);
    expect((await request(app).post('/v1/end-users/u/deposit-wallet').set(headers)).status).toBe(500);
    expect(keys.release).toHaveBeenCalledTimes(2);
    expect(keys.record).not.toHaveBeenCalled();
  });

  test('a malformed key is a 400 before anything is claimed; a GET ignores the header', async () => {
    const { app, keys } = stubApp({ getAccount: jest.fn().mockRejectedValue(new Error('x')) });
    for (const key of ['a b', 'x'.repeat(256)]) {
      const response = await request(app)
        .post('/v1/account/setup')
        .set({ ...AUTH, 'Idempotency-Key': key });
      expect(response.status).toBe(400);
      expect(response.body.error.issues).toEqual([
        'Idempotency-Key: must be 1-255 printable ASCII characters without spaces',
      ]);
    }
    await request(app)
      .get('/v1/account')
      .set({ ...AUTH, 'Idempotency-Key': 'k' });
    expect(keys.claim).not.toHaveBeenCalled();
  });
});
