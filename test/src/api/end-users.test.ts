import request from 'supertest';
import { NotFoundError } from '../../../src/client/errors';
import { AUTH, stubApp } from '../../helpers/api-stub';

const wallet = {
  walletId: 'w1',
  externalUserId: 'end-user:u1',
  addresses: [{ network: 'networks/tron-mainnet', address: 'T1' }],
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('end-users router', () => {
  test('POST /v1/end-users/{id}/deposit-wallet answers the wallet', async () => {
    const { app, ramp } = stubApp({ ensureDepositWallet: jest.fn().mockResolvedValue(wallet) });
    const response = await request(app).post('/v1/end-users/u1/deposit-wallet').set(AUTH);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: wallet });
    expect(ramp.ensureDepositWallet).toHaveBeenCalledWith('u1');
  });

  test('an invalid ID is a 400 with issues and never reaches the client', async () => {
    const { app, ramp } = stubApp();
    const response = await request(app)
      .post(`/v1/end-users/${encodeURIComponent('bad id')}/deposit-wallet`)
      .set(AUTH);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_input');
    expect(response.body.error.issues).toHaveLength(1);
    expect(ramp.ensureDepositWallet).not.toHaveBeenCalled();
  });

  test('an e-mail address names no new end user: 400 saying so, nothing reaches the client; reads still take it', async () => {
    const { app, ramp } = stubApp({
      getEndUserOverview: jest.fn().mockRejectedValue(new NotFoundError('No end user')),
    });
    const email = encodeURIComponent('alice@example.com');
    for (const path of [`/v1/end-users/${email}/deposit-wallet`, `/v1/end-users/${email}/deposit-quote`]) {
      const response = await request(app).post(path).set(AUTH).send({
        direction: 'off-ramp',
        coinFrom: 'USDT',
        chainFrom: 'TRX',
        coinTo: 'MXN',
        amountFrom: '100',
      });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_input');
      expect(response.body.error.issues).toEqual([
        'id: must not be an e-mail address (no . after an @): the ID is shown in clear, use an opaque one such as your user UUID',
      ]);
    }
    const onRamp = await request(app)
      .post('/v1/on-ramps')
      .set(AUTH)
      .send({ endUserId: 'alice@example.com', orderReference: 'order-1' });
    expect(onRamp.status).toBe(400);
    expect(onRamp.body.error.issues).toEqual([
      'endUserId: must not be an e-mail address (no . after an @): the ID is shown in clear, use an opaque one such as your user UUID',
    ]);
    expect(ramp.ensureDepositWallet).not.toHaveBeenCalled();
    expect(ramp.showDepositQuote).not.toHaveBeenCalled();
    expect(ramp.startOnRamp).not.toHaveBeenCalled();
    expect((await request(app).get(`/v1/end-users/${email}`).set(AUTH)).status).toBe(404);
    expect(ramp.getEndUserOverview).toHaveBeenCalledWith('alice@example.com');
  });

  test('GET /v1/end-users/{id}: 200 with the ramps for a known user, 404 JSON for an unknown one', async () => {
    const ramps = [
      {
        workflowId: 'onramp/o1',
        direction: 'on-ramp',
        status: 'awaiting-order',
        endUserId: 'known',
        orderReference: 'o1',
        depositTransactionId: null,
        running: true,
        startTime: '2026-01-02T00:00:00.000Z',
        closeTime: null,
      },
      {
        workflowId: 'offramp/t1',
        direction: 'off-ramp',
        status: 'settled',
        endUserId: 'known',
        orderReference: null,
        depositTransactionId: 't1',
        running: false,
        startTime: '2026-01-01T00:00:00.000Z',
        closeTime: '2026-01-01T00:10:00.000Z',
      },
    ];
    const { app, ramp } = stubApp({
      getEndUserOverview: jest.fn().mockImplementation((id: string) =>
        id === 'known'
          ? Promise.resolve({
              endUserId: 'known',
              wallet,
              walletStatus: 'ready',
              createdAt: '2026-01-01T00:00:00.000Z',
              updatedAt: '2026-01-01T00:00:01.000Z',
              ramps,
              nextRampsPageToken: null,
            })
          : id === 'onramps-only'
            ? Promise.resolve({
                endUserId: id,
                walletStatus: 'none',
                ramps: ramps.slice(0, 1),
                nextRampsPageToken: 'abc',
              })
            : Promise.reject(new NotFoundError(`No end user ${id}`)),
      ),
    });
    const known = await request(app).get('/v1/end-users/known').set(AUTH);
    expect(known.status).toBe(200);
    expect(known.body.data.wallet).toEqual(wallet);
    expect((known.body.data.ramps as { direction: string }[]).map((entry) => entry.direction)).toEqual([
      'on-ramp',
      'off-ramp',
    ]);
    const onRampsOnly = await request(app).get('/v1/end-users/onramps-only').set(AUTH);
    expect(onRampsOnly.status).toBe(200);
    expect(onRampsOnly.body.data).toMatchObject({ walletStatus: 'none', nextRampsPageToken: 'abc' });
    const unknown = await request(app).get('/v1/end-users/nobody').set(AUTH);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toEqual({ code: 'not_found', message: 'No end user nobody' });
    expect(ramp.getEndUserOverview).toHaveBeenCalledTimes(3);
  });
});
