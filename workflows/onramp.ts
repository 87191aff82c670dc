/**
 * onramp/<orderReference>: one on-ramp (spec §6, on-ramp sequence) for an order reference.
 *
 *   order created (awaiting_funds) -> order executed -> crypto deposit to the master wallet -> deposit confirmed:
 *   settled. Or the order ends expired / failed.
 *
 * Started by the typed client (startOnRamp: end user and optional quote shown) or by the first event of an order
 * whose reference no client call announced (then flagged unattributed until a startOnRamp names its end user).
 * The master-wallet Deposit finds this process through its orderId (Get Order gives the reference).
 * Each step has a deadline; a late event makes it poll Get Order / Get Transaction with backoff. Before the
 * first order event there is nothing to poll (the operator has no lookup by reference), so it waits.
 */
import { condition, log, proxyActivities, setCurrentDetails, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { RampActivities } from '../activities';
import { EndUserId, Networks, OrderReference, RampDirection, RampStatus } from '../src/temporal/search-attributes';
import { failureNote, nextPollDelayMs, nextStepWait } from './step-timing';
import { operatorActivityOptions } from './activity-options';
import { onRampAttributionSignal, onRampOrderSignal, onRampStateQuery, onRampTransactionSignal } from './messages';
import {
  isConfirmedOrLater,
  isFailedTransaction,
  type OnRampInput,
  type OnRampState,
  type OnRampStatus,
  orderRank,
  type OrderSnapshot,
  transactionRank,
  type TransactionSnapshot,
} from './ramp-types';

const TERMINAL: readonly OnRampStatus[] = ['settled', 'expired', 'failed', 'timed-out'];
const STEP_TEXT: Record<OnRampStatus, string> = {
  'awaiting-order': 'Step 1/4: waiting for the MXN deposit to open an order',
  'awaiting-execution': 'Step 2/4: order created (awaiting_funds), waiting for execution',
  'awaiting-deposit': 'Step 3/4: order executed, waiting for the crypto deposit to the master wallet',
  'awaiting-confirmation': 'Step 4/4: crypto deposit seen, waiting for confirmation',
  settled: 'Settled',
  expired: 'Order expired',
  failed: 'Failed',
  'timed-out': 'Timed out',
};
const NETWORK_OF_CHAIN: Record<string, string> = { ETH: 'networks/ethereum-mainnet', TRX: 'networks/tron-mainnet' };

export async function onRampWorkflow(input: OnRampInput): Promise<OnRampState> {
  const { orderReference, timings } = input;
  const activities = proxyActivities<RampActivities>(operatorActivityOptions(timings));
  const startedAtMs = Date.now();
  const state: OnRampState = {
    orderReference,
    status: 'awaiting-order',
    step: STEP_TEXT['awaiting-order'],
    endUserId: input.endUserId ?? null,
    unattributed: input.endUserId === undefined,
    ...(input.quote ? { quote: input.quote } : {}),
    eventsApplied: 0,
    duplicates: 0,
    polls: 0,
    startedAt: new Date(startedAtMs).toISOString(),
  };
  let revision = 0;
  /** RampEndUserId: the end user ID, or its pseudonym with payload encryption (computed by the typed client). */
  let endUserSearchValue: string | null = input.endUserId !== undefined ? (input.endUserSearchValue ?? input.endUserId) : null;

  function applyOrder(order: OrderSnapshot, fromEvent: boolean): void {
    if (order.orderReference !== orderReference) return;
    if (state.order && orderRank(order.status) <= orderRank(state.order.status)) {
      if (fromEvent) state.duplicates += 1;
      if (!state.order.transactionId && order.transactionId) state.order = { ...state.order, transactionId: order.transactionId };
      return;
    }
    state.order = order;
    if (fromEvent) state.eventsApplied += 1;
    revision += 1;
  }
  function applyDeposit(tx: TransactionSnapshot, fromEvent: boolean): void {
    if (state.deposit && (state.deposit.id !== tx.id || transactionRank(tx.status) <= transactionRank(state.deposit.status))) {
      if (fromEvent) state.duplicates += 1;
      return;
    }
    state.deposit = tx;
    if (fromEvent) state.eventsApplied += 1;
    revision += 1;
  }

  setHandler(onRampOrderSignal, (order) => applyOrder(order, true));
  setHandler(onRampTransactionSignal, (tx) => applyDeposit(tx, true));
  setHandler(onRampAttributionSignal, ({ endUserId, endUserSearchValue: searchValue, quote }) => {
    if (state.endUserId && state.endUserId !== endUserId) return; // the first attribution wins
    state.endUserId = endUserId;
    if (!endUserSearchValue || searchValue) endUserSearchValue = searchValue ?? endUserId;
    state.unattributed = false;
    if (quote && !state.quote) state.quote = quote;
    revision += 1;
  });
  setHandler(onRampStateQuery, () => state);

  function evaluate(): OnRampStatus {
    if (state.order?.status === 'expired') {
      state.failure = { resource: 'order', id: state.order.id, status: 'expired' };
      return 'expired';
    }
    if (state.order?.status === 'failed') {
      state.failure = { resource: 'order', id: state.order.id, status: 'failed' };
      return 'failed';
    }
    if (isFailedTransaction(state.deposit)) {
      state.failure = { resource: 'transaction', id: state.deposit!.id, status: state.deposit!.status };
      return 'failed';
    }
    if (isConfirmedOrLater(state.deposit)) return 'settled';
    if (state.deposit) return 'awaiting-confirmation';
    if (state.order?.status === 'executed') return 'awaiting-deposit';
    if (state.order) return 'awaiting-execution';
    return 'awaiting-order';
  }

  /** The settled fields come from the deposit (or the order); set before the step text that shows them (no command). */
  function recordSettlement(): void {
    if (!state.deposit) return;
    state.cryptoAmount = state.deposit.amount ?? state.order?.amountTo ?? undefined;
    state.asset = state.deposit.asset ?? state.order?.coinTo ?? undefined;
  }

  function publish(status: OnRampStatus): void {
    state.status = status;
    state.step = STEP_TEXT[status];
    if (status === 'settled') recordSettlement(); // settled at the first evaluation: before the loop body ran
    if (status === 'settled') state.step = `Settled: ${state.cryptoAmount ?? '?'} ${state.asset ?? ''} to the master wallet (transaction ${state.deposit?.id ?? '?'})`;
    const network = state.deposit?.network ?? (state.order?.chainTo ? NETWORK_OF_CHAIN[state.order.chainTo] : undefined);
    setCurrentDetails(`${state.step}\nOrder reference ${orderReference}${state.endUserId ? ` of end user ${state.endUserId}` : ' (unattributed)'}`);
    upsertSearchAttributes([
      { key: RampDirection, value: 'on-ramp' },
      { key: RampStatus, value: status },
      { key: OrderReference, value: orderReference },
      ...(state.endUserId && endUserSearchValue ? [{ key: EndUserId, value: endUserSearchValue }] : []),
      ...(network ? [{ key: Networks, value: [network] }] : []),
    ]);
  }

  let status = evaluate();
  publish(status);
  let stepStartedMs = Date.now();
  let pollDelayMs = timings.pollInitialMs;
  let publishedRevision = revision;
  for (;;) {
    const next = evaluate();
    if (next === 'settled') recordSettlement();
    if (next !== status || revision !== publishedRevision) {
      if (next !== status) {
        stepStartedMs = Date.now();
        pollDelayMs = timings.pollInitialMs;
      }
      status = next;
      publishedRevision = revision;
      publish(status);
    }
    if (TERMINAL.includes(status)) break;
    if (Date.now() - startedAtMs >= timings.processTimeoutMs) {
      status = 'timed-out';
      publish(status);
      break;
    }
    // Without an order ID there is nothing to poll: wait for an event (or the process timeout).
    const { deadlineMs, late, waitMs } = nextStepWait(timings, { startedAtMs, stepStartedMs, pollDelayMs }, { canPoll: !!state.order });
    const seen = revision;
    if (await condition(() => revision !== seen, waitMs)) continue;
    if (!state.order || Date.now() < deadlineMs) continue;
    state.polls += 1;
    try {
      const found = await activities.pollOnRamp({ orderId: state.order.id, ...(state.deposit ? { transactionId: state.deposit.id } : {}) });
      applyOrder(found.order, false);
      if (found.deposit) applyDeposit(found.deposit, false);
    } catch (error) {
      // A failed poll is noted and tried again at the next one: it never ends the process.
      state.lastFailure = failureNote('poll', error);
      log.warn('Operator poll failed; the on-ramp keeps waiting and polls again', { orderReference: state.orderReference, error: state.lastFailure.message });
    }
    if (late) pollDelayMs = nextPollDelayMs(timings, pollDelayMs);
  }
  state.endedAt = new Date().toISOString();
  return state;
}
