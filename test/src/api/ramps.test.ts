import request from 'supertest';
import {
  ClaimWindowClosedError,
  ConflictError,
  InvalidInputError,
  NotFoundError,
} from '../../../src/client/errors';
import { offRampView, onRampView } from '../../../src/ledger/ramp-views';
import { AUTH, stubApp } from '../../helpers/api-stub';

const offRampEvent = {
  type: 'off_ramp.settled',
  timestamp: '2026-01-01T00:05:00.000Z',
  data: { workflowId: 'offramp/tx-1', endUserId: null, status: 'settled', step: 'Settled' },
};

/** What the ledger holds of an on-ramp: its view, as its process writes it. */
const onRampState = onRampView(
  'onramp/ord-1',
  {
    orderReference: 'ord-1',
    status: 'awaiting-order',
    step: 'Waiting for the order',
    endUserId: 'u1',
    unattributed: false,
    quote: {
      targetAmount: '57.68',
      expiresAt: '2030-01-01T00:00:25.000Z',
      amountFrom: '1000',
      coinTo: 'USDT',
      chainTo: 'TRX',
    },
    eventsApplied: 0,
    duplicates: 0,
    polls: 0,
    startedAt: '2026-01-01T00:00:00.000Z',
    outcomes: { sequence: 0, events: [] },
  },
  '2026-01-01T00:00:01.000Z',
);
const offRampState = offRampView(
  'offramp/tx-1',
  {
    depositTransactionId: 'tx-1',
    status: 'settled',
    step: 'Settled',
    endUserId: null,
    unattributed: true,
    fiatAmount: '1000.50',
    fiatCurrency: 'MXN',
    alertsRaised: 0,
    eventsApplied: 3,
    duplicates: 1,
    polls: 2,
    startedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:05:00.000Z',
    outcomes: {
      sequence: 1,
      events: [
        {
          webhookId: 'evt_offramp~tx-1~1',
          event: {
            type: 'off_ramp.settled',
            timestamp: '2026-01-01T00:05:00.000Z',
            data: {
              workflowId: 'offramp/tx-1',
              endUserId: null,
              status: 'settled',
              step: 'Settled',
              depositTransactionId: 'tx-1',
              fiatAmount: '1000.50',
            },
          },
          delivery: 'delivered',
          deliveredAt: '2026-01-01T00:05:01.000Z',
        },
      ],
    },
  },
  '2026-01-01T00:05:00.000Z',
);
const quoteRequest = {
  direction: 'on-ramp',
  coinFrom: 'MXN',
  coinTo: 'USDT',
  chainTo: 'TRX',
  amountFrom: '1000',
};

