/**
 * Decimal strings end to end: amounts are never JavaScript numbers. Two kinds of arithmetic, both exact (BigInt):
 * - any scale: compareDecimals, for configured thresholds and the operator's balances;
 * - fixed point with 18 decimals: parseAmount, formatAmount, truncate, for the sandbox's prices and balances.
 * Workflow-safe: no Node built-ins.
 */

/** A non-negative decimal string: digits, optional fraction, no sign, no exponent, no leading zeros. */
export const DECIMAL_PATTERN = /^(0|[1-9]\d*)(\.\d+)?$/;

/** Compares two non-negative decimal strings exactly (BigInt, no floating point): -1, 0 or 1. */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const [ai = '0', af = ''] = a.split('.');
  const [bi = '0', bf = ''] = b.split('.');
  const scale = Math.max(af.length, bf.length);
  const av = BigInt(ai + af.padEnd(scale, '0'));
  const bv = BigInt(bi + bf.padEnd(scale, '0'));
  return av < bv ? -1 : av > bv ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------- 18-decimal fixed point

export const AMOUNT_DECIMALS = 18;
/** One whole unit in 10^-18 units. */
export const UNIT = 10n ** BigInt(AMOUNT_DECIMALS);

/** Thrown for text that is not a non-negative decimal string or has more than 18 fractional digits. */
export class DecimalFormatError extends Error {}

/** "100.5" -> 100500000000000000000n */
export function parseAmount(text: string): bigint {
  if (!DECIMAL_PATTERN.test(text))
    throw new DecimalFormatError('must be a non-negative decimal string such as "100.50"');
  const [whole = '0', fraction = ''] = text.split('.');
  if (fraction.length > AMOUNT_DECIMALS)
    throw new DecimalFormatError(`must have at most ${AMOUNT_DECIMALS} decimals`);
  return BigInt(whole) * UNIT + BigInt(fraction.padEnd(AMOUNT_DECIMALS, '0'));
}

/** 100500000000000000000n -> "100.5" (no trailing zeros, no exponent). */
export function formatAmount(units: bigint): string {
  if (units < 0n) return `-${formatAmount(-units)}`;
  const whole = units / UNIT;
  const fraction = (units % UNIT).toString().padStart(AMOUNT_DECIMALS, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole.toString()}.${fraction}`;
}

/** Rounds down (toward zero) to `decimals` fractional digits. */
export function truncate(units: bigint, decimals: number): bigint {
  const step = 10n ** BigInt(AMOUNT_DECIMALS - decimals);
  return units - (units % step);
}
