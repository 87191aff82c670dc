/** GET /v1/statement and POST /v1/end-users/{id}/deposit-quote over a stubbed typed client. */
import request from 'supertest';
import { InvalidInputError, NotFoundError } from '../../../src/client/errors';
import type { StatementItem, StatementRow } from '../../../src/client/statement';
import { CSV_HEADER } from '../../../src/client/statement-rows';
import { AUTH, stubApp } from '../../helpers/api-stub';
import { recordAnswer } from '../../helpers/openapi-answers';

const T = '2026-01-01T00:00:00.000Z';
const row: StatementRow = {
  workflowId: 'offramp/dep-1',
  direction: 'off-ramp',
  status: 'settled',
  endUserId: 'user-1',
  orderReference: null,
  depositTransactionId: 'dep-1',
  orderId: 'o-1',
  webhookIds: ['evt_offramp~dep-1~1'],
  assetFrom: 'USDT',
  amountFrom: '50',
  assetTo: 'MXN',
  amountTo: '858.18',
  rate: '17.1636',
  quotedAmountFrom: null,
  quotedTargetAmount: null,
  quotedRate: null,
  quoteExpiresAt: null,
  difference: null,
  differencePercent: null,
  executedAfterExpiry: null,
  gasAsset: 'TRX',
  gasAmount: '45',
  exceptions: [],
  startedAt: T,
  endedAt: T,
  claimedAt: null,
  closedAt: T,
  reconciled: 'matches',
  reconciliation: '',
};
const totals = [{ status: 'settled', asset: 'MXN', ramps: 1, received: '0', delivered: '858.18', gas: '0' }];

async function* items(rows: number): AsyncGenerator<StatementItem> {
  for (let i = 0; i < rows; i += 1)
    yield await Promise.resolve({ kind: 'row' as const, row: { ...row, workflowId: `offramp/dep-${i}` } });
  yield { kind: 'totals', totals, rows };
}

const PERIOD = 'from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z';

describe('GET /v1/statement', () => {
  test('JSON: the rows, then the totals, as the document describes it', async () => {
    const statement = jest.fn(() => items(3));
    const { app } = stubApp({ statement });
    const response = await request(app).get(`/v1/statement?${PERIOD}`).set(AUTH);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(response.text) as { data: { rows: StatementRow[] } };
    expect(body).toEqual({
      data: {
        from: '2026-01-01T00:00:00.000Z',
        to: '2026-02-01T00:00:00.000Z',
        rows: [0, 1, 2].map((i) => ({ ...row, workflowId: `offramp/dep-${i}` })),
        totals,
        rowCount: 3,
      },
    });
    recordAnswer({ method: 'get', path: '/v1/statement', status: 200, body });
    expect(statement).toHaveBeenCalledWith({
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-02-01T00:00:00.000Z',
    });
  });

  test('CSV: a header, a line per ramp, a line per total', async () => {
    const { app } = stubApp({ statement: jest.fn(() => items(2)) });
    const response = await request(app).get(`/v1/statement?${PERIOD}&format=csv`).set(AUTH);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = response.text.split('\r\n').filter((line) => line !== '');
    expect(lines[0]).toBe(CSV_HEADER.join(','));
    expect(lines.map((line) => line.split(',')[0])).toEqual(['record', 'ramp', 'ramp', 'total']);
    expect(lines[3]).toMatch(/,MXN,1,0,858\.18,0$/);
  });

  test('an empty period is a statement without rows', async () => {
    const { app } = stubApp({ statement: jest.fn(() => items(0)) });
    const response = await request(app).get(`/v1/statement?${PERIOD}`).set(AUTH);
    expect(JSON.parse(response.text)).toMatchObject({ data: { rows: [], totals, rowCount: 0 } });
  });

  test.each([
    ['', ['from', 'to']],
    ['from=yesterday&to=2026-02-01T00:00:00Z', ['from']],
    ['from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', ['to: must be after from']],
    [`${PERIOD}&format=xlsx`, ['format']],
    [`${PERIOD}&page=2`, ['page']],
  ])('?%s is a 400 naming %j, nothing read', async (query, fields) => {
    const { app, ramp } = stubApp();
    const response = await request(app).get(`/v1/statement?${query}`).set(AUTH);
    expect(response.status).toBe(400);
    for (const field of fields) expect((response.body.error.issues as string[]).join('\n')).toContain(field);
    expect(ramp.statement).not.toHaveBeenCalled();
  });

  test('a failure reading the first page is an error answer; a later one cuts the statement off', async () => {
    const failing = jest.fn(async function* (): AsyncGenerator<StatementItem> {
      yield* [];
      await Promise.reject(new Error('visibility is down'));
    });
    const { app } = stubApp({ statement: failing });
    const first = await request(app).get(`/v1/statement?${PERIOD}`).set(AUTH);
    expect(first.status).toBe(500);

    const late = jest.fn(async function* (): AsyncGenerator<StatementItem> {
      yield { kind: 'row', row };
      await Promise.reject(new Error('visibility is down'));
    });
    const cut = stubApp({ statement: late });
    const outcome = await request(cut.app)
      .get(`/v1/statement?${PERIOD}`)
      .set(AUTH)
      .then(
        (response) => response.text,
        (error: Error) => error.message,
      );
    expect(outcome).not.toContain('"totals"');
  });
});

