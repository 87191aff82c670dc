/**
 * Pure rules of an off-ramp: how a re-read snapshot applies, which status the snapshots add up to, what it shows
 * and publishes, and which alerts it raises. Workflow-safe: no I/O, no Temporal calls, no clock (`now` is passed in).
 * Reducers change the state object they are given (the query answers that very object); evaluators only read it.
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import {
  DepositTransactionId,
  EndUserId,
  Networks,
  RampDirection,
  RampStatus,
  WalletId,
} from '../../../src/domain/search-attributes';
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
import { rampGas } from '../../../src/domain/ramp-gas';
import { chainOfNetwork } from '../../../src/domain/vocabulary';
import type { AlertKind } from '../../operations/alerts/types';
import { newOutbox } from '../../outcomes/outbox';
import type { GasCheck } from '../../operations/gas-monitor/types';
import { type FoundException, offQuoteException, showsException, unrecorded } from '../shared/exceptions';
import {
  executedAgainstQuote,
  isConfirmedOrLater,
  isFailedTransaction,
  ORDER_FAILURES,
  orderRank,
  type OrderSnapshot,
  transactionRank,
  type TransactionSnapshot,
} from '../shared/snapshots';
import type { OffRampRole, OffRampState, OffRampStatus, OffRampTransactionSignal } from './types';

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

/** The two stuck alerts; the one raised is resolved when the deposit settles. */
export type StuckAlertKind = Extract<AlertKind, 'gas-shortfall' | 'sweep-not-started'>;