describe('ramps router: POST /v1/on-ramps', () => {
  test("201 when started, 200 when it already was this user's; the quote request is passed as given", async () => {
    const startOnRamp = jest
      .fn()
      .mockResolvedValueOnce({ workflowId: 'onramp/ord-1', created: true, state: onRampState })
      .mockResolvedValueOnce({ workflowId: 'onramp/ord-1', created: false, state: onRampState })
      .mockResolvedValueOnce({
        workflowId: 'onramp/ord-2',
        created: true,
        state: { ...onRampState, orderReference: 'ord-2' },
      });
    const { app, ramp } = stubApp({ startOnRamp });
    const body = { endUserId: 'u1', orderReference: 'ord-1', quoteRequest };
    const first = await request(app).post('/v1/on-ramps').set(AUTH).send(body);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ data: onRampState });
    const again = await request(app).post('/v1/on-ramps').set(AUTH).send(body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ data: onRampState });
    expect(ramp.startOnRamp).toHaveBeenNthCalledWith(1, 'u1', 'ord-1', { quoteRequest });
    const withoutQuote = await request(app)
      .post('/v1/on-ramps')
      .set(AUTH)
      .send({ endUserId: 'u1', orderReference: 'ord-2' });
    expect(withoutQuote.status).toBe(201);
    expect(ramp.startOnRamp).toHaveBeenNthCalledWith(3, 'u1', 'ord-2', {});
  });

  test('another end user for the reference is 409 conflict', async () => {
    const { app } = stubApp({
      startOnRamp: jest
        .fn()
        .mockRejectedValue(
          new ConflictError('The on-ramp of order reference ord-1 belongs to another end user'),
        ),
    });
    const response = await request(app)
      .post('/v1/on-ramps')
      .set(AUTH)
      .send({ endUserId: 'u2', orderReference: 'ord-1' });
    expect(response.status).toBe(409);
    expect(response.body.error).toEqual({
      code: 'conflict',
      message: 'The on-ramp of order reference ord-1 belongs to another end user',
    });
  });

  test('a late claim answers 200 with the state; one after the claim window is 409 claim_window_closed', async () => {
    const claimed = { ...onRampState, status: 'settled', claimedAt: '2026-01-02T00:00:00.000Z' };
    const { app } = stubApp({
      startOnRamp: jest
        .fn()
        .mockResolvedValueOnce({ workflowId: 'onramp/ord-1', created: false, claimed: true, state: claimed })
        .mockRejectedValueOnce(
          new ClaimWindowClosedError(
            'The on-ramp of order reference ord-1 ended without an end user and was not claimed by 2026-01-08T00:00:00.000Z; it closed unclaimed and incident unclaimed-on-ramp/onramp/ord-1 holds it for the operations team',
            'unclaimed-on-ramp/onramp/ord-1',
          ),
        ),
    });
    const body = { endUserId: 'u1', orderReference: 'ord-1' };
    const claim = await request(app).post('/v1/on-ramps').set(AUTH).send(body);
    expect(claim.status).toBe(200);
    expect(claim.body).toEqual({ data: claimed });
    const late = await request(app).post('/v1/on-ramps').set(AUTH).send(body);
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('claim_window_closed');
    expect(late.body.error.message).toContain('incident unclaimed-on-ramp/onramp/ord-1');
  });

  test.each([
    [{}, ['endUserId', 'orderReference']],
    [{ endUserId: 'bad id', orderReference: 'ord-1' }, ['endUserId']],
    [{ endUserId: 'u1', orderReference: 'a/b' }, ['orderReference']],
    [{ endUserId: 'u1', orderReference: 'ord-1', extra: 1 }, ['extra']],
    [
      { endUserId: 'u1', orderReference: 'ord-1', quoteRequest: { ...quoteRequest, direction: 'off-ramp' } },
      ['quoteRequest'],
    ],
    [
      { endUserId: 'u1', orderReference: 'ord-1', quoteRequest: { ...quoteRequest, amountFrom: '-5' } },
      ['quoteRequest.amountFrom'],
    ],
  ])('bad body %j is a 400 naming %j, without calling the client', async (body, fields) => {
    const { app, ramp } = stubApp();
    const response = await request(app).post('/v1/on-ramps').set(AUTH).send(body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_input');
    for (const field of fields) expect((response.body.error.issues as string[]).join('\n')).toContain(field);
    expect(ramp.startOnRamp).not.toHaveBeenCalled();
  });
});

