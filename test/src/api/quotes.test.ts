import request from 'supertest';
import { QuoteExpiredError } from '../../../src/client/errors';
import { AUTH, stubApp } from '../../helpers/api-stub';

const onRamp = { direction: 'on-ramp', coinFrom: 'MXN', coinTo: 'USDT', chainTo: 'TRX', amountFrom: '1000' };

describe('quotes router', () => {
  test('POST /v1/quotes answers the quote', async () => {
    const quote = {
      ...onRamp,
      targetAmount: '57.681159',
      expiresAt: '2030-01-01T00:00:25.000Z',
      quotedAt: '2030-01-01T00:00:00.000Z',
    };
    const { app, ramp } = stubApp({ quote: jest.fn().mockResolvedValue(quote) });
    const response = await request(app).post('/v1/quotes').set(AUTH).send(onRamp);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(quote);
    expect(ramp.quote).toHaveBeenCalledWith(onRamp);
  });

  test.each([
    [{ ...onRamp, amountFrom: '-1' }, 'amountFrom'],
    [{ ...onRamp, amountFrom: 12 }, 'amountFrom'],
    [{ ...onRamp, coinFrom: 'EUR' }, 'coinFrom'],
    [{ ...onRamp, chainTo: 'SOL' }, 'chainTo'],
    [{ ...onRamp, direction: 'up' }, 'direction'],
    [{ ...onRamp, extra: true }, 'extra'],
  ])('bad input %j is a 400 naming %s, without calling the client', async (body, field) => {
    const { app, ramp } = stubApp();
    const response = await request(app).post('/v1/quotes').set(AUTH).send(body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_input');
    expect((response.body.error.issues as string[]).join('\n')).toContain(field);
    expect(ramp.quote).not.toHaveBeenCalled();
  });

  test.each([
    [
      '-5',
      'amountFrom: must be a decimal string greater than zero such as "100.50" (no sign, at most 18 decimals)',
    ],
    [
      '1e3',
      'amountFrom: must be a decimal string greater than zero such as "100.50" (no sign, at most 18 decimals)',
    ],
    ['0', 'amountFrom: must be greater than zero'],
    [5, 'amountFrom: must be a decimal string such as "100.50"'],
  ])('the amount %j is refused saying the rule: %s', async (amountFrom, issue) => {
    const { app, ramp } = stubApp();
    const response = await request(app)
      .post('/v1/quotes')
      .set(AUTH)
      .send({ ...onRamp, amountFrom });
    expect(response.status).toBe(400);
    expect(response.body.error.issues).toEqual([issue]);
    expect(ramp.quote).not.toHaveBeenCalled();
  });

  test('a quote that expired before it could be shown is a 409', async () => {
    const { app } = stubApp({
      quote: jest.fn().mockRejectedValue(new QuoteExpiredError('expired', '2030-01-01T00:00:00.000Z')),
    });
    const response = await request(app).post('/v1/quotes').set(AUTH).send(onRamp);
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('quote_expired');
  });
});
