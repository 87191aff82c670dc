/** offramp/<depositTransactionId>: input, statuses, state and events of an off-ramp. */
import type { AmountsAgainstQuote } from '../../../src/domain/amounts-against-quote';
import type { RampException } from '../../../src/domain/markets';
import type { RampGas } from '../../../src/domain/ramp-gas';
import type { WorkflowTimings } from '../../../src/domain/timings';
import type { GasCheck } from '../../operations/gas-monitor/types';
import type { RampBookkeeping } from '../shared/bookkeeping';
import type { OrderSnapshot, TransactionSnapshot } from '../shared/snapshots';

/**
 * Every status an off-ramp can be in (RampStatus), in the order of its steps; metrics count each. `exception`: the
 * deposit is outside the account's markets; the process still follows the operator, and ends so when nothing
 * converts it before its timeout.
 */
export const OFF_RAMP_STATUSES = [
  'awaiting-deposit-confirmation',
  'awaiting-sweep',
  'awaiting-sweep-confirmation',
  'awaiting-settlement',
  'stuck',
  'exception',
  'settled',
  'failed',
  'timed-out',
] as const;
export type OffRampStatus = (typeof OFF_RAMP_STATUSES)[number];

/** The transactions of one off-ramp: the deposit, the gas top-up, the sponsored sweep and the order transaction. */
export type OffRampRole = 'deposit' | 'gasTopUp' | 'sweep' | 'orderTransaction';

/**
 * The quote an end user was shown for their next deposit (the typed client's showDepositQuote): the off-ramp of that
 * deposit compares its execution with it.
 */
export interface OffRampQuoteShown {
  amountFrom: string;
  targetAmount: string;
  expiresAt: string;
  coinFrom: string;
  chainFrom?: string;
  coinTo: string;
  quoteId?: string;
  /** When the client recorded it as shown. */
  shownAt: string;
}

export interface OffRampInput {
  depositTransactionId: string;
  timings: WorkflowTimings;
}

export interface OffRampState extends RampBookkeeping {
  depositTransactionId: string;
  status: OffRampStatus;
  /** Human-readable step, also the Web UI's current details. */
  step: string;
  endUserId: string | null;
  /** True when no end-user workflow owns the deposit wallet. */
  unattributed: boolean;
  deposit?: TransactionSnapshot;
  gasTopUp?: TransactionSnapshot;
  sweep?: TransactionSnapshot;
  orderTransaction?: TransactionSnapshot;
  order?: OrderSnapshot;
  fiatAmount?: string;
  fiatCurrency?: string;
  orderId?: string;
  failure?: { transactionId: string; role: OffRampRole | 'order'; status: string };
  gasCheck?: GasCheck;
  alertsRaised: number;
  stuckSince?: string;
  /** The quote its end user was shown for this deposit, when the client recorded one. */
  quote?: OffRampQuoteShown;
  /** What the order executed against that quote. */
  amounts?: AmountsAgainstQuote;
  /** The gas the operator reports for its top-up and sweep. */
  gas?: RampGas;
  /** Every exception met, once per reason, in the order seen. */
  exceptions?: RampException[];
}

export interface OffRampTransactionSignal {
  role: OffRampRole;
  transaction: TransactionSnapshot;
  /**
   * The order this sweep or order transaction names, read by the forward: the off-ramp settles from it without a
   * read of its own (absent when that read failed).
   */
  order?: OrderSnapshot;
}

/** What pollOffRamp is asked to read: the deposit, and every other transaction (and the order) known so far. */
export interface OffRampPollRequest {
  depositTransactionId: string;
  sweepId?: string;
  gasTopUpId?: string;
  orderTransactionId?: string;
  orderId?: string;
}

/** What pollOffRamp answers. */
export interface OffRampPollResult {
  deposit: TransactionSnapshot;
  sweep?: TransactionSnapshot;
  gasTopUp?: TransactionSnapshot;
  orderTransaction?: TransactionSnapshot;
  order?: OrderSnapshot;
}
