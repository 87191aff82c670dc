import {
  compareDecimals,
  DECIMAL_PATTERN,
  DecimalFormatError,
  formatAmount,
  parseAmount,
  truncate,
  UNIT,
} from '../../../src/domain/decimal';

describe('decimal strings', () => {
  test('the pattern takes non-negative decimals without sign, exponent or leading zeros', () => {
    for (const ok of ['0', '0.5', '100', '100.50', '12345678901234567890.123456789012345678901']) {
      expect(ok).toMatch(DECIMAL_PATTERN);
    }
    for (const bad of ['', '-1', '+1', '1e3', '01', '.5', '5.', '1,5', ' 1', 'NaN']) {
      expect(bad).not.toMatch(DECIMAL_PATTERN);
    }
  });

  test('compare works at any scale', () => {
    expect(compareDecimals('1', '1.000')).toBe(0);
    expect(compareDecimals('0.1', '0.09')).toBe(1);
    expect(compareDecimals('29.999999999999999999', '30')).toBe(-1);
    expect(compareDecimals('100', '99.99')).toBe(1);
    expect(compareDecimals('0', '0.0')).toBe(0);
    expect(compareDecimals('0.000000000000000000001', '0')).toBe(1);
  });

  test('18-decimal fixed point parses, formats and truncates', () => {
    expect(parseAmount('1')).toBe(UNIT);
    expect(parseAmount('100.5')).toBe(100_500_000_000_000_000_000n);
    expect(formatAmount(parseAmount('0.1') + parseAmount('0.2'))).toBe('0.3');
    expect(formatAmount(100_500_000_000_000_000_000n)).toBe('100.5');
    expect(formatAmount(-parseAmount('2.5'))).toBe('-2.5');
    expect(formatAmount(truncate(parseAmount('5.768115942028985507'), 6))).toBe('5.768115');
    expect(formatAmount(parseAmount('0.000000000000000001'))).toBe('0.000000000000000001');
    expect(() => parseAmount('0.0000000000000000001')).toThrow(DecimalFormatError);
    expect(() => parseAmount('1e3')).toThrow(DecimalFormatError);
  });
});
