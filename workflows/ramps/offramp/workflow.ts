/**
 * offramp/<depositTransactionId>: one Autoswap (spec §6, off-ramp sequence) from the deposit to the settled order.
 *
 *   deposit seen -> (gas top-up on a first deposit) -> deposit confirmed -> sweep started -> sweep confirmed
 *   -> order transaction completed: settled (fiat amount, order id)
 *
 * Started by the first re-read transaction that belongs to the deposit (the receiver, or a shard router, signals it
 * with start, so a sweep event that overtakes its deposit event still lands). It finds its end user from the deposit wallet
 * (RampWalletId) and tells end-user/<id>, which lists its deposits, in one activity (attributeOffRamp, so its
 * history names no end-user/<id> workflow; RampEndUserId holds a pseudonym when payload encryption is on).
 * Every step has a deadline (stepDeadlineMs): when the next event is late the process polls the operator with
 * backoff, so it reaches its end with no webhook at all after the first. When the sweep does not start in time it
 * is `stuck`: it checks the gas wallet's native balance, raises one alert, and keeps waiting, so a late sweep
 * (after the gas wallet is funded) still settles it.
 *
 * How this loop differs from the on-ramp's, and why: it waits for its first snapshot (it is only ever started by one); it finds its own end user; it publishes on
 * status changes only; it can always poll (it knows its deposit); it needs its order at settlement (no order
 * webhook brings it: the forward of a transaction that names it does, or it reads it); it can be stuck for lack of
 * gas; it raises an alert when it times out.
 */
