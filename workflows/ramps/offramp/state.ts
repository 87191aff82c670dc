/**
 * The off-ramp's snapshots and the status they add up to: how a re-read transaction or order applies (never
 * backwards), what a poll reads, which order settles it, and when it is stuck. Workflow-safe: no I/O, no Temporal
 * calls, no clock. Reducers change the state object they are given (the query answers that very object); evaluators
 * only read it. Its booking, alerts and publishing are beside it; rules.ts gathers what its workflow runs.
 */
import { withExceptions } from '../shared/exceptions';
import {
  isConfirmedOrLater,
  isFailedTransaction,
  ORDER_FAILURES,
  orderRank,
  type OrderSnapshot,
  transactionRank,
  type TransactionSnapshot,
} from '../shared/snapshots';
import { newOutbox } from '../../outcomes/outbox';
import type {
  OffRampPollRequest,
  OffRampPollResult,
  OffRampRole,
  OffRampState,
  OffRampStatus,
} from './types';

/** The transactions of an off-ramp, in the order their failures take precedence. */
export const OFF_RAMP_ROLES: readonly OffRampRole[] = ['deposit', 'gasTopUp', 'sweep', 'orderTransaction'];
export const TERMINAL_OFF_RAMP_STATUSES: readonly OffRampStatus[] = ['settled', 'failed', 'timed-out'];

export const STEP_TEXT: Record<OffRampStatus, string> = {
  'awaiting-deposit-confirmation':
    'Step 1/5: deposit seen, waiting for it to confirm (gas top-up on a first deposit)',
  'awaiting-sweep': 'Step 3/5: deposit confirmed, waiting for the sponsored sweep to start',
  'awaiting-sweep-confirmation': 'Step 4/5: sweep started, waiting for it to confirm',
  'awaiting-settlement': 'Step 5/5: sweep confirmed, waiting for the order transaction to complete',
  stuck: 'STUCK: the sweep did not start in time (gas wallet checked, alert raised); still waiting',
  exception:
    "EXCEPTION: outside the account's markets or off its quote (event and incident raised); still following",
  settled: 'Settled',
  failed: 'Failed',
  'timed-out': 'Timed out',
};

export function newOffRampState(depositTransactionId: string, startedAt: string): OffRampState {
  return {
    depositTransactionId,
    status: 'awaiting-deposit-confirmation',
    step: STEP_TEXT['awaiting-deposit-confirmation'],
    endUserId: null,
    unattributed: false,
    alertsRaised: 0,
    eventsApplied: 0,
    duplicates: 0,
    polls: 0,
    startedAt,
    outcomes: newOutbox(),
  };
}

/**
 * Applies a re-read transaction if it moves its role forward; never backwards. A repeat of the same status keeps
 * the snapshot but picks up links it did not have (revised, not applied), and counts as a duplicate when it came
 * from an event. A deposit with another ID is not this process's.
 */
export function applyTransaction(
  state: OffRampState,
  role: OffRampRole,
  tx: TransactionSnapshot,
  fromEvent: boolean,
): { revised: boolean; applied: boolean } {
  if (role === 'deposit' && tx.id !== state.depositTransactionId) return { revised: false, applied: false };
  const current = state[role];
  if (current && (current.id !== tx.id || transactionRank(tx.status) <= transactionRank(current.status))) {
    let revised = false;
    if (
      current.id === tx.id &&
      (tx.relatedTransactionId !== current.relatedTransactionId || tx.orderId !== current.orderId)
    ) {
      state[role] = {
        ...current,
        relatedTransactionId: current.relatedTransactionId ?? tx.relatedTransactionId,
        orderId: current.orderId ?? tx.orderId,
      };
      revised = true;
    }
    if (fromEvent) state.duplicates += 1;
    return { revised, applied: false };
  }
  state[role] = tx;
  if (fromEvent) state.eventsApplied += 1;
  return { revised: true, applied: true };
}

export function applyOrder(state: OffRampState, order: OrderSnapshot): { revised: boolean } {
  if (state.order && orderRank(order.status) <= orderRank(state.order.status)) return { revised: false };
  state.order = order;
  return { revised: true };
}

