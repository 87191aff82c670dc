import { amountsAgainstQuote, beyondTolerance } from '../../../src/domain/amounts-against-quote';
import {
  compareFractions,
  decimalPlaces,
  divideFractions,
  formatFraction,
  fractionOf,
  subtractFractions,
} from '../../../src/domain/decimal';

describe('fractions', () => {
  test('signed decimals round-trip exactly and round half away from zero only when written', () => {
    expect(formatFraction(fractionOf('-12.50'), 4)).toBe('-12.5');
    expect(formatFraction(divideFractions(fractionOf('1'), fractionOf('3')), 6)).toBe('0.333333');
    expect(formatFraction(divideFractions(fractionOf('2'), fractionOf('3')), 6)).toBe('0.666667');
    expect(formatFraction(divideFractions(fractionOf('-2'), fractionOf('3')), 2)).toBe('-0.67');
    expect(formatFraction(fractionOf('-0.0004'), 3)).toBe('0');
    expect(formatFraction(subtractFractions(fractionOf('0.3'), fractionOf('0.1')), 18)).toBe('0.2');
    expect(compareFractions(fractionOf('0.1'), fractionOf('0.09'))).toBe(1);
    expect(decimalPlaces('1716.37')).toBe(2);
    expect(decimalPlaces('100')).toBe(0);
    expect(() => fractionOf('1e3')).toThrow();
    expect(() => divideFractions(fractionOf('1'), fractionOf('0'))).toThrow(RangeError);
  });
});

describe('amountsAgainstQuote', () => {
  test('an execution at the quote: the same rate, no difference', () => {
    expect(
      amountsAgainstQuote(
        { amountFrom: '100', amountTo: '1716.37', executedAt: '2026-01-01T00:00:10.000Z' },
        { amountFrom: '100', targetAmount: '1716.37', expiresAt: '2026-01-01T00:00:25.000Z' },
      ),
    ).toEqual({
      quoted: {
        amountFrom: '100',
        targetAmount: '1716.37',
        rate: '17.1637',
        expiresAt: '2026-01-01T00:00:25.000Z',
      },
      executed: {
        amountFrom: '100',
        amountTo: '1716.37',
        rate: '17.1637',
        executedAt: '2026-01-01T00:00:10.000Z',
      },
      difference: '0',
      differencePercent: '0',
      executedAfterExpiry: false,
    });
  });

  test('a worse price after the quote expired: the difference in MXN and percent, both negative', () => {
    const amounts = amountsAgainstQuote(
      { amountFrom: '100', amountTo: '1647.72', executedAt: '2026-01-01T00:01:00.000Z' },
      { amountFrom: '100', targetAmount: '1716.37', expiresAt: '2026-01-01T00:00:25.000Z' },
    )!;
    expect(amounts.difference).toBe('-68.65');
    // (16.4772 / 17.1637 - 1) x 100 = -3.99972...
    expect(amounts.differencePercent).toBe('-3.9997');
    expect(amounts.executedAfterExpiry).toBe(true);
    expect(beyondTolerance(amounts, '1')).toBe(true);
    expect(beyondTolerance(amounts, '4')).toBe(false);
  });

  test('another amount than quoted is compared at the quoted rate, not with the quoted target', () => {
    // On-ramp: 2,000 MXN paid on a quote of 57.681159 USDT for 1,000 MXN, executed at the quoted rate.
    const amounts = amountsAgainstQuote(
      { amountFrom: '2000', amountTo: '115.362318', executedAt: null },
      { amountFrom: '1000', targetAmount: '57.681159', expiresAt: '2026-01-01T00:00:25.000Z' },
    )!;
    expect(amounts.quoted?.rate).toBe('0.057681159');
    expect(amounts.difference).toBe('0');
    expect(amounts.differencePercent).toBe('0');
    expect(amounts).not.toHaveProperty('executedAfterExpiry');
  });

  test('a quote without amountFrom is taken for the amount that executed; no quote gives the execution alone', () => {
    expect(
      amountsAgainstQuote(
        { amountFrom: '1000', amountTo: '58', executedAt: null },
        { targetAmount: '57.68', expiresAt: 'not a time' },
      ),
    ).toMatchObject({ difference: '0.32', quoted: { amountFrom: '1000' } });
    expect(amountsAgainstQuote({ amountFrom: '1000', amountTo: '58', executedAt: null })).toEqual({
      executed: { amountFrom: '1000', amountTo: '58', rate: '0.058', executedAt: null },
    });
    expect(amountsAgainstQuote({ amountFrom: '0', amountTo: '0', executedAt: null })).toBeUndefined();
  });
});
