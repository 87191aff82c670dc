/**
 * Pure rules of an on-ramp: how a re-read order or deposit applies, who the end user is, which status the
 * snapshots add up to, and what it shows and publishes. Workflow-safe: no I/O, no Temporal calls, no clock
 * (`now` is passed in). Reducers change the state object they are given (the query answers that very object);
 * evaluators only read it.
 */
import { newOutbox } from '../../outcomes/outbox';
import {
  type MarketRules,
  marketException,
  type RampException,
  toleranceFor,
} from '../../../src/domain/markets';
import {
  compactData,
  type OutcomeEventData,
  type OutcomeEventType,
  type RaisedOutcome,
} from '../../../src/domain/outcome-events';
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { networkOfChain } from '../../../src/domain/vocabulary';
import {
  EndUserId,
  Networks,
  OrderReference,
  RampDirection,
  RampStatus,
} from '../../../src/domain/search-attributes';
import type { AlertInput } from '../../operations/alerts/types';
import { type FoundException, offQuoteException, showsException, unrecorded } from '../shared/exceptions';
import {
  executedAgainstQuote,
  isConfirmedOrLater,
  isFailedTransaction,
  orderRank,
  type OrderSnapshot,
  transactionRank,
  type TransactionSnapshot,
} from '../shared/snapshots';
import type { OnRampAttribution, OnRampInput, OnRampState, OnRampStatus } from './types';

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
 * The status the snapshots add up to: an expired or failed order, then a failed deposit, then settled (deposit
 * confirmed), then `exception` while one is recorded, then the deposit, execution and order steps.
 */
export function evaluate(state: OnRampState): { status: OnRampStatus; failure?: OnRampState['failure'] } {
  const found = snapshotStatus(state);
  if (!isTerminal(found.status) && showsException(state.exceptions)) return { status: 'exception' };
  return found;
}

