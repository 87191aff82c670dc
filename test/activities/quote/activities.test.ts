import type { ApplicationFailure } from '@temporalio/common';
import pino from 'pino';
import { createQuoteActivities, toOperatorQuoteRequest } from '../../../activities/quote/activities';
import type { OperatorClient } from '../../../src/operator/client';
import type { QuoteRequestInput } from '../../../workflows/quote/types';

const onRamp: QuoteRequestInput = {
  direction: 'on-ramp',
  coinFrom: 'MXN',
  coinTo: 'USDT',
  chainTo: 'TRX',
  amountFrom: '1000',
};
const offRamp: QuoteRequestInput = {
  direction: 'off-ramp',
  coinFrom: 'USDT',
  coinTo: 'MXN',
  chainFrom: 'ETH',
  amountFrom: '50.5',
};

describe('quote activities', () => {
  test('an on-ramp quote names the chain it pays out on, an off-ramp quote the chain it takes from', () => {
    expect(toOperatorQuoteRequest(onRamp)).toEqual({
      coinFrom: 'MXN',
      chainTo: 'TRX',
      coinTo: 'USDT',
      amountFrom: '1000',
    });
    expect(toOperatorQuoteRequest({ ...offRamp, chainTo: 'TRX' })).toEqual({
      coinFrom: 'USDT',
      chainFrom: 'ETH',
      coinTo: 'MXN',
      amountFrom: '50.5',
    });
  });

  test('a quote without the chain its direction needs is invalid input (not retried)', () => {
    let thrown: ApplicationFailure | undefined;
    try {
      toOperatorQuoteRequest({ ...onRamp, chainTo: undefined, chainFrom: 'ETH' });
    } catch (error) {
      thrown = error as ApplicationFailure;
    }
    expect(thrown).toMatchObject({
      type: 'InvalidInput',
      nonRetryable: true,
      message: 'on-ramp quote needs chainTo',
    });
  });

  test("createQuote answers the request as quoted, with the operator's amount, expiry and ID", async () => {
    const sent: unknown[] = [];
    const operator = {
      createQuote: (request: unknown) => {
        sent.push(request);
        return Promise.resolve({ id: 'q-1', target_amount: '2.61', expires_at: '2026-01-01T00:05:00.000Z' });
      },
    } as unknown as OperatorClient;
    const activities = createQuoteActivities({
      operator,
      temporal: {},
      logger: pino({ level: 'silent' }),
    } as never);
    const quote = await activities.createQuote(offRamp);
    expect(sent).toEqual([{ coinFrom: 'USDT', chainFrom: 'ETH', coinTo: 'MXN', amountFrom: '50.5' }]);
    expect(quote).toEqual({
      ...offRamp,
      targetAmount: '2.61',
      expiresAt: '2026-01-01T00:05:00.000Z',
      quoteId: 'q-1',
      quotedAt: expect.any(String),
    });
  });

  test('an operator answer without an ID leaves quoteId out', async () => {
    const operator = {
      createQuote: () => Promise.resolve({ target_amount: '1', expires_at: '2026-01-01T00:05:00.000Z' }),
    } as unknown as OperatorClient;
    const activities = createQuoteActivities({ operator } as never);
    expect(await activities.createQuote(onRamp)).not.toHaveProperty('quoteId');
  });
});