/** Applies a poll's answer: deposit, sweep, gas top-up, order transaction, then the order. */
export function applyPoll(state: OffRampState, found: OffRampPollResult): { revised: boolean } {
  let revised = applyTransaction(state, 'deposit', found.deposit, false).revised;
  if (found.sweep) revised = applyTransaction(state, 'sweep', found.sweep, false).revised || revised;
  if (found.gasTopUp) revised = applyTransaction(state, 'gasTopUp', found.gasTopUp, false).revised || revised;
  if (found.orderTransaction)
    revised = applyTransaction(state, 'orderTransaction', found.orderTransaction, false).revised || revised;
  if (found.order) revised = applyOrder(state, found.order).revised || revised;
  return { revised };
}

export function pollRequest(state: OffRampState): OffRampPollRequest {
  return {
    depositTransactionId: state.depositTransactionId,
    ...(state.sweep ? { sweepId: state.sweep.id } : {}),
    ...(state.gasTopUp ? { gasTopUpId: state.gasTopUp.id } : {}),
    ...(state.orderTransaction ? { orderTransactionId: state.orderTransaction.id } : {}),
    ...(state.order ? { orderId: state.order.id } : {}),
  };
}

/**
 * The status the snapshots add up to: a failed transaction (in role order), then a failed order, then settled
 * (the order transaction completed or the order executed, and the order known), then `exception` while one is
 * recorded, then the sweep and deposit steps.
 */
export function evaluate(state: OffRampState): { status: OffRampStatus; failure?: OffRampState['failure'] } {
  return withExceptions(snapshotStatus(state), state.exceptions, isTerminal);
}

/** What the snapshots alone add up to, an exception aside. */
export function snapshotStatus(state: OffRampState): {
  status: OffRampStatus;
  failure?: OffRampState['failure'];
} {
  for (const role of OFF_RAMP_ROLES) {
    const tx = state[role];
    if (tx && isFailedTransaction(tx)) {
      return { status: 'failed', failure: { transactionId: tx.id, role, status: tx.status } };
    }
  }
  if (state.order && ORDER_FAILURES.includes(state.order.status)) {
    return {
      status: 'failed',
      failure: { transactionId: state.order.id, role: 'order', status: state.order.status },
    };
  }
  const orderDone = state.orderTransaction?.status === 'completed' || state.order?.status === 'executed';
  if (orderDone && state.order) return { status: 'settled' };
  if (orderDone || isConfirmedOrLater(state.sweep)) return { status: 'awaiting-settlement' };
  if (state.sweep) return { status: 'awaiting-sweep-confirmation' };
  if (isConfirmedOrLater(state.deposit)) return { status: state.stuckSince ? 'stuck' : 'awaiting-sweep' };
  return { status: 'awaiting-deposit-confirmation' };
}

/**
 * The order to read once more before settling: its transaction completed but the order was read before it executed
 * (a sweep's forward carried it), so the booked row would show it awaiting funds where the operator says executed.
 */
export function orderToConfirm(state: OffRampState): string | undefined {
  if (!state.order || state.order.status === 'executed') return undefined;
  return snapshotStatus(state).status === 'settled' ? state.order.id : undefined;
}

/**
 * The order to read once the sweep is confirmed: the fiat amount is on the AutoSwap order, which no webhook of its
 * own brings. Its ID is on the order transaction (completion event) or the sweep.
 */
export function orderToRead(status: OffRampStatus, state: OffRampState): string | undefined {
  if (status !== 'awaiting-settlement' && status !== 'settled') return undefined;
  if (state.order) return undefined;
  return state.orderTransaction?.orderId ?? state.sweep?.orderId ?? undefined;
}

/**
 * The order transaction completed in the turn that reached awaiting-settlement (its event came with the sweep's
 * confirmation): the order is read at once rather than at the step deadline, since no further event will come.
 */
export function orderReadOverdue(status: OffRampStatus, state: OffRampState): boolean {
  return orderToRead(status, state) !== undefined && state.orderTransaction?.status === 'completed';
}

export function isTerminal(status: OffRampStatus): boolean {
  return TERMINAL_OFF_RAMP_STATUSES.includes(status);
}

/** The sweep did not start in time: the process checks the gas wallet and alerts, once. */
export function shouldMarkStuck(status: OffRampStatus, state: OffRampState): boolean {
  return status === 'awaiting-sweep' && !state.stuckSince;
}
