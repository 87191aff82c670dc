/** onramp/<orderReference>: input, statuses, state and attribution of an on-ramp. */
import type { WorkflowTimings } from '../../../src/domain/timings';
import type { RampBookkeeping } from '../shared/bookkeeping';
import type { OrderSnapshot, TransactionSnapshot } from '../shared/snapshots';

/** Every status an on-ramp can be in (RampStatus), in the order of its steps; metrics count each. */
export const ON_RAMP_STATUSES = [
  'awaiting-order',
  'awaiting-execution',
  'awaiting-deposit',
  'awaiting-confirmation',
  'settled',
  'expired',
  'failed',
  'timed-out',
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
}

export interface OnRampAttribution {
  endUserId: string;
  /** RampEndUserId: the end user's pseudonym with payload encryption (typed client); absent: endUserId. */
  endUserSearchValue?: string;
  quote?: OnRampQuoteShown;
}
