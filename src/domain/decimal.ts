/**
 * Decimal strings end to end: amounts are never JavaScript numbers. Three kinds of arithmetic, all exact (BigInt):
 * - any scale: compareDecimals, for configured thresholds and the operator's balances;
 * - fixed point with 18 decimals: parseAmount, formatAmount, truncate, for the sandbox's prices and balances;
 * - fractions: rates, differences and percentages of amounts against a quote, rounded once, when written out.
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

// ---------------------------------------------------------------------------------------------- fractions

/** A signed decimal string: "-12.5", "0.25". */
export const SIGNED_DECIMAL_PATTERN = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** An exact rational number; the denominator is always positive. */
export interface Fraction {
  numerator: bigint;
  denominator: bigint;
}

/** "-12.50" -> -1250/100. Throws DecimalFormatError for anything but a signed decimal string. */
export function fractionOf(text: string): Fraction {
  if (!SIGNED_DECIMAL_PATTERN.test(text))
    throw new DecimalFormatError('must be a decimal string such as "100.50" or "-0.5"');
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const numerator = BigInt(whole + fraction);
  return { numerator: negative ? -numerator : numerator, denominator: 10n ** BigInt(fraction.length) };
}

export function multiplyFractions(a: Fraction, b: Fraction): Fraction {
  return { numerator: a.numerator * b.numerator, denominator: a.denominator * b.denominator };
}

/** a / b; throws RangeError when b is zero. */
export function divideFractions(a: Fraction, b: Fraction): Fraction {
  if (b.numerator === 0n) throw new RangeError('division by zero');
  const sign = b.numerator < 0n ? -1n : 1n;
  return { numerator: sign * a.numerator * b.denominator, denominator: sign * b.numerator * a.denominator };
}

export function subtractFractions(a: Fraction, b: Fraction): Fraction {
  return {
    numerator: a.numerator * b.denominator - b.numerator * a.denominator,
    denominator: a.denominator * b.denominator,
  };
}

/** -1, 0 or 1 as a is below, equal to or above b. */
export function compareFractions(a: Fraction, b: Fraction): -1 | 0 | 1 {
  const left = a.numerator * b.denominator;
  const right = b.numerator * a.denominator;
  return left < right ? -1 : left > right ? 1 : 0;
}

export const absFraction = (a: Fraction): Fraction => ({
  numerator: a.numerator < 0n ? -a.numerator : a.numerator,
  denominator: a.denominator,
});

/**
 * The fraction as a decimal string with at most `decimals` fractional digits, rounded half away from zero, without
 * trailing zeros ("-0" is written "0").
 */
export function formatFraction(value: Fraction, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const magnitude = value.numerator < 0n ? -value.numerator : value.numerator;
  const scaled = (magnitude * scale * 2n + value.denominator) / (value.denominator * 2n);
  const whole = scaled / scale;
  const fraction = (scaled % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  const text = fraction === '' ? whole.toString() : `${whole.toString()}.${fraction}`;
  return value.numerator < 0n && scaled !== 0n ? `-${text}` : text;
}

/** How many digits a decimal string has after its point. */
export function decimalPlaces(text: string): number {
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}