import { condition, log, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { RampActivities } from '../../../activities';
import { failureReason } from '../../../src/domain/errors';
import type { GasCheck } from '../../operations/gas-monitor/types';
import { startOutcomeSender } from '../../outcomes/sender';
import { operatorActivityOptions } from '../../shared/activity-options';
import { statusPublisher } from '../shared/publish';
import type { OrderSnapshot } from '../shared/snapshots';
import { StepClock } from '../shared/step-clock';
import { failureNote } from '../shared/step-timing';
import { offRampStateQuery, offRampTransactionSignal } from './messages';
import {
  applyOrder,
  applyPoll,
  applyTransaction,
  currentDetails,
  evaluateInto,
  isTerminal,
  newOffRampState,
  type OffRampAlert,
  offRampOutcomes,
  orderReadOverdue,
  orderToRead,
  pollRequest,
  searchAttributes,
  settlementOf,
  shouldMarkStuck,
  stepText,
  stuckAlert,
  type StuckAlertKind,
  stuckNetwork,
  stuckResolution,
  timedOutAlert,
  unavailableGasCheck,
} from './state';
import type { OffRampInput, OffRampState, OffRampStatus } from './types';

export async function offRampWorkflow(input: OffRampInput): Promise<OffRampState> {
  const { depositTransactionId, timings } = input;
  const activities = proxyActivities<RampActivities>(operatorActivityOptions(timings));
  // Visibility is eventually consistent: a bounded number of lookups, then the process runs unattributed.
  const lookup = proxyActivities<RampActivities>({
    ...operatorActivityOptions(timings),
    retry: {
      initialInterval: timings.activityRetryInitialMs,
      maximumInterval: timings.activityRetryMaximumMs,
      backoffCoefficient: 2,
      maximumAttempts: 6,
    },
  });

  const clock = new StepClock(timings, Date.now());
  const state = newOffRampState(depositTransactionId, new Date(clock.startedAtMs).toISOString());
  let revision = 0;
  /** RampEndUserId: the end user ID, or its pseudonym with payload encryption (computed by attributeOffRamp). */
  let endUserSearchValue: string | null = null;
  /** The kind of the stuck alert raised, so the incident is resolved when the deposit settles. */
  let stuckAlertKind: StuckAlertKind | undefined;
  /** The order a router's forward brought along with a sweep or order transaction (applied in the loop). */
  let forwardedOrder: OrderSnapshot | undefined;
  const outcomes = startOutcomeSender(state.outcomes, timings);
  const publish = statusPublisher(
    state,
    { settlementOf, stepText, currentDetails, searchAttributes, outcomes: offRampOutcomes },
    outcomes,
    () => endUserSearchValue,
  );

  // ---- messages
  setHandler(offRampTransactionSignal, ({ role, transaction, order }) => {
    if (applyTransaction(state, role, transaction, true).revised) revision += 1;
    if (order) forwardedOrder = order;
  });
  setHandler(offRampStateQuery, () => state);

  // ---- first snapshot and owner
  // Only ever started by a snapshot; it usually is the deposit itself, otherwise (reordered events) read it.
  await condition(() => revision > 0, timings.activityStartToCloseMs);
  if (!state.deposit) await tolerate('deposit read', poll);
  if (state.deposit) await attribute(state.deposit.walletId);

  // ---- the loop
  let status: OffRampStatus = evaluateInto(state);
  publish(status);
  clock.stepStarted();
  for (;;) {
    const orderId = orderToRead(status, state);
    if (orderId) await takeOrder(orderId);
    const next = evaluateInto(state);
    if (next === 'settled') Object.assign(state, settlementOf(state));
    // Publishes on status changes only.
    if (next !== status) {
      status = next;
      clock.stepStarted();
      publish(status);
    }
    if (isTerminal(status)) break;
    if (clock.processTimedOut()) {
      await alert(timedOutAlert(state, status));
      status = 'timed-out';
      publish(status);
      break;
    }
    // The order transaction completed with the sweep's confirmation: no further event comes, read the order now.
    if (!orderId && orderReadOverdue(status, state)) continue;
    const step = await clock.waitForEventOrDeadline(
      () => revision,
      () => true,
    );
    if (!step.poll) continue;
    // The next event is late: ask the operator.
    await tolerate('poll', poll);
    clock.afterPoll(step.late);
    if (shouldMarkStuck(evaluateInto(state), state)) await markStuck();
  }
  // The stranded-deposit incident closes when the deposit settles (the incident store sends the notice).
  if (status === 'settled' && stuckAlertKind && state.alertsRaised > 0)
    await resolveStuckAlert(stuckAlertKind);
  state.endedAt = new Date().toISOString();
  // The client's backend hears every transition before the process closes (retried for as long as configured).
  await outcomes.drained();
  return state;

  async function poll(): Promise<void> {
    state.polls += 1;
    const found = await activities.pollOffRamp(pollRequest(state));
    if (applyPoll(state, found).revised) revision += 1;
  }

  /** The order to settle from: the one a forward brought along, else read. */
  async function takeOrder(orderId: string): Promise<void> {
    if (forwardedOrder?.id === orderId) {
      if (applyOrder(state, forwardedOrder).revised) revision += 1;
      return;
    }
    await tolerate('order read', async () => {
      if (applyOrder(state, await activities.readOrderSnapshot({ id: orderId })).revised) revision += 1;
    });
  }

  /** Runs an operator read; a failure is recorded and logged, and the loop simply reads again later. */
  async function tolerate(what: string, read: () => Promise<void>): Promise<void> {
    try {
      await read();
    } catch (error) {
      state.lastFailure = failureNote(what, error);
      log.warn('Operator read failed; the off-ramp keeps waiting and reads again', {
        depositTransactionId,
        what,
        error: state.lastFailure.message,
      });
    }
  }

  async function alert({ kind, message, details }: OffRampAlert): Promise<void> {
    try {
      await activities.raiseAlert({ kind, message, workflowId: workflowInfo().workflowId, details });
      state.alertsRaised += 1;
    } catch (error) {
      log.error('Alert could not be raised', { kind, error: failureReason(error) });
    }
  }

  async function resolveStuckAlert(kind: StuckAlertKind): Promise<void> {
    try {
      await activities.resolveAlert(stuckResolution(state, kind));
    } catch (error) {
      log.error('Alert could not be resolved', { error: failureReason(error) });
    }
  }

  async function markStuck(): Promise<void> {
    state.stuckSince = new Date().toISOString();
    const network = stuckNetwork(state);
    let gas: GasCheck;
    try {
      gas = await activities.checkGasWallet({ network });
    } catch (error) {
      // A gas check that cannot be made must not end the process (least of all when gas is the problem): alert anyway.
      state.lastFailure = failureNote('gas wallet check', error);
      gas = unavailableGasCheck(network, state.lastFailure.message, new Date().toISOString());
    }
    state.gasCheck = gas;
    revision += 1;
    if (state.alertsRaised > 0) return;
    const stuck = stuckAlert(state, network, gas);
    stuckAlertKind = stuck.kind;
    await alert(stuck);
  }

  /**
   * Finds the deposit wallet's end user and tells its end-user/<id> workflow, in one activity (so this history names
   * no end-user/<id> workflow; RampEndUserId holds a pseudonym when payload encryption is on).
   */
  async function attribute(walletId: string): Promise<void> {
    try {
      const owner = await lookup.attributeOffRamp({ walletId, depositTransactionId });
      state.endUserId = owner.endUserId;
      endUserSearchValue = owner.endUserSearchValue;
    } catch {
      state.unattributed = true;
      log.warn('No end user owns the deposit wallet; the off-ramp runs unattributed', {
        depositTransactionId,
        walletId,
      });
    }
  }
}
