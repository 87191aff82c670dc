import request from 'supertest';
import { NotFoundError } from '../../../src/client/errors';
import { AUTH, stubApp } from '../../helpers/api-stub';

describe('alerts router', () => {
  test('GET /v1/alerts answers a page of incidents with its filter passed on', async () => {
    const page = {
      data: [
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
      nextPageToken: 'next-page',
    };
    const { app, ramp } = stubApp({ listAlerts: jest.fn().mockResolvedValue(page) });
    const response = await request(app).get('/v1/alerts?kind=gas-low&limit=1').set(AUTH);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: page.data, pagination: { nextPageToken: 'next-page' } });
    expect(ramp.listAlerts).toHaveBeenCalledWith({ kind: 'gas-low', limit: 1 });
  });

  test('GET /v1/alerts refuses an unknown kind, status or limit before it reads anything', async () => {
    const { app, ramp } = stubApp();
    for (const query of ['kind=nonsense', 'status=closed', 'limit=0', 'limit=101', 'other=1']) {
      const response = await request(app).get(`/v1/alerts?${query}`).set(AUTH);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
    }
    expect(ramp.listAlerts).not.toHaveBeenCalled();
  });

  test('GET /v1/alerts needs the API key', async () => {
    const { app, ramp } = stubApp();
    const response = await request(app).get('/v1/alerts');
    expect(response.status).toBe(401);
    expect(ramp.listAlerts).not.toHaveBeenCalled();
  });
});

describe('acknowledging and resolving incidents over HTTP', () => {
  const incident = {
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
  };

  test('POST /v1/alerts/acknowledge passes who and why (trimmed) and answers the incident', async () => {
    const acknowledged = {
      ...incident,
      acknowledged: { by: 'ana', reason: 'funding it', at: '2024-01-01T00:06:00.000Z' },
    };
    const { app, ramp } = stubApp({ acknowledgeIncident: jest.fn().mockResolvedValue(acknowledged) });
    const response = await request(app)
      .post('/v1/alerts/acknowledge')
      .set(AUTH)
      .send({ key: incident.key, by: ' ana ', reason: 'funding it' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: acknowledged });
    expect(ramp.acknowledgeIncident).toHaveBeenCalledWith({
      key: incident.key,
      by: 'ana',
      reason: 'funding it',
    });
  });

  test('POST /v1/alerts/resolve answers the resolved incident; one not open is a 404', async () => {
    const resolved = {
      ...incident,
      resolvedAt: '2024-01-01T00:07:00.000Z',
      resolution: 'funded',
      resolvedBy: 'person/ana',
    };
    const { app } = stubApp({
      resolveIncident: jest
        .fn()
        .mockResolvedValueOnce(resolved)
        .mockRejectedValueOnce(new NotFoundError(`No open incident ${incident.key}`)),
    });
    const body = { key: incident.key, by: 'ana', reason: 'funded' };
    const first = await request(app).post('/v1/alerts/resolve').set(AUTH).send(body);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ data: resolved });
    const second = await request(app).post('/v1/alerts/resolve').set(AUTH).send(body);
    expect(second.status).toBe(404);
    expect(second.body.error.code).toBe('not_found');
  });

  test('without who or why, or with more than the body allows, it is a 400 and nothing is called', async () => {
    const { app, ramp } = stubApp();
    for (const body of [
      { key: incident.key, reason: 'x' },
      { key: incident.key, by: 'ana', reason: '  ' },
      { key: incident.key, by: 'ana', reason: 'x', extra: true },
      { by: 'ana', reason: 'x' },
    ]) {
      const response = await request(app).post('/v1/alerts/acknowledge').set(AUTH).send(body);
      expect(response.status).toBe(400);
    }
    expect(ramp.acknowledgeIncident).not.toHaveBeenCalled();
  });

  test('a NUL character in the key, who or why is a 400 naming it, and nothing is called', async () => {
    const { app, ramp } = stubApp();
    for (const body of [
      { key: `${incident.key}\u0000`, by: 'ana', reason: 'x' },
      { key: incident.key, by: 'a\u0000na', reason: 'x' },
      { key: incident.key, by: 'ana', reason: '\u0000' },
    ]) {
      const response = await request(app).post('/v1/alerts/resolve').set(AUTH).send(body);
      expect(response.status).toBe(400);
      expect((response.body as { error: { issues: string[] } }).error.issues.join(' ')).toMatch(
        /NUL character/,
      );
    }
    expect(ramp.resolveIncident).not.toHaveBeenCalled();
  });
});
