/**
 * offramp/<depositTransactionId>: one Autoswap (spec §6, off-ramp sequence) from the deposit to the settled order.
 *
 *   deposit seen -> (gas top-up on a first deposit) -> deposit confirmed -> sweep started -> sweep confirmed
 *   -> order transaction completed: settled (fiat amount, order id)
 *
 * Started by the first re-read transaction that belongs to the deposit (transaction/<id> signal-with-starts it, so
 * a sweep event that overtakes its deposit event still lands). It finds its end user from the deposit wallet
 * (RampWalletId) and tells end-user/<id>, which lists its deposits (through the linkOffRampToEndUser activity, so its
 * history names no end-user/<id> workflow; RampEndUserId holds a pseudonym when payload encryption is on). Every step has a deadline (stepDeadlineMs):
 * when the next event is late the process polls the operator with backoff, so it reaches its end with no webhook
 * at all after the first. When the sweep does not start in time it is `stuck`: it checks the gas wallet's native
 * balance, raises one alert, and keeps waiting, so a late sweep (after the gas wallet is funded) still settles it.
 */
import {
  condition,
  getExternalWorkflowHandle,
  log,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { RampActivities } from '../activities';
import { DepositTransactionId, EndUserId, Networks, RampDirection, RampStatus, WalletId } from '../src/temporal/search-attributes';
import { failureNote, nextPollDelayMs, nextStepWait } from './step-timing';
import { operatorActivityOptions } from './activity-options';
import { offRampLinkedSignal, offRampStateQuery, offRampTransactionSignal } from './messages';
import {
  type AlertInput,
  type GasCheck,
  isConfirmedOrLater,
  isFailedTransaction,
  type OffRampInput,
  type OffRampRole,
  type OffRampState,
  type OffRampStatus,
  ORDER_FAILURES,
  orderRank,
  type OrderSnapshot,
  transactionRank,
  type TransactionSnapshot,
} from './ramp-types';

const TERMINAL: readonly OffRampStatus[] = ['settled', 'failed', 'timed-out'];
const ROLES: readonly OffRampRole[] = ['deposit', 'gasTopUp', 'sweep', 'orderTransaction'];

const STEP_TEXT: Record<OffRampStatus, string> = {
  'awaiting-deposit-confirmation': 'Step 1/5: deposit seen, waiting for it to confirm (gas top-up on a first deposit)',
  'awaiting-sweep': 'Step 3/5: deposit confirmed, waiting for the sponsored sweep to start',
  'awaiting-sweep-confirmation': 'Step 4/5: sweep started, waiting for it to confirm',
  'awaiting-settlement': 'Step 5/5: sweep confirmed, waiting for the order transaction to complete',
  stuck: 'STUCK: the sweep did not start in time (gas wallet checked, alert raised); still waiting',
  settled: 'Settled',
  failed: 'Failed',
  'timed-out': 'Timed out',
};

export async function offRampWorkflow(input: OffRampInput): Promise<OffRampState> {
  const { depositTransactionId, timings } = input;
  const activities = proxyActivities<RampActivities>(operatorActivityOptions(timings));
  // Visibility is eventually consistent: a bounded number of lookups, then the process runs unattributed.
  const lookup = proxyActivities<RampActivities>({
    ...operatorActivityOptions(timings),
    retry: { initialInterval: timings.activityRetryInitialMs, maximumInterval: timings.activityRetryMaximumMs, backoffCoefficient: 2, maximumAttempts: 6 },
  });
  const alerts = proxyActivities<RampActivities>(operatorActivityOptions(timings));

  const startedAtMs = Date.now();
  const state: OffRampState = {
    depositTransactionId,
    status: 'awaiting-deposit-confirmation',
    step: STEP_TEXT['awaiting-deposit-confirmation'],
    endUserId: null,
    unattributed: false,
    alertsRaised: 0,
    eventsApplied: 0,
    duplicates: 0,
    polls: 0,
    startedAt: new Date(startedAtMs).toISOString(),
  };
  let revision = 0;
  /** RampEndUserId: the end user ID, or its pseudonym with payload encryption (computed by findEndUserByWallet). */
  let endUserSearchValue: string | null = null;

  /** Applies a re-read snapshot if it moves the resource forward; never backwards. Answers whether it did. */
  function applyTransaction(role: OffRampRole, tx: TransactionSnapshot, fromEvent: boolean): boolean {
    if (role === 'deposit' && tx.id !== depositTransactionId) return false;
    const current = state[role];
    if (current && (current.id !== tx.id || transactionRank(tx.status) <= transactionRank(current.status))) {
      // Same status again (a repeated delivery, or a poll that saw nothing new): keep it, but pick up new links.
      if (current.id === tx.id && (tx.relatedTransactionId !== current.relatedTransactionId || tx.orderId !== current.orderId)) {
        state[role] = { ...current, relatedTransactionId: current.relatedTransactionId ?? tx.relatedTransactionId, orderId: current.orderId ?? tx.orderId };
        revision += 1;
      }
      if (fromEvent) state.duplicates += 1;
      return false;
    }
    state[role] = tx;
    if (fromEvent) state.eventsApplied += 1;
    revision += 1;
    return true;
  }

  function applyOrder(order: OrderSnapshot): void {
    if (state.order && orderRank(order.status) <= orderRank(state.order.status)) return;
    state.order = order;
    revision += 1;
  }

  setHandler(offRampTransactionSignal, ({ role, transaction }) => {
    applyTransaction(role, transaction, true);
  });
  setHandler(offRampStateQuery, () => state);

  function evaluate(): OffRampStatus {
    for (const role of ROLES) {
      const tx = state[role];
      if (isFailedTransaction(tx)) {
        state.failure = { transactionId: tx!.id, role, status: tx!.status };
        return 'failed';
      }
    }
    if (state.order && ORDER_FAILURES.includes(state.order.status)) {
      state.failure = { transactionId: state.order.id, role: 'order', status: state.order.status };
      return 'failed';
    }
    const orderDone = state.orderTransaction?.status === 'completed' || state.order?.status === 'executed';
    if (orderDone && state.order) return 'settled';
    if (orderDone || isConfirmedOrLater(state.sweep)) return 'awaiting-settlement';
    if (state.sweep) return 'awaiting-sweep-confirmation';
    if (isConfirmedOrLater(state.deposit)) return state.stuckSince ? 'stuck' : 'awaiting-sweep';
    return 'awaiting-deposit-confirmation';
  }

  /** The settled fields come from the order; set before the step text that shows them (no command). */
  function recordSettlement(): void {
    if (!state.order) return;
    state.fiatAmount = state.order.amountTo ?? undefined;
    state.fiatCurrency = state.order.coinTo ?? undefined;
    state.orderId = state.order.id;
  }

  function publish(status: OffRampStatus): void {
    state.status = status;
    state.step = STEP_TEXT[status];
    // A process that is settled at its first evaluation (events overtaken by a late start) publishes before the loop
    // body ran: read the settlement here, or the step says "Settled: ? (order ?)".
    if (status === 'settled') recordSettlement();
    if (status === 'settled') state.step = `Settled: ${state.fiatAmount ?? '?'} ${state.fiatCurrency ?? ''} (order ${state.orderId ?? '?'})`.replace('  ', ' ');
    if (status === 'failed' && state.failure) state.step = `Failed: ${state.failure.role} ${state.failure.transactionId} is ${state.failure.status}`;
    setCurrentDetails(`${state.step}\nDeposit ${depositTransactionId}${state.endUserId ? ` of end user ${state.endUserId}` : ' (unattributed)'}`);
    upsertSearchAttributes([
      { key: RampDirection, value: 'off-ramp' },
      { key: RampStatus, value: status },
      { key: DepositTransactionId, value: depositTransactionId },
      ...(endUserSearchValue ? [{ key: EndUserId, value: endUserSearchValue }] : []),
      ...(state.deposit ? [{ key: WalletId, value: state.deposit.walletId }] : []),
      ...(state.deposit?.network ? [{ key: Networks, value: [state.deposit.network] }] : []),
    ]);
  }

  async function poll(): Promise<void> {
    state.polls += 1;
    const found = await activities.pollOffRamp({
      depositTransactionId,
      ...(state.sweep ? { sweepId: state.sweep.id } : {}),
      ...(state.gasTopUp ? { gasTopUpId: state.gasTopUp.id } : {}),
      ...(state.orderTransaction ? { orderTransactionId: state.orderTransaction.id } : {}),
      ...(state.order ? { orderId: state.order.id } : {}),
    });
    applyTransaction('deposit', found.deposit, false);
    if (found.sweep) applyTransaction('sweep', found.sweep, false);
    if (found.gasTopUp) applyTransaction('gasTopUp', found.gasTopUp, false);
    if (found.orderTransaction) applyTransaction('orderTransaction', found.orderTransaction, false);
    if (found.order) applyOrder(found.order);
  }

  /** Runs an operator read; a failure is recorded and logged, and the loop simply reads again later. */
  async function tolerate(what: string, read: () => Promise<void>): Promise<void> {
    try {
      await read();
    } catch (error) {
      state.lastFailure = failureNote(what, error);
      log.warn('Operator read failed; the off-ramp keeps waiting and reads again', { depositTransactionId, what, error: state.lastFailure.message });
    }
  }

  async function alert(kind: AlertInput['kind'], message: string, details: AlertInput['details']): Promise<void> {
    try {
      await alerts.raiseAlert({ kind, message, workflowId: workflowInfo().workflowId, details });
      state.alertsRaised += 1;
    } catch (error) {
      log.error('Alert could not be raised', { kind, error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Issue 6: the kind of the stuck alert raised, so the incident is resolved when the deposit settles. */
  let stuckAlertKind: AlertInput['kind'] | undefined;

  async function markStuck(): Promise<void> {
    state.stuckSince = new Date().toISOString();
    const network = state.deposit?.network ?? 'unknown';
    let gas: GasCheck;
    try {
      gas = await activities.checkGasWallet({ network });
    } catch (error) {
      // A gas check that cannot be made must not end the process (least of all when gas is the problem): alert anyway.
      state.lastFailure = failureNote('gas wallet check', error);
      gas = { gasWalletId: null, network, asset: '?', balance: null, minimum: '?', shortfall: false, checkedAt: new Date().toISOString(), error: state.lastFailure.message };
    }
    state.gasCheck = gas;
    revision += 1;
    if (state.alertsRaised > 0) return;
    const details = {
      depositTransactionId,
      endUserId: state.endUserId,
      network,
      gasWalletId: gas.gasWalletId,
      asset: gas.asset,
      balance: gas.balance,
      minimum: gas.minimum,
    };
    stuckAlertKind = gas.shortfall ? 'gas-shortfall' : 'sweep-not-started';
    if (gas.shortfall) {
      await alert('gas-shortfall', `Gas wallet ${gas.gasWalletId ?? '?'} holds ${gas.balance ?? '?'} ${gas.asset} on ${network} (minimum ${gas.minimum}): the Autoswap of deposit ${depositTransactionId} is stranded until it is funded`, details);
    } else {
      await alert('sweep-not-started', `The sweep of deposit ${depositTransactionId} did not start in time (gas wallet balance ${gas.balance ?? 'unknown'} ${gas.asset})`, details);
    }
  }

  // The first snapshot usually is the deposit itself; otherwise (reordered events) read it.
  await condition(() => revision > 0, timings.activityStartToCloseMs);
  if (!state.deposit) await tolerate('deposit read', poll);
  if (state.deposit) {
    try {
      // Recorded histories answer the end user ID alone (a string): then RampEndUserId is that ID, as it was.
      const found: string | { endUserId: string; endUserSearchValue: string } = await lookup.findEndUserByWallet({ walletId: state.deposit.walletId });
      state.endUserId = typeof found === 'string' ? found : found.endUserId;
      endUserSearchValue = typeof found === 'string' ? found : found.endUserSearchValue;
    } catch {
      state.unattributed = true;
      log.warn('No end user owns the deposit wallet; the off-ramp runs unattributed', { depositTransactionId, walletId: state.deposit.walletId });
    }
    if (state.endUserId) {
      if (patched('link-end-user-by-activity')) {
        // An activity signals end-user/<id>: this history then holds no end-user workflow ID in clear.
        try {
          await activities.linkOffRampToEndUser({ endUserId: state.endUserId, depositTransactionId });
        } catch (error) {
          log.warn('Could not tell the end user workflow about its deposit', { error: error instanceof Error ? error.message : String(error) });
        }
      } else {
        try {
          await getExternalWorkflowHandle(`end-user/${state.endUserId}`).signal(offRampLinkedSignal, { depositTransactionId });
        } catch (error) {
          log.warn('Could not tell the end user workflow about its deposit', { error: error instanceof Error ? error.message : String(error) });
        }
      }
    }
  }

  let status = evaluate();
  publish(status);
  let stepStartedMs = Date.now();
  let pollDelayMs = timings.pollInitialMs;
  for (;;) {
    if (status === 'awaiting-settlement' || status === 'settled') {
      // The completion event names the order transaction; the fiat amount is on its order.
      const orderId = state.orderTransaction?.orderId ?? state.sweep?.orderId;
      if (!state.order && orderId) await tolerate('order read', async () => applyOrder(await activities.readOrderSnapshot({ id: orderId })));
    }
    const next = evaluate();
    if (next === 'settled') recordSettlement();
    if (next !== status) {
      status = next;
      stepStartedMs = Date.now();
      pollDelayMs = timings.pollInitialMs;
      publish(status);
    }
    if (TERMINAL.includes(status)) break;
    if (Date.now() - startedAtMs >= timings.processTimeoutMs) {
      await alert('process-timed-out', `Off-ramp of deposit ${depositTransactionId} did not finish within its process timeout (last step: ${state.step})`, { depositTransactionId, status });
      status = 'timed-out';
      publish(status);
      break;
    }
    const { deadlineMs, late, waitMs } = nextStepWait(timings, { startedAtMs, stepStartedMs, pollDelayMs });
    const seen = revision;
    if (await condition(() => revision !== seen, waitMs)) continue;
    if (Date.now() < deadlineMs) continue;
    // The next event is late: ask the operator.
    await tolerate('poll', poll);
    if (late) pollDelayMs = nextPollDelayMs(timings, pollDelayMs);
    if (evaluate() === 'awaiting-sweep' && !state.stuckSince) await markStuck();
  }
  // Issue 6: the stranded-deposit incident closes when the deposit settles (the incident store sends the notice).
  if (status === 'settled' && stuckAlertKind && state.alertsRaised > 0 && patched('alerts-incident-store')) {
    try {
      await alerts.resolveAlert({ kind: stuckAlertKind, details: { depositTransactionId }, resolution: `Deposit ${depositTransactionId} settled (order ${state.orderId ?? '?'})` });
    } catch (error) {
      log.error('Alert could not be resolved', { error: error instanceof Error ? error.message : String(error) });
    }
  }
  state.endedAt = new Date().toISOString();
  return state;
}
