/**
 * What a ramp executed against what its end user was quoted: the two rates, the difference as an amount and a
 * percentage, and whether the order executed after the quote expired. Pure and exact (fractions of decimal strings,
 * rounded once when written out); every figure is a decimal string. Workflow-safe.
 *
 * A rate is always amountTo per one amountFrom (MXN per USDT off-ramp, USDT per MXN on-ramp), so the two rates of a
 * ramp compare directly. The difference is measured against what the quoted rate gives for the amount that really
 * executed: a user who paid 1,000 MXN on a quote for 1,200 is compared at the quoted rate, not to the quoted target.
 */
import {
  absFraction,
  compareFractions,
  decimalPlaces,
  divideFractions,
  type Fraction,
  fractionOf,
  formatFraction,
  multiplyFractions,
  subtractFractions,
} from './decimal';

/** Rates keep 10 decimals: a USDT-per-MXN rate (about 0.058) to a relative precision better than 1e-8. */
export const RATE_DECIMALS = 10;
/** Percentages keep 4 decimals: a hundredth of a basis point. */
export const PERCENT_DECIMALS = 4;

/** The quote as the user was shown it. Without amountFrom it is taken to be for the amount that executed. */
export interface QuoteAsShown {
  amountFrom?: string;
  targetAmount: string;
  expiresAt: string;
}

/** What the operator's order executed. */
export interface Execution {
  amountFrom: string;
  amountTo: string;
  /** When the order executed, as the operator says (null when it does not). */
  executedAt: string | null;
}

export interface AmountsAgainstQuote {
  /** What the user was shown; absent when no quote is known for the ramp. */
  quoted?: { amountFrom: string; targetAmount: string; rate: string; expiresAt: string };
  /** What the operator's order executed, with its effective rate. */
  executed: { amountFrom: string; amountTo: string; rate: string; executedAt: string | null };
  /**
   * executed.amountTo minus what the quoted rate gives for executed.amountFrom, in the target asset (negative: the
   * user received less than quoted). Rounded to the decimals the operator gives the target amounts in.
   */
  difference?: string;
  /** The executed rate against the quoted one, in percent (negative: worse for the user). */
  differencePercent?: string;
  /** True when the order executed after the quote's expiresAt; absent when either time is unknown. */
  executedAfterExpiry?: boolean;
}

const isZero = (value: Fraction) => value.numerator === 0n;

/** The amounts of an executed order against its quote (or alone); undefined when nothing executed (zero from). */
export function amountsAgainstQuote(
  execution: Execution,
  quote?: QuoteAsShown,
): AmountsAgainstQuote | undefined {
  const executedFrom = fractionOf(execution.amountFrom);
  const executedTo = fractionOf(execution.amountTo);
  if (isZero(executedFrom)) return undefined;
  const executedRate = divideFractions(executedTo, executedFrom);
  const executed = {
    amountFrom: execution.amountFrom,
    amountTo: execution.amountTo,
    rate: formatFraction(executedRate, RATE_DECIMALS),
    executedAt: execution.executedAt,
  };
  if (!quote) return { executed };
  const quotedFromText = quote.amountFrom ?? execution.amountFrom;
  const quotedFrom = fractionOf(quotedFromText);
  const quotedTarget = fractionOf(quote.targetAmount);
  if (isZero(quotedFrom) || isZero(quotedTarget)) return { executed };
  const quotedRate = divideFractions(quotedTarget, quotedFrom);
  const expectedTo = multiplyFractions(executedFrom, quotedRate);
  const targetDecimals = Math.max(decimalPlaces(execution.amountTo), decimalPlaces(quote.targetAmount));
  const percent = multiplyFractions(
    subtractFractions(divideFractions(executedRate, quotedRate), { numerator: 1n, denominator: 1n }),
    { numerator: 100n, denominator: 1n },
  );
  const executedAfterExpiry = afterExpiry(execution.executedAt, quote.expiresAt);
  return {
    quoted: {
      amountFrom: quotedFromText,
      targetAmount: quote.targetAmount,
      rate: formatFraction(quotedRate, RATE_DECIMALS),
      expiresAt: quote.expiresAt,
    },
    executed,
    difference: formatFraction(subtractFractions(executedTo, expectedTo), targetDecimals),
    differencePercent: formatFraction(percent, PERCENT_DECIMALS),
    ...(executedAfterExpiry === undefined ? {} : { executedAfterExpiry }),
  };
}

/** True when the executed rate is further from the quoted one than `tolerancePercent` (either way). */
export function beyondTolerance(amounts: AmountsAgainstQuote, tolerancePercent: string): boolean {
  if (amounts.differencePercent === undefined) return false;
  return (
    compareFractions(absFraction(fractionOf(amounts.differencePercent)), fractionOf(tolerancePercent)) > 0
  );
}

function afterExpiry(executedAt: string | null, expiresAt: string): boolean | undefined {
  if (executedAt === null) return undefined;
  const executedMs = Date.parse(executedAt);
  const expiresMs = Date.parse(expiresAt);
  if (!Number.isFinite(executedMs) || !Number.isFinite(expiresMs)) return undefined;
  return executedMs > expiresMs;
}
