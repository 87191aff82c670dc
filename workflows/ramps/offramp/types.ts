/** offramp/<depositTransactionId>: input, statuses, state and events of an off-ramp. */
import type { WorkflowTimings } from '../../../src/domain/timings';
import type { GasCheck } from '../../operations/gas-monitor/types';
import type { RampBookkeeping } from '../shared/bookkeeping';
import type { OrderSnapshot, TransactionSnapshot } from '../shared/snapshots';

/** Every status an off-ramp can be in (RampStatus), in the order of its steps; metrics count each. */
export const OFF_RAMP_STATUSES = [
  'awaiting-deposit-confirmation',
  'awaiting-sweep',
  'awaiting-sweep-confirmation',
  'awaiting-settlement',
  'stuck',
  'settled',
  'failed',
  'timed-out',
] as const;
export type OffRampStatus = (typeof OFF_RAMP_STATUSES)[number];

/** The transactions of one off-ramp: the deposit, the gas top-up, the sponsored sweep and the order transaction. */
export type OffRampRole = 'deposit' | 'gasTopUp' | 'sweep' | 'orderTransaction';

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
