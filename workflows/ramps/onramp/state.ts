/**
 * The on-ramp's snapshots and the status they add up to: how a re-read order or deposit applies (never backwards),
 * who the end user is, what a poll reads. Workflow-safe: no I/O, no Temporal calls, no clock. Reducers change the
 * state object they are given (the query answers that very object); evaluators only read it. Its booking, alerts and
 * publishing are beside it; rules.ts gathers what its workflow runs.
 */
import { networkOfChain } from '../../../src/domain/vocabulary';
import { newOutbox } from '../../outcomes/outbox';
import { withExceptions } from '../shared/exceptions';
import {
  isConfirmedOrLater,
  isFailedTransaction,
  orderRank,
  type OrderSnapshot,
  transactionRank,
  type TransactionSnapshot,
} from '../shared/snapshots';
import type {
  OnRampAttribution,
  OnRampInput,
  OnRampPollRequest,
  OnRampPollResult,
  OnRampState,
  OnRampStatus,
} from './types';

export const TERMINAL_ON_RAMP_STATUSES: readonly OnRampStatus[] = [
  'settled',
  'expired',
  'failed',
  'timed-out',
  'unclaimed',
];

export const STEP_TEXT: Record<OnRampStatus, string> = {
  'awaiting-order': 'Step 1/4: waiting for the MXN deposit to open an order',
  'awaiting-execution': 'Step 2/4: order created (awaiting_funds), waiting for execution',
  'awaiting-deposit': 'Step 3/4: order executed, waiting for the crypto deposit to the master wallet',
  'awaiting-confirmation': 'Step 4/4: crypto deposit seen, waiting for confirmation',
  exception:
    "EXCEPTION: outside the account's markets or off its quote (event and incident raised); still following",
  settled: 'Settled',
  expired: 'Order expired',
  failed: 'Failed',
  'timed-out': 'Timed out',
  unclaimed: 'Unclaimed: it ended without an end user and nobody claimed it in time (incident raised)',
};

export function newOnRampState(input: OnRampInput, startedAt: string): OnRampState {
  return {
    orderReference: input.orderReference,
    status: 'awaiting-order',
    step: STEP_TEXT['awaiting-order'],
    endUserId: input.endUserId ?? null,
    unattributed: input.endUserId === undefined,
    ...(input.quote ? { quote: input.quote } : {}),
    eventsApplied: 0,
    duplicates: 0,
    polls: 0,
    startedAt,
    outcomes: newOutbox(),
  };
}

/** RampEndUserId at the start: the end user's pseudonym (or ID) when the client named one, else none. */
export function initialSearchValue(input: OnRampInput): string | null {
  return input.endUserId !== undefined ? (input.endUserSearchValue ?? input.endUserId) : null;
}

/**
 * Applies a re-read order of this reference if it moves forward. A repeat counts as a duplicate when it came from
 * an event, and hands over the deposit's transaction ID when the order did not have it yet (without a revision:
 * nothing shown changes).
 */
export function applyOrder(
  state: OnRampState,
  order: OrderSnapshot,
  fromEvent: boolean,
): { revised: boolean } {
  if (order.orderReference !== state.orderReference) return { revised: false };
  if (state.order && orderRank(order.status) <= orderRank(state.order.status)) {
    if (fromEvent) state.duplicates += 1;
    if (!state.order.transactionId && order.transactionId) {
      state.order = { ...state.order, transactionId: order.transactionId };
    }
    return { revised: false };
  }
  state.order = order;
  if (fromEvent) state.eventsApplied += 1;
  return { revised: true };
}

/** Applies the crypto deposit if it moves forward; another deposit than the one held is ignored. */
export function applyDeposit(
  state: OnRampState,
  tx: TransactionSnapshot,
  fromEvent: boolean,
): { revised: boolean } {
  if (
    state.deposit &&
    (state.deposit.id !== tx.id || transactionRank(tx.status) <= transactionRank(state.deposit.status))
  ) {
    if (fromEvent) state.duplicates += 1;
    return { revised: false };
  }
  state.deposit = tx;
  if (fromEvent) state.eventsApplied += 1;
  return { revised: true };
}

