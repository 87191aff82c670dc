import request from 'supertest';
import { NotFoundError } from '../../../src/client/errors';
import { AUTH, stubApp } from '../../helpers/api-stub';

describe('account router', () => {
  test('POST /v1/account/setup runs the setup and answers its result', async () => {
    const wallet = (role: string) => ({
      role,
      walletId: `w-${role}`,
      externalUserId: `account:${role}`,
      addresses: [{ network: 'networks/tron-mainnet', address: 'T1' }],
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const recipient = (kind: string) => ({
      kind,
      id: `r-${kind}`,
      redactedUrl: `https://example.com/webhooks/${kind}/***`,
      createdByUs: true,
      recordedAt: '2026-01-01T00:00:00.000Z',
    });
    const result = {
      status: 'ready',
      masterWallet: wallet('master'),
      gasWallet: wallet('gas'),
      recipients: { transaction: recipient('transaction'), order: recipient('order') },
      addedRecipients: [recipient('transaction'), recipient('order')],
      removedRecipients: [],
      whitelist: [{ role: 'master', network: 'networks/tron-mainnet', address: 'T1' }],
      nextSteps: ['Ask the account contact to whitelist the addresses'],
      setupRuns: 1,
      completedAt: '2026-01-01T00:01:00.000Z',
    };
    const { app, ramp } = stubApp({ setupAccount: jest.fn().mockResolvedValue(result) });
    const response = await request(app).post('/v1/account/setup').set(AUTH);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: result });
    expect(ramp.setupAccount).toHaveBeenCalledTimes(1);
  });

  test('GET /v1/account: the recorded setup, or 404 before the first run', async () => {
    const getAccount = jest
      .fn()
      .mockRejectedValueOnce(new NotFoundError('The account setup has not run yet'))
      .mockResolvedValueOnce({
        status: 'ready',
        wallets: {},
        journals: {
          master: { requests: [], unconfirmed: [] },
          gas: { requests: [], unconfirmed: [] },
        },
        recipients: [],
        orphanWallets: [],
        extraWalletsReported: 0,
        setupRuns: 1,
        createdAt: '2026-01-01T00:00:00.000Z',
      });
    const { app } = stubApp({ getAccount });
    const before = await request(app).get('/v1/account').set(AUTH);
    expect(before.status).toBe(404);
    expect(before.body.error.code).toBe('not_found');
    const after = await request(app).get('/v1/account').set(AUTH);
    expect(after.status).toBe(200);
    expect(after.body.data.status).toBe('ready');
  });
});
