import { formatAmount, parseAmount } from '../../../src/domain/decimal';
import { fiatToToken, tokenToFiat } from '../../../src/sandbox/pricing';

describe('decimal amounts and prices', () => {
  it('parses and formats without floats', () => {
    expect(formatAmount(parseAmount('0.1') + parseAmount('0.2'))).toBe('0.3');
    expect(formatAmount(parseAmount('123456789012345678901234.000000000000000001'))).toBe(
      '123456789012345678901234.000000000000000001',
    );
    expect(() => parseAmount('1e3')).toThrow();
    expect(() => parseAmount('0.0000000000000000001')).toThrow();
  });

  it('converts at 17.25 MXN per USDT minus 0.5 %, rounding down', () => {
    expect(fiatToToken('1725', 'USDT')).toBe('99.5');
    expect(fiatToToken('100', 'USDT')).toBe('5.768115'); // 5.797101... * 0.995 = 5.7681159...
    expect(tokenToFiat('1', 'USDT')).toBe('17.16'); // 17.25 * 0.995 = 17.16375
  });
});
