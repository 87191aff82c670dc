/** onramp/<orderReference>: input, statuses, state and attribution of an on-ramp. */
import type { WorkflowTimings } from '../../../src/domain/timings';
import type { Outbox } from '../../outcomes/outbox';
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

export interface OnRampState {
  /** The last operator read that failed (the process keeps going and tries again), for people looking in. */
  lastFailure?: { what: string; message: string; at: string };
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
  eventsApplied: number;
  duplicates: number;
  polls: number;
  startedAt: string;
  endedAt?: string;
  /** The outcome events told to the client's backend; absent in processes started before they existed. */
  outcomes?: Outbox;
}

export interface OnRampAttribution {
  endUserId: string;
  /** RampEndUserId: the end user's pseudonym with payload encryption (typed client); absent: endUserId. */
  endUserSearchValue?: string;
  quote?: OnRampQuoteShown;
}
