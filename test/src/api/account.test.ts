import request from 'supertest';
import { NotFoundError } from '../../../src/client/errors';
import { AUTH, stubApp } from '../../helpers/api-stub';

describe('account router', () => {
  test('POST /v1/account/setup runs the setup and answers its result', async () => {
    const result = {
      status: 'ready',
      whitelist: [{ role: 'master', network: 'networks/tron-mainnet', address: 'T1' }],
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
      .mockResolvedValueOnce({ status: 'ready' });
    const { app } = stubApp({ getAccount });
    const before = await request(app).get('/v1/account').set(AUTH);
    expect(before.status).toBe(404);
    expect(before.body.error.code).toBe('not_found');
    const after = await request(app).get('/v1/account').set(AUTH);
    expect(after.status).toBe(200);
    expect(after.body.data.status).toBe('ready');
  });
});
