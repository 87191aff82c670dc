/**
 * A ramp's exceptions by name, shared by both ramps: which of those found are new (each reason is recorded once),
 * the market and off-quote checks of a conversion, which exceptions the status shows, and its step text. Pure and
 * workflow-safe.
 */
import { type AmountsAgainstQuote, beyondTolerance } from '../../../src/domain/amounts-against-quote';
import {
  type Conversion,
  type ExceptionReason,
  marketException,
  type MarketRules,
  type RampException,
  toleranceFor,
} from '../../../src/domain/markets';

/** An exception as found, before it is recorded. */
export interface FoundException {
  reason: ExceptionReason;
  message: string;
}

/** The patch that brought exceptions to running ramps (workflows replaying 1.0 histories take the 1.0 path). */
export const RAMP_EXCEPTIONS_PATCH = 'ramp-exceptions';

/** Market exceptions the operator may still convert: their incident closes when the ramp settles. */
export const RESOLVED_AT_SETTLEMENT: readonly ExceptionReason[] = [
  'unsupported_market',
  'below_minimum',
  'above_maximum',
];

/** The exceptions found whose reason the ramp has not recorded yet. */
export function unrecorded(
  recorded: readonly RampException[] | undefined,
  found: readonly (FoundException | undefined)[],
): FoundException[] {
  const fresh: FoundException[] = [];
  for (const candidate of found) {
    if (!candidate) continue;
    if (recorded?.some((exception) => exception.reason === candidate.reason)) continue;
    if (fresh.some((exception) => exception.reason === candidate.reason)) continue;
    fresh.push(candidate);
  }
  return fresh;
}

/** Records an exception on the state (the state lists each reason once); answers the record. */
export function recordException(
  state: { exceptions?: RampException[] },
  found: FoundException,
  seenAt: string,
): RampException {
  const record: RampException = { reason: found.reason, message: found.message, seenAt };
  (state.exceptions ??= []).push(record);
  return record;
}

/** `off_quote` when the executed rate is further from the quoted one than the tolerance. */
export function offQuoteException(
  amounts: AmountsAgainstQuote | undefined,
  tolerancePercent: string,
): FoundException | undefined {
  if (!amounts?.quoted || !beyondTolerance(amounts, tolerancePercent)) return undefined;
  const late = amounts.executedAfterExpiry ? ', after the quote expired' : '';
  return {
    reason: 'off_quote',
    message: `Executed at rate ${amounts.executed.rate} against the quoted ${amounts.quoted.rate} (${amounts.differencePercent}%, difference ${amounts.difference}${late}); the tolerance is ${tolerancePercent}%`,
  };
}

/**
 * Whether the status shows `exception`: a conversion outside the markets or off its quote. An unattributed off-ramp
 * is not: its conversion goes on as usual (and may be stuck for gas like any other).
 */
export const showsException = (exceptions: readonly RampException[] | undefined): boolean =>
  !!exceptions?.some((exception) => exception.reason !== 'unattributed');

/**
 * The status a ramp shows: `exception` while one it shows is recorded and the snapshots have not ended it, else what
 * the snapshots add up to.
 */
export function withExceptions<Status extends string, Failure>(
  found: { status: Status; failure?: Failure },
  exceptions: readonly RampException[] | undefined,
  isTerminal: (status: Status) => boolean,
): { status: Status | 'exception'; failure?: Failure } {
  if (!isTerminal(found.status) && showsException(exceptions)) return { status: 'exception' };
  return found;
}

/** The step text of `exception`: the reasons, and the step the operator is at. */
export function exceptionStepText(
  exceptions: readonly RampException[] | undefined,
  operatorStep: string,
): string {
  const reasons = (exceptions ?? []).map((exception) => exception.reason).join(', ');
  return `EXCEPTION (${reasons}); still following the operator: ${operatorStep}`;
}

/** A conversion's exceptions: outside the markets, or executed off its quote beyond the market's tolerance. */
export function conversionExceptions(
  rules: MarketRules,
  conversion: Conversion,
  amounts: AmountsAgainstQuote | undefined,
): (FoundException | undefined)[] {
  return [marketException(rules, conversion), offQuoteException(amounts, toleranceFor(rules, conversion))];
}