describe('POST /v1/end-users/{id}/deposit-quote', () => {
  const quoteRequest = {
    direction: 'off-ramp',
    coinFrom: 'USDT',
    chainFrom: 'TRX',
    coinTo: 'MXN',
    amountFrom: '100',
  };
  const shown = {
    amountFrom: '100',
    targetAmount: '1716.37',
    expiresAt: '2030-01-01T00:00:25.000Z',
    coinFrom: 'USDT',
    chainFrom: 'TRX',
    coinTo: 'MXN',
    shownAt: '2030-01-01T00:00:00.000Z',
  };

  test('asks for the quote and records it for the next deposit; 404 for a user without a wallet', async () => {
    const showDepositQuote = jest
      .fn()
      .mockResolvedValueOnce(shown)
      .mockRejectedValueOnce(new NotFoundError('No end user u2: ask for the deposit wallet first'));
    const { app, ramp } = stubApp({ showDepositQuote });
    const answer = await request(app).post('/v1/end-users/u1/deposit-quote').set(AUTH).send(quoteRequest);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: shown });
    expect(ramp.showDepositQuote).toHaveBeenCalledWith('u1', { quoteRequest });
    const unknown = await request(app).post('/v1/end-users/u2/deposit-quote').set(AUTH).send(quoteRequest);
    expect(unknown.status).toBe(404);
  });

  test('an on-ramp quote request or a bad amount is a 400, nothing called', async () => {
    const { app, ramp } = stubApp({
      showDepositQuote: jest.fn().mockRejectedValue(new InvalidInputError('x')),
    });
    for (const body of [
      { ...quoteRequest, direction: 'on-ramp' },
      { ...quoteRequest, amountFrom: '1e3' },
    ]) {
      const answer = await request(app).post('/v1/end-users/u1/deposit-quote').set(AUTH).send(body);
      expect(answer.status).toBe(400);
    }
    expect(ramp.showDepositQuote).not.toHaveBeenCalled();
  });

  test('the quote request wrapped as POST /v1/on-ramps has it is a 400 naming the wrapper and the missing fields', async () => {
    const { app, ramp } = stubApp();
    const answer = await request(app).post('/v1/end-users/u1/deposit-quote').set(AUTH).send({ quoteRequest });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_input');
    expect(answer.body.error.issues).toContain(
      '(root): send the quote request itself (direction, coinFrom, ..., amountFrom), not wrapped in quoteRequest',
    );
    expect(ramp.showDepositQuote).not.toHaveBeenCalled();
  });
});