function snapshotStatus(state: OnRampState): { status: OnRampStatus; failure?: OnRampState['failure'] } {
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

/** evaluate(), keeping a failure it finds on the state (a failure once seen is never cleared). */
export function evaluateInto(state: OnRampState): OnRampStatus {
  const { status, failure } = evaluate(state);
  if (failure) state.failure = failure;
  return status;
}

/** The settled fields, from the deposit (or the order); undefined without a deposit. */
export function settlementOf(state: OnRampState): Pick<OnRampState, 'cryptoAmount' | 'asset'> | undefined {
  if (!state.deposit) return undefined;
  return {
    cryptoAmount: state.deposit.amount ?? state.order?.amountTo ?? undefined,
    asset: state.deposit.asset ?? state.order?.coinTo ?? undefined,
  };
}

/** The order's conversion, as the markets judge it. */
function conversionOf(order: NonNullable<OnRampState['order']>) {
  return {
    direction: 'on-ramp' as const,
    fiat: order.coinFrom,
    token: order.coinTo,
    chain: order.chainTo,
    amount: order.amountFrom,
  };
}

/** What the order executed against the quote shown; recomputed whenever the order moves. */
export function refreshBooking(state: OnRampState): void {
  const amounts = executedAgainstQuote(state.order, state.quote);
  if (amounts) state.amounts = amounts;
}

/** The exceptions the on-ramp's order meets that it has not recorded: outside the markets, or off its quote. */
export function newExceptions(state: OnRampState, rules: MarketRules | undefined): FoundException[] {
  const order = state.order;
  if (!rules || !order) return [];
  const conversion = conversionOf(order);
  return unrecorded(state.exceptions, [
    marketException(rules, conversion),
    offQuoteException(state.amounts, toleranceFor(rules, conversion)),
  ]);
}

/** An alert as the on-ramp raises it. Its details name the process, never a network: one incident per on-ramp. */
export interface OnRampAlert {
  kind: Extract<AlertInput['kind'], 'ramp-exception' | 'unclaimed-on-ramp'>;
  message: string;
  details: AlertInput['details'];
}

export function exceptionAlert(
  state: OnRampState,
  workflowId: string,
  exception: RampException,
): OnRampAlert {
  return {
    kind: 'ramp-exception',
    message: `On-ramp of order reference ${state.orderReference}: ${exception.reason}: ${exception.message}`,
    details: {
      process: workflowId,
      orderReference: state.orderReference,
      reason: exception.reason,
      endUserId: state.endUserId,
      orderId: state.order?.id ?? null,
    },
  };
}

export function exceptionResolution(state: OnRampState, workflowId: string, exception: RampException) {
  return {
    kind: 'ramp-exception' as const,
    details: { process: workflowId, reason: exception.reason },
    resolution: `On-ramp ${state.orderReference} settled anyway: the operator converted it`,
  };
}

/** The claim window passed: the crypto (or the failed order) belongs to nobody we know. */
export function unclaimedAlert(state: OnRampState, workflowId: string, endedAs: OnRampStatus): OnRampAlert {
  return {
    kind: 'unclaimed-on-ramp',
    message: `On-ramp of order reference ${state.orderReference} ended ${endedAs} without an end user and nobody claimed it by ${state.claimableUntil ?? '?'}${
      state.cryptoAmount ? `: ${state.cryptoAmount} ${state.asset ?? ''} is in the master wallet` : ''
    }`,
    details: {
      process: workflowId,
      orderReference: state.orderReference,
      endedAs,
      orderId: state.order?.id ?? null,
      cryptoAmount: state.cryptoAmount ?? null,
      asset: state.asset ?? null,
    },
  };
}

export function stepText(status: OnRampStatus, state: OnRampState): string {
  if (status === 'exception') {
    const reasons = (state.exceptions ?? []).map((exception) => exception.reason).join(', ');
    return `EXCEPTION (${reasons}); still following the operator: ${STEP_TEXT[snapshotStatus(state).status]}`;
  }
  if (status !== 'settled') return STEP_TEXT[status];
  return `Settled: ${state.cryptoAmount ?? '?'} ${state.asset ?? ''} to the master wallet (transaction ${state.deposit?.id ?? '?'})`;
}

/** The network of the on-ramp: the deposit's, or the order's target chain. */
export function networkOf(state: OnRampState): string | undefined {
  return state.deposit?.network ?? (state.order?.chainTo ? networkOfChain(state.order.chainTo) : undefined);
}

/** The Web UI's current details. */
export function currentDetails(state: OnRampState): string {
  const owner = state.endUserId
    ? ` of end user ${state.endUserId}`
    : state.claimableUntil && !state.unclaimedIncident
      ? ` (unattributed: claimable until ${state.claimableUntil})`
      : ' (unattributed)';
  return `${state.step}\nOrder reference ${state.orderReference}${owner}`;
}

/** The search attributes an on-ramp publishes, in the order it always has. */
export function searchAttributes(
  state: OnRampState,
  /** The value RampStatus shows: the status itself, or its searchedRampStatus. */
  rampStatus: string,
  endUserSearchValue: string | null,
): SearchAttributeUpdatePair[] {
  const network = networkOf(state);
  return [
    { key: RampDirection, value: 'on-ramp' },
    { key: RampStatus, value: rampStatus },
    { key: OrderReference, value: state.orderReference },
    ...(state.endUserId && endUserSearchValue ? [{ key: EndUserId, value: endUserSearchValue }] : []),
    ...(network ? [{ key: Networks, value: [network] }] : []),
  ];
}

export function isTerminal(status: OnRampStatus): boolean {
  return TERMINAL_ON_RAMP_STATUSES.includes(status);
}

/** The statuses whose every entry the client's backend is told of. */
export const ON_RAMP_OUTCOME_TYPES: Partial<Record<OnRampStatus, OutcomeEventType>> = {
  settled: 'on_ramp.settled',
  expired: 'on_ramp.expired',
  failed: 'on_ramp.failed',
  'timed-out': 'on_ramp.timed_out',
  unclaimed: 'on_ramp.unclaimed',
};

/**
 * The outcome events of a published status: `on_ramp.created` at the first one (`previous` undefined), then one
 * event for each entry into a status the client acts on (a republish of the same status raises none).
 */
export function onRampOutcomes(
  state: OnRampState,
  workflowId: string,
  previous: OnRampStatus | undefined,
  next: OnRampStatus,
): RaisedOutcome[] {
  const types: OutcomeEventType[] = [];
  if (previous === undefined) types.push('on_ramp.created');
  const entered = ON_RAMP_OUTCOME_TYPES[next];
  if (entered && previous !== next) types.push(entered);
  if (types.length === 0) return [];
  const data = outcomeData(state, workflowId, next);
  return types.map((type) => ({ type, data }));
}

/** `on_ramp.exception`: the exception just recorded, with everything else the on-ramp knows. */
export function exceptionOutcome(
  state: OnRampState,
  workflowId: string,
  exception: RampException,
): RaisedOutcome {
  return {
    type: 'on_ramp.exception',
    data: compactData({
      ...outcomeData(state, workflowId, state.status),
      exception: { reason: exception.reason, message: exception.message },
    }),
  };
}

/** `on_ramp.claimed`: the end user named after the on-ramp ended, with everything it ended with. */
export function claimedOutcome(state: OnRampState, workflowId: string): RaisedOutcome {
  return {
    type: 'on_ramp.claimed',
    data: compactData({ ...outcomeData(state, workflowId, state.status), claimedAt: state.claimedAt }),
  };
}

function outcomeData(state: OnRampState, workflowId: string, status: OnRampStatus): OutcomeEventData {
  const order = state.order;
  return compactData({
    workflowId,
    endUserId: state.endUserId,
    status,
    step: state.step,
    orderReference: state.orderReference,
    orderId: order?.id,
    network: networkOf(state),
    asset: state.asset ?? order?.coinTo ?? state.quote?.coinTo ?? undefined,
    cryptoAmount: state.cryptoAmount ?? order?.amountTo ?? undefined,
    fiatAmount: order?.amountFrom ?? state.quote?.amountFrom ?? undefined,
    fiatCurrency: order?.coinFrom ?? undefined,
    failure: state.failure ? { ...state.failure } : undefined,
    amounts: state.amounts,
    exceptions: state.exceptions?.length
      ? state.exceptions.map((exception) => ({ ...exception }))
      : undefined,
  });
}