/**
 * The client names the end user: the first one wins, before the on-ramp ended or after (a claim). RampEndUserId takes
 * the pseudonym the client computed, or the end user ID when none was ever given. Answers the new search value.
 */
export function applyAttribution(
  state: OnRampState,
  searchValue: string | null,
  attribution: OnRampAttribution,
): { revised: boolean; endUserSearchValue: string | null } {
  const { endUserId, endUserSearchValue: given, quote } = attribution;
  if (state.endUserId && state.endUserId !== endUserId)
    return { revised: false, endUserSearchValue: searchValue };
  state.endUserId = endUserId;
  const endUserSearchValue = !searchValue || given ? (given ?? endUserId) : searchValue;
  state.unattributed = false;
  // A quote asked for after the order ended was never shown for it.
  if (quote && !state.quote && !state.endedAt) state.quote = quote;
  return { revised: true, endUserSearchValue };
}

/** Applies a poll's answer: the order, then the deposit. */
export function applyPoll(state: OnRampState, found: OnRampPollResult): { revised: boolean } {
  let revised = applyOrder(state, found.order, false).revised;
  if (found.deposit) revised = applyDeposit(state, found.deposit, false).revised || revised;
  return { revised };
}

/** The operator has no lookup by order reference: before the first order event there is nothing to poll. */
export function canPoll(state: OnRampState): boolean {
  return !!state.order;
}

export function pollRequest(state: OnRampState): OnRampPollRequest | undefined {
  if (!state.order) return undefined;
  return { orderId: state.order.id, ...(state.deposit ? { transactionId: state.deposit.id } : {}) };
}

/**
 * The poll to make once more before settling: the deposit is confirmed but the order was read before it executed
 * (its own event was late or lost), so the booked row would show it awaiting funds where the operator says executed.
 */
export function orderToConfirm(state: OnRampState): OnRampPollRequest | undefined {
  if (!state.order || state.order.status === 'executed') return undefined;
  return snapshotStatus(state).status === 'settled' ? pollRequest(state) : undefined;
}

/**
 * The status the snapshots add up to: an expired or failed order, then a failed deposit, then settled (deposit
 * confirmed), then `exception` while one is recorded, then the deposit, execution and order steps.
 */
export function evaluate(state: OnRampState): { status: OnRampStatus; failure?: OnRampState['failure'] } {
  return withExceptions(snapshotStatus(state), state.exceptions, isTerminal);
}

/** What the snapshots alone add up to, an exception aside. */
export function snapshotStatus(state: OnRampState): {
  status: OnRampStatus;
  failure?: OnRampState['failure'];
} {
  if (state.order?.status === 'expired') {
    return { status: 'expired', failure: { resource: 'order', id: state.order.id, status: 'expired' } };
  }
  if (state.order?.status === 'failed') {
    return { status: 'failed', failure: { resource: 'order', id: state.order.id, status: 'failed' } };
  }
  if (state.deposit && isFailedTransaction(state.deposit)) {
    return {
      status: 'failed',
      failure: { resource: 'transaction', id: state.deposit.id, status: state.deposit.status },
    };
  }
  if (isConfirmedOrLater(state.deposit)) return { status: 'settled' };
  if (state.deposit) return { status: 'awaiting-confirmation' };
  if (state.order?.status === 'executed') return { status: 'awaiting-deposit' };
  if (state.order) return { status: 'awaiting-execution' };
  return { status: 'awaiting-order' };
}

export function isTerminal(status: OnRampStatus): boolean {
  return TERMINAL_ON_RAMP_STATUSES.includes(status);
}

/** The network of the on-ramp: the deposit's, or the order's target chain. */
export function networkOf(state: OnRampState): string | undefined {
  return state.deposit?.network ?? (state.order?.chainTo ? networkOfChain(state.order.chainTo) : undefined);
}
