import request from 'supertest';
import { AUTH, stubApp } from '../../helpers/api-stub';

describe('alerts router', () => {
  test('GET /v1/alerts answers the open and recently resolved incidents', async () => {
    const state = {
      open: [
        {
          key: 'gas-low/networks/tron-mainnet',
          kind: 'gas-low',
          network: 'networks/tron-mainnet',
          depositTransactionId: null,
          message: 'The gas wallet is low on TRX',
          workflowId: 'ops/gas-monitor',
          lastWorkflowId: 'ops/gas-monitor',
          openedBy: 'ops/gas-monitor/run/1',
          firstSeen: '2024-01-01T00:00:00.000Z',
          lastSeen: '2024-01-01T00:05:00.000Z',
          occurrences: 2,
          details: { balance: '0' },
        },
      ],
      recentlyResolved: [],
      raisedTotal: 1,
      resolvedTotal: 0,
      runs: 1,
      since: '2024-01-01T00:00:00.000Z',
    };
    const { app, ramp } = stubApp({ listAlerts: jest.fn().mockResolvedValue(state) });
    const response = await request(app).get('/v1/alerts').set(AUTH);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: state });
    expect(ramp.listAlerts).toHaveBeenCalledTimes(1);
  });

  test('GET /v1/alerts needs the API key', async () => {
    const { app, ramp } = stubApp();
    const response = await request(app).get('/v1/alerts');
    expect(response.status).toBe(401);
    expect(ramp.listAlerts).not.toHaveBeenCalled();
  });
});
