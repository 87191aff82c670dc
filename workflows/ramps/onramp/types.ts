/** onramp/<orderReference>: input, statuses, state and attribution of an on-ramp. */
import type { AmountsAgainstQuote } from '../../../src/domain/amounts-against-quote';
import type { RampException } from '../../../src/domain/markets';
import type { WorkflowTimings } from '../../../src/domain/timings';
import type { RampBookkeeping } from '../shared/bookkeeping';
import type { OrderSnapshot, TransactionSnapshot } from '../shared/snapshots';

/**
 * Every status an on-ramp can be in (RampStatus), in the order of its steps; metrics count each. `exception`: its
 * order is outside the account's markets or executed off its quote; the process still follows the operator.
 * `unclaimed`: it ended without an end user and nobody claimed it within its claim window.
 */
export const ON_RAMP_STATUSES = [
  'awaiting-order',
  'awaiting-execution',
  'awaiting-deposit',
  'awaiting-confirmation',
  'exception',
  'settled',
  'expired',
  'failed',
  'timed-out',
  'unclaimed',
] as const;
export type OnRampStatus = (typeof ON_RAMP_STATUSES)[number];

export interface OnRampQuoteShown {
  targetAmount: string;
  expiresAt: string;
  amountFrom?: string;
  coinTo?: string;
  chainTo?: string;
}

export interface OnRampInput {
  orderReference: string;
  endUserId?: string;
  /** RampEndUserId: the end user's pseudonym with payload encryption (typed client); absent: endUserId. */
  endUserSearchValue?: string;
  quote?: OnRampQuoteShown;
  timings: WorkflowTimings;
}

export interface OnRampState extends RampBookkeeping {
  orderReference: string;
  status: OnRampStatus;
  step: string;
  endUserId: string | null;
  /** True when the process was started by an order event for a reference no client call announced. */
  unattributed: boolean;
  quote?: OnRampQuoteShown;
  order?: OrderSnapshot;
  deposit?: TransactionSnapshot;
  cryptoAmount?: string;
  asset?: string;
  failure?: { resource: 'order' | 'transaction'; id: string; status: string };
  /** What the order executed against the quote shown. */
  amounts?: AmountsAgainstQuote;
  /** Every exception met, once per reason, in the order seen. */
  exceptions?: RampException[];
  /** Ended without an end user: a startOnRamp until then claims it (ONRAMP_CLAIM_WINDOW). */
  claimableUntil?: string;
  /** When a startOnRamp named its end user after it had ended. */
  claimedAt?: string;
  /** The `unclaimed-on-ramp` incident raised when the claim window passed. */
  unclaimedIncident?: string;
}

export interface OnRampAttribution {
  endUserId: string;
  /** RampEndUserId: the end user's pseudonym with payload encryption (typed client); absent: endUserId. */
  endUserSearchValue?: string;
  quote?: OnRampQuoteShown;
}

/** What pollOnRamp is asked to read: the order, and its crypto deposit once known. */
export interface OnRampPollRequest {
  orderId: string;
  transactionId?: string;
}

/** What pollOnRamp answers. */
export interface OnRampPollResult {
  order: OrderSnapshot;
  deposit?: TransactionSnapshot;
}
