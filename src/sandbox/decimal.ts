/**
 * Decimal arithmetic on strings through BigInt: every amount is held as an integer number of 10^-18 units.
 * No JavaScript number ever carries an amount.
 */
import { DECIMAL_PATTERN } from '../operator/schemas';

export const AMOUNT_DECIMALS = 18;
const ONE = 10n ** BigInt(AMOUNT_DECIMALS);

/** Thrown for text that is not a non-negative decimal string or has more than 18 fractional digits. */
export class DecimalFormatError extends Error {}

/** "100.5" -> 100500000000000000000n */
export function parseAmount(text: string): bigint {
  if (!DECIMAL_PATTERN.test(text))
    throw new DecimalFormatError('must be a non-negative decimal string such as "100.50"');
  const [whole = '0', fraction = ''] = text.split('.');
  if (fraction.length > AMOUNT_DECIMALS)
    throw new DecimalFormatError(`must have at most ${AMOUNT_DECIMALS} decimals`);
  return BigInt(whole) * ONE + BigInt(fraction.padEnd(AMOUNT_DECIMALS, '0'));
}

/** 100500000000000000000n -> "100.5" (no trailing zeros, no exponent). */
export function formatAmount(units: bigint): string {
  if (units < 0n) return `-${formatAmount(-units)}`;
  const whole = units / ONE;
  const fraction = (units % ONE).toString().padStart(AMOUNT_DECIMALS, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole.toString()}.${fraction}`;
}

/** Rounds down (toward zero) to `decimals` fractional digits. */
export function truncate(units: bigint, decimals: number): bigint {
  const step = 10n ** BigInt(AMOUNT_DECIMALS - decimals);
  return units - (units % step);
}

/** amount * multiplier / divisor, all in 10^-18 units, rounded down. */
export function mulDiv(amount: bigint, multiplier: bigint, divisor: bigint): bigint {
  return (amount * multiplier) / divisor;
}

export const UNIT = ONE;

export const addAmounts = (a: string, b: string): string => formatAmount(parseAmount(a) + parseAmount(b));
export const compareAmounts = (a: string, b: string): number => {
  const difference = parseAmount(a) - parseAmount(b);
  return difference === 0n ? 0 : difference > 0n ? 1 : -1;
};