/** An alert as the off-ramp raises it (the workflow adds its own ID). */
export interface OffRampAlert<K extends AlertKind = AlertKind> {
  kind: K;
  message: string;
  details: Record<string, string | number | boolean | null>;
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
 * How a run settles. A run that records into the ledger settles on its order executed, whose amounts it books and
 * announces; a run from a 1.0 history settles on any snapshot of its order once the order transaction completed,
 * as it always did, though a snapshot read before the order executed has no executed amounts.
 */
export interface SettlementRule {
  executedOrderOnly: boolean;
}
const ANY_ORDER: SettlementRule = { executedOrderOnly: false };

/**
 * The status the snapshots add up to: a failed transaction (in role order), then a failed order, then settled
 * (the order transaction completed or the order executed, and the order known; executed, under that rule), then
 * `exception` while one is recorded, then the sweep and deposit steps.
 */
export function evaluate(
  state: OffRampState,
  rule: SettlementRule = ANY_ORDER,
): { status: OffRampStatus; failure?: OffRampState['failure'] } {
  const found = snapshotStatus(state, rule);
  if (!isTerminal(found.status) && showsException(state.exceptions)) return { status: 'exception' };
  return found;
}

function snapshotStatus(
  state: OffRampState,
  rule: SettlementRule = ANY_ORDER,
): { status: OffRampStatus; failure?: OffRampState['failure'] } {
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
  const settles = rule.executedOrderOnly ? state.order?.status === 'executed' : orderDone && state.order;
  if (settles) return { status: 'settled' };
  if (orderDone || isConfirmedOrLater(state.sweep)) return { status: 'awaiting-settlement' };
  if (state.sweep) return { status: 'awaiting-sweep-confirmation' };
  if (isConfirmedOrLater(state.deposit)) return { status: state.stuckSince ? 'stuck' : 'awaiting-sweep' };
  return { status: 'awaiting-deposit-confirmation' };
}

/** evaluate(), keeping a failure it finds on the state (a failure once seen is never cleared). */
export function evaluateInto(state: OffRampState, rule: SettlementRule = ANY_ORDER): OffRampStatus {
  const { status, failure } = evaluate(state, rule);
  if (failure) state.failure = failure;
  return status;
}

/** The settled fields, from the order (undefined without one). */
export function settlementOf(
  state: OffRampState,
): Pick<OffRampState, 'fiatAmount' | 'fiatCurrency' | 'orderId'> | undefined {
  if (!state.order) return undefined;
  return {
    fiatAmount: state.order.amountTo ?? undefined,
    fiatCurrency: state.order.coinTo ?? undefined,
    orderId: state.order.id,
  };
}

/** The conversion of the deposit, as the markets judge it. */
function conversionOf(state: OffRampState, deposit: NonNullable<OffRampState['deposit']>) {
  return {
    direction: 'off-ramp' as const,
    fiat: state.order?.coinTo ?? null,
    token: deposit.asset,
    chain: deposit.network ? (chainOfNetwork(deposit.network) ?? deposit.network) : null,
    amount: deposit.amount,
  };
}

/** The executed order against the quote shown, and the gas reported; recomputed whenever the snapshots move. */
export function refreshBooking(state: OffRampState): void {
  const amounts = executedAgainstQuote(state.order, state.quote);
  if (amounts) state.amounts = amounts;
  const gas = rampGas(state.gasTopUp?.fee ?? undefined, state.sweep?.fee ?? undefined);
  if (gas) state.gas = gas;
}

/**
 * The exceptions the off-ramp meets that it has not recorded: no end user owns its wallet; its deposit is outside
 * the markets (with market rules); its execution is off the quote beyond the tolerance.
 */
export function newExceptions(state: OffRampState, rules: MarketRules | undefined): FoundException[] {
  const deposit = state.deposit;
  if (!deposit) return [];
  const unattributed: FoundException | undefined = state.unattributed
    ? {
        reason: 'unattributed',
        message: `No end user owns deposit wallet ${deposit.walletId}: the deposit cannot be credited to anyone`,
      }
    : undefined;
  if (!rules) return unrecorded(state.exceptions, [unattributed]);
  const conversion = conversionOf(state, deposit);
  return unrecorded(state.exceptions, [
    unattributed,
    marketException(rules, conversion),
    offQuoteException(state.amounts, toleranceFor(rules, conversion)),
  ]);
}

/** The incident of an exception: one per deposit and reason. */
export function exceptionAlert(
  state: OffRampState,
  exception: RampException,
): OffRampAlert<'ramp-exception'> {
  return {
    kind: 'ramp-exception',
    message: `Off-ramp of deposit ${state.depositTransactionId}: ${exception.reason}: ${exception.message}`,
    details: {
      depositTransactionId: state.depositTransactionId,
      reason: exception.reason,
      endUserId: state.endUserId,
      walletId: state.deposit?.walletId ?? null,
      asset: state.deposit?.asset ?? null,
      amount: state.deposit?.amount ?? null,
    },
  };
}

/** Closes an exception's incident once the deposit settled anyway. */
export function exceptionResolution(state: OffRampState, exception: RampException) {
  return {
    kind: 'ramp-exception' as const,
    details: { depositTransactionId: state.depositTransactionId, reason: exception.reason },
    resolution: `Deposit ${state.depositTransactionId} settled anyway (order ${state.orderId ?? '?'}): the operator converted it`,
  };
}

export function stepText(status: OffRampStatus, state: OffRampState): string {
  if (status === 'settled') {
    return `Settled: ${state.fiatAmount ?? '?'} ${state.fiatCurrency ?? ''} (order ${state.orderId ?? '?'})`.replace(
      '  ',
      ' ',
    );
  }
  if (status === 'failed' && state.failure) {
    return `Failed: ${state.failure.role} ${state.failure.transactionId} is ${state.failure.status}`;
  }
  if (status === 'exception') {
    const reasons = (state.exceptions ?? []).map((exception) => exception.reason).join(', ');
    return `EXCEPTION (${reasons}); still following the operator: ${STEP_TEXT[snapshotStatus(state).status]}`;
  }
  return STEP_TEXT[status];
}

/** The Web UI's current details. */
export function currentDetails(state: OffRampState): string {
  const owner = state.endUserId ? ` of end user ${state.endUserId}` : ' (unattributed)';
  return `${state.step}\nDeposit ${state.depositTransactionId}${owner}`;
}

/** The search attributes an off-ramp publishes, in the order it always has. */
export function searchAttributes(
  state: OffRampState,
  /** The value RampStatus shows: the status itself, or its searchedRampStatus. */
  rampStatus: string,
  endUserSearchValue: string | null,
): SearchAttributeUpdatePair[] {
  return [
    { key: RampDirection, value: 'off-ramp' },
    { key: RampStatus, value: rampStatus },
    { key: DepositTransactionId, value: state.depositTransactionId },
    ...(endUserSearchValue ? [{ key: EndUserId, value: endUserSearchValue }] : []),
    ...(state.deposit ? [{ key: WalletId, value: state.deposit.walletId }] : []),
    ...(state.deposit?.network ? [{ key: Networks, value: [state.deposit.network] }] : []),
  ];
}

/**
 * The order to read once the sweep is confirmed: the fiat amount is on the AutoSwap order, which no webhook of its
 * own brings. Its ID is on the order transaction (completion event) or the sweep. Under the executed-order rule, an
 * order read before it executed (the sweep names it as soon as it exists) is read again once its transaction
 * completed.
 */
export function orderToRead(
  status: OffRampStatus,
  state: OffRampState,
  rule: SettlementRule = ANY_ORDER,
): string | undefined {
  if (status !== 'awaiting-settlement' && status !== 'settled') return undefined;
  if (state.order)
    return rule.executedOrderOnly &&
      state.order.status !== 'executed' &&
      state.orderTransaction?.status === 'completed'
      ? state.order.id
      : undefined;
  return state.orderTransaction?.orderId ?? state.sweep?.orderId ?? undefined;
}

/**
 * The order a forward carries along with its transaction: the one a sweep or an order transaction names. The
 * off-ramp reads that order as soon as a transaction names it (orderToRead); carried along, it needs no read.
 */
export function orderToSettleFrom(signal: OffRampTransactionSignal): string | undefined {
  if (signal.role !== 'sweep' && signal.role !== 'orderTransaction') return undefined;
  return signal.transaction.orderId ?? undefined;
}

/**
 * The order transaction completed in the turn that reached awaiting-settlement (its event came with the sweep's
 * confirmation): the order is read at once rather than at the step deadline, since no further event will come.
 */
export function orderReadOverdue(
  status: OffRampStatus,
  state: OffRampState,
  rule: SettlementRule = ANY_ORDER,
): boolean {
  return orderToRead(status, state, rule) !== undefined && state.orderTransaction?.status === 'completed';
}

export function isTerminal(status: OffRampStatus): boolean {
  return TERMINAL_OFF_RAMP_STATUSES.includes(status);
}

/** The sweep did not start in time: the process checks the gas wallet and alerts, once. */
export function shouldMarkStuck(status: OffRampStatus, state: OffRampState): boolean {
  return status === 'awaiting-sweep' && !state.stuckSince;
}

/** The network the stuck sweep is on, as the gas check and its alert name it. */
export function stuckNetwork(state: OffRampState): string {
  return state.deposit?.network ?? 'unknown';
}

/** What the process records when the gas wallet could not be checked (it alerts anyway). */
export function unavailableGasCheck(network: string, message: string, checkedAt: string): GasCheck {
  return {
    gasWalletId: null,
    network,
    asset: '?',
    balance: null,
    minimum: '?',
    shortfall: false,
    checkedAt,
    error: message,
  };
}

/** The stuck alert: a gas shortfall when the gas wallet is short, otherwise a sweep that did not start. */
export function stuckAlert(
  state: OffRampState,
  network: string,
  gas: GasCheck,
): OffRampAlert<StuckAlertKind> {
  const id = state.depositTransactionId;
  const details = {
    depositTransactionId: id,
    endUserId: state.endUserId,
    network,
    gasWalletId: gas.gasWalletId,
    asset: gas.asset,
    balance: gas.balance,
    minimum: gas.minimum,
  };
  if (gas.shortfall) {
    return {
      kind: 'gas-shortfall',
      message: `Gas wallet ${gas.gasWalletId ?? '?'} holds ${gas.balance ?? '?'} ${gas.asset} on ${network} (minimum ${gas.minimum}): the Autoswap of deposit ${id} is stranded until it is funded`,
      details,
    };
  }
  return {
    kind: 'sweep-not-started',
    message: `The sweep of deposit ${id} did not start in time (gas wallet balance ${gas.balance ?? 'unknown'} ${gas.asset})`,
    details,
  };
}

export function timedOutAlert(state: OffRampState, status: OffRampStatus): OffRampAlert<'process-timed-out'> {
  const id = state.depositTransactionId;
  return {
    kind: 'process-timed-out',
    message: `Off-ramp of deposit ${id} did not finish within its process timeout (last step: ${state.step})`,
    details: { depositTransactionId: id, status },
  };
}

/** Closes the stuck incident once the deposit settles. */
export function stuckResolution(
  state: OffRampState,
  kind: StuckAlertKind,
): { kind: StuckAlertKind; details: { depositTransactionId: string }; resolution: string } {
  return {
    kind,
    details: { depositTransactionId: state.depositTransactionId },
    resolution: `Deposit ${state.depositTransactionId} settled (order ${state.orderId ?? '?'})`,
  };
}

/** The statuses whose every entry the client's backend is told of. */
export const OFF_RAMP_OUTCOME_TYPES: Partial<Record<OffRampStatus, OutcomeEventType>> = {
  stuck: 'off_ramp.stuck',
  settled: 'off_ramp.settled',
  failed: 'off_ramp.failed',
  'timed-out': 'off_ramp.timed_out',
};

/**
 * The outcome events of a published status: `off_ramp.created` at the first one (`previous` undefined), then one
 * event for each entry into a status the client acts on. Reads the state after the status was published.
 */
export function offRampOutcomes(
  state: OffRampState,
  workflowId: string,
  previous: OffRampStatus | undefined,
  next: OffRampStatus,
): RaisedOutcome[] {
  const types: OutcomeEventType[] = [];
  if (previous === undefined) types.push('off_ramp.created');
  const entered = OFF_RAMP_OUTCOME_TYPES[next];
  if (entered && previous !== next) types.push(entered);
  if (types.length === 0) return [];
  const data = outcomeData(state, workflowId, next);
  return types.map((type) => ({ type, data }));
}

/** `off_ramp.exception`: the exception just recorded, with everything else the off-ramp knows. */
export function exceptionOutcome(
  state: OffRampState,
  workflowId: string,
  exception: RampException,
): RaisedOutcome {
  return {
    type: 'off_ramp.exception',
    data: compactData({
      ...outcomeData(state, workflowId, state.status),
      exception: { reason: exception.reason, message: exception.message },
    }),
  };
}

function outcomeData(state: OffRampState, workflowId: string, status: OffRampStatus): OutcomeEventData {
  const deposit = state.deposit;
  return compactData({
    workflowId,
    endUserId: state.endUserId,
    status,
    step: state.step,
    depositTransactionId: state.depositTransactionId,
    orderId: state.orderId ?? state.order?.id ?? deposit?.orderId ?? undefined,
    network: deposit?.network ?? undefined,
    asset: deposit?.asset ?? undefined,
    cryptoAmount: deposit?.amount ?? undefined,
    fiatAmount: state.fiatAmount,
    fiatCurrency: state.fiatCurrency,
    failure: state.failure
      ? { resource: state.failure.role, id: state.failure.transactionId, status: state.failure.status }
      : undefined,
    amounts: state.amounts,
    gas: state.gas,
    exceptions: state.exceptions?.length
      ? state.exceptions.map((exception) => ({ ...exception }))
      : undefined,
  });
}