describe('ramps router: reading', () => {
  test('GET /v1/on-ramps/{orderReference} and /v1/off-ramps/{depositTransactionId}: the full state, 404 when unknown', async () => {
    const { app, ramp } = stubApp({
      getOnRamp: jest
        .fn()
        .mockImplementation((ref: string) =>
          ref === 'ord-1'
            ? Promise.resolve(onRampState)
            : Promise.reject(new NotFoundError(`No on-ramp for order reference ${ref}`)),
        ),
      getOffRamp: jest
        .fn()
        .mockImplementation((id: string) =>
          id === 'tx-1'
            ? Promise.resolve(offRampState)
            : Promise.reject(new NotFoundError(`No off-ramp for deposit ${id}`)),
        ),
    });
    expect((await request(app).get('/v1/on-ramps/ord-1').set(AUTH)).body).toEqual({ data: onRampState });
    expect((await request(app).get('/v1/off-ramps/tx-1').set(AUTH)).body).toEqual({ data: offRampState });
    const missingOn = await request(app).get('/v1/on-ramps/ord-9').set(AUTH);
    expect(missingOn.status).toBe(404);
    expect(missingOn.body.error.code).toBe('not_found');
    const missingOff = await request(app).get('/v1/off-ramps/tx-9').set(AUTH);
    expect(missingOff.status).toBe(404);
    const bad = await request(app)
      .get(`/v1/on-ramps/${encodeURIComponent('no way')}`)
      .set(AUTH);
    expect(bad.status).toBe(400);
    expect(ramp.getOnRamp).toHaveBeenCalledTimes(2);
  });

  test('GET /v1/ramps passes the checked filter and answers { data, pagination }', async () => {
    const summary = {
      workflowId: 'onramp/ord-1',
      direction: 'on-ramp',
      status: 'awaiting-order',
      endUserId: 'u1',
      orderReference: 'ord-1',
      depositTransactionId: null,
      running: true,
      startTime: '2026-01-01T00:00:00.000Z',
      closeTime: null,
    };
    const { app, ramp } = stubApp({
      listRamps: jest.fn().mockResolvedValue({ data: [summary], nextPageToken: 'bmV4dA' }),
    });
    const response = await request(app)
      .get('/v1/ramps')
      .query({
        endUserId: 'u1',
        direction: 'on-ramp',
        status: 'settled',
        closedAfter: '2026-01-01T00:00:00Z',
        limit: '20',
        pageToken: 'cGFnZQ',
      })
      .set(AUTH);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [summary], pagination: { nextPageToken: 'bmV4dA' } });
    expect(ramp.listRamps).toHaveBeenCalledWith({
      endUserId: 'u1',
      direction: 'on-ramp',
      status: 'settled',
      closedAfter: '2026-01-01T00:00:00Z',
      limit: 20,
      pageToken: 'cGFnZQ',
    });
    const last = await request(app).get('/v1/ramps').set(AUTH);
    expect(last.status).toBe(200);
    expect(ramp.listRamps).toHaveBeenLastCalledWith({});
  });

  test.each([
    ['direction=sideways', 'direction'],
    ['status=lost', 'status'],
    ["status=settled' OR '1'='1", 'status'],
    ['endUserId=a%27b', 'endUserId'],
    ['closedAfter=yesterday', 'closedAfter'],
    ["closedAfter=2026-01-01T00:00:00Z' OR 1=1", 'closedAfter'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['pageToken=%27%3B', 'pageToken'],
    ['order=asc', 'order'],
    ['limit=1&limit=2', 'limit'],
  ])('GET /v1/ramps?%s is a 400 naming %s, and nothing reaches visibility', async (query, field) => {
    const { app, ramp } = stubApp();
    const response = await request(app).get(`/v1/ramps?${query}`).set(AUTH);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_input');
    expect((response.body.error.issues as string[]).join('\n')).toContain(field);
    expect(ramp.listRamps).not.toHaveBeenCalled();
  });

  test('a page token the client refuses is a 400', async () => {
    const { app } = stubApp({
      listRamps: jest
        .fn()
        .mockRejectedValue(
          new InvalidInputError('Invalid ramp filter', ['pageToken: not a page of this filter']),
        ),
    });
    const response = await request(app).get('/v1/ramps?pageToken=abc').set(AUTH);
    expect(response.status).toBe(400);
    expect(response.body.error.issues).toEqual(['pageToken: not a page of this filter']);
  });
});

describe('events router: POST /v1/events/{webhookId}/redeliver', () => {
  test('202 with the event back in its queue; 404 for an unknown event; 400 for a malformed ID without calling the client', async () => {
    const answer = {
      webhookId: 'evt_offramp~tx-1~1',
      event: offRampEvent,
      delivery: 'pending',
      attempts: 3,
      waitingFor: 0,
      nextAttemptAt: '2026-01-01T00:06:00.000Z',
      lastAttemptAt: '2026-01-01T00:05:01.000Z',
      deliveredAt: null,
      error: null,
      giveUpAt: null,
    };
    const { app, ramp } = stubApp({
      redeliverEvent: jest
        .fn()
        .mockImplementation((id: string) =>
          id === answer.webhookId
            ? Promise.resolve(answer)
            : Promise.reject(new NotFoundError(`No event ${id}`)),
        ),
    });
    const accepted = await request(app).post(`/v1/events/${answer.webhookId}/redeliver`).set(AUTH);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ data: answer });
    const unknown = await request(app).post('/v1/events/evt_offramp~tx-2~1/redeliver').set(AUTH);
    expect(unknown.status).toBe(404);
    for (const bad of ['nope', 'evt_offramp~tx-1~0', 'evt_~1', encodeURIComponent('evt_a b~1')]) {
      const response = await request(app).post(`/v1/events/${bad}/redeliver`).set(AUTH);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_input');
    }
    expect(ramp.redeliverEvent).toHaveBeenCalledTimes(2);
  });

  test('without the key: 401 and nothing is called', async () => {
    const { app, ramp } = stubApp();
    for (const [method, path] of [
      ['post', '/v1/on-ramps'],
      ['get', '/v1/on-ramps/ord-1'],
      ['get', '/v1/off-ramps/tx-1'],
      ['get', '/v1/ramps'],
      ['post', '/v1/events/evt_offramp~tx-1~1/redeliver'],
    ] as const) {
      const response = await request(app)[method](path).send({});
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('unauthorized');
    }
    for (const mock of Object.values(ramp)) expect(mock).not.toHaveBeenCalled();
  });
});
