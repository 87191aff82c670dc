/**
 * Quotes through the quote/<uuid> workflow against the sandbox (quote life shortened through its configuration).
 */
import { InvalidInputError, QuoteExpiredError } from '../../../src/client/errors';
import { DECIMAL_PATTERN } from '../../../src/operator/schemas';
import type { QuoteRequestInput } from '../../../workflows/quote/types';
import { type Stack, startStack } from '../../helpers/client-stack';
import { sleep } from '../../helpers/wait';

const QUOTE_TTL_MS = 1_500;

describe('quotes (real dev server + sandbox over HTTP)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ sandbox: { quoteTtlMs: QUOTE_TTL_MS } });
  });
  afterAll(async () => {
    await stack.stop();
  });

  const quoteCalls = () => stack.sandbox.calls().filter((call) => call.route === 'createQuote').length;

  test('on ramp: MXN -> USDT on TRX', async () => {
    const quote = await stack.ramp.quote({
      direction: 'on-ramp',
      coinFrom: 'MXN',
      coinTo: 'USDT',
      chainTo: 'TRX',
      amountFrom: '1000',
    });
    expect(quote.targetAmount).toMatch(DECIMAL_PATTERN);
    expect(Number(quote.targetAmount)).toBeGreaterThan(50);
    expect(Number(quote.targetAmount)).toBeLessThan(60);
    expect(Date.parse(quote.expiresAt)).toBeGreaterThan(Date.now());
    expect(quote).toMatchObject({
      direction: 'on-ramp',
      coinFrom: 'MXN',
      coinTo: 'USDT',
      chainTo: 'TRX',
      amountFrom: '1000',
    });
  });

  test('off ramp: USDT on TRX -> MXN', async () => {
    const quote = await stack.ramp.quote({
      direction: 'off-ramp',
      coinFrom: 'USDT',
      chainFrom: 'TRX',
      coinTo: 'MXN',
      amountFrom: '100.5',
    });
    expect(quote.targetAmount).toMatch(DECIMAL_PATTERN);
    expect(Number(quote.targetAmount)).toBeGreaterThan(1700);
    expect(Number(quote.targetAmount)).toBeLessThan(1750);
    expect(quote).toMatchObject({ direction: 'off-ramp', chainFrom: 'TRX', coinTo: 'MXN' });
  });

  test('an expired quote is refused and requote asks for a new one', async () => {
    const quote = await stack.ramp.quote({
      direction: 'on-ramp',
      coinFrom: 'MXN',
      coinTo: 'USDT',
      chainTo: 'ETH',
      amountFrom: '250',
    });
    expect(stack.ramp.isQuoteValid(quote)).toBe(true);
    // Still valid: requote hands back the same quote without calling the operator.
    const before = quoteCalls();
    await expect(stack.ramp.requote(quote)).resolves.toBe(quote);
    expect(quoteCalls()).toBe(before);

    await sleep(Date.parse(quote.expiresAt) - Date.now() + 50);
    expect(stack.ramp.isQuoteValid(quote)).toBe(false);
    expect(() => stack.ramp.assertQuoteValid(quote)).toThrow(QuoteExpiredError);

    const fresh = await stack.ramp.requote(quote);
    expect(quoteCalls()).toBe(before + 1);
    expect(fresh).not.toBe(quote);
    expect(Date.parse(fresh.expiresAt)).toBeGreaterThan(Date.now());
    expect(fresh).toMatchObject({
      direction: 'on-ramp',
      coinFrom: 'MXN',
      coinTo: 'USDT',
      chainTo: 'ETH',
      amountFrom: '250',
    });
  });

  test('a quote that cannot stay valid long enough is never returned (QuoteExpiredError after bounded requotes)', async () => {
    const before = quoteCalls();
    await expect(
      stack.ramp.quote(
        { direction: 'off-ramp', coinFrom: 'USDC', chainFrom: 'ETH', coinTo: 'MXN', amountFrom: '10' },
        { minValidityMs: QUOTE_TTL_MS * 10, maxRequotes: 1 },
      ),
    ).rejects.toBeInstanceOf(QuoteExpiredError);
    expect(quoteCalls()).toBe(before + 2);
  });

  test('bad input is refused with InvalidInputError and no operator call', async () => {
    const before = stack.sandbox.calls().length;
    const bad: unknown[] = [
      { direction: 'on-ramp', coinFrom: 'MXN', coinTo: 'USDT', chainTo: 'TRX', amountFrom: '-5' },
      { direction: 'on-ramp', coinFrom: 'MXN', coinTo: 'USDT', chainTo: 'TRX', amountFrom: '1e3' },
      { direction: 'on-ramp', coinFrom: 'MXN', coinTo: 'USDT', chainTo: 'TRX', amountFrom: 'abc' },
      { direction: 'on-ramp', coinFrom: 'MXN', coinTo: 'USDT', chainTo: 'TRX', amountFrom: '0' },
      { direction: 'on-ramp', coinFrom: 'MXN', coinTo: 'USDT', chainTo: 'TRX', amountFrom: 100 },
      { direction: 'on-ramp', coinFrom: 'EUR', coinTo: 'USDT', chainTo: 'TRX', amountFrom: '10' },
      { direction: 'on-ramp', coinFrom: 'MXN', coinTo: 'DOGE', chainTo: 'TRX', amountFrom: '10' },
      { direction: 'on-ramp', coinFrom: 'MXN', coinTo: 'USDT', chainTo: 'SOL', amountFrom: '10' },
      { direction: 'off-ramp', coinFrom: 'MXN', chainFrom: 'TRX', coinTo: 'USDT', amountFrom: '10' },
      { direction: 'off-ramp', coinFrom: 'USDT', chainTo: 'TRX', coinTo: 'MXN', amountFrom: '10' },
      { direction: 'sideways', coinFrom: 'USDT', chainFrom: 'TRX', coinTo: 'MXN', amountFrom: '10' },
      { coinFrom: 'USDT', chainFrom: 'TRX', coinTo: 'MXN', amountFrom: '10' },
    ];
    for (const request of bad) {
      const attempt = stack.ramp.quote(request as QuoteRequestInput);
      await expect(attempt).rejects.toBeInstanceOf(InvalidInputError);
    }
    await expect(
      stack.ramp.quote({
        direction: 'on-ramp',
        coinFrom: 'MXN',
        coinTo: 'USDT',
        chainTo: 'TRX',
        amountFrom: '-5',
      }),
    ).rejects.toThrow(/amountFrom/);
    expect(stack.sandbox.calls().length).toBe(before);
  });
});
