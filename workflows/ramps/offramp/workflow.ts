/**
 * offramp/<depositTransactionId>: one Autoswap (spec §6, off-ramp sequence) from the deposit to the settled order.
 *
 *   deposit seen -> (gas top-up on a first deposit) -> deposit confirmed -> sweep started -> sweep confirmed
 *   -> order transaction completed: settled (fiat amount, order id)
 *
 * Started by the first re-read transaction that belongs to the deposit (the receiver, or a router, signals it
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
import { condition, setHandler } from '@temporalio/workflow';
import { recordsIntoLedger } from '../../outcomes/ledger';
import { startOutcomeSender } from '../../outcomes/sender';
import { rampLedger } from '../shared/ledger';
import { statusPublisher } from '../shared/publish';
import { bookEnd, firstShown } from '../shared/ending';
import { StepClock } from '../shared/step-clock';
import { offRampStateQuery, offRampTransactionSignal } from './messages';
import { evaluateInto } from '../shared/rules';
import { offRampRules as rules } from './rules';
import {
  applyTransaction,
  newOffRampState,
  orderReadOverdue,
  orderToConfirm,
  orderToRead,
  shouldMarkStuck,
} from './state';
import { timedOutAlert } from './alerts';
import { OffRampRun } from './steps';
import type { OffRampInput, OffRampState, OffRampStatus } from './types';
import { declareReleaseBehaviour } from '../../shared/versioning';

export async function offRampWorkflow(input: OffRampInput): Promise<OffRampState> {
  const { depositTransactionId, timings } = input;
  // Its view and events go to the ledger before each wait; a run from a 1.0 history sends from its own outbox.
  const recorded = recordsIntoLedger();
  const clock = new StepClock(timings, Date.now(), { keepsTimers: recorded });
  const state = newOffRampState(depositTransactionId, new Date(clock.startedAtMs).toISOString());
  const ledger = recorded ? rampLedger({ direction: 'off-ramp', state }, timings) : undefined;
  const outcomes = ledger ?? startOutcomeSender(state.outcomes, timings);
  const run = new OffRampRun(state, timings, outcomes);
  const publish = statusPublisher(state, rules, outcomes, () => run.endUserSearchValue, recorded);

  // ---- messages
  setHandler(offRampTransactionSignal, ({ role, transaction, order }) => {
    if (applyTransaction(state, role, transaction, true).revised) run.revision += 1;
    if (order) run.forwardedOrder = order;
  });
  setHandler(offRampStateQuery, () => state);

  // ---- first snapshot and owner
  // Only ever started by a snapshot; it usually is the deposit itself, otherwise (reordered events) read it.
  // (A 1.0 run starts this wait's timer even when that snapshot is already in.)
  if (!recorded || run.revision === 0)
    await condition(() => run.revision > 0, timings.activityStartToCloseMs);
  if (!state.deposit) await run.tolerate('deposit read', () => run.poll());
  if (state.deposit) await run.attribute(state.deposit.walletId);

  // ---- the loop
  let status = firstShown<OffRampStatus>(evaluateInto(rules, state), 'awaiting-settlement');
  publish(status);
  clock.stepStarted();
  for (;;) {
    const orderId = orderToRead(status, state);
    if (orderId) await run.takeOrder(orderId);
    // Settling on an order read before it executed: read once more, so the row booked is what the operator says.
    const unconfirmed = recorded ? orderToConfirm(state) : undefined;
    if (unconfirmed) await run.confirmOrder(unconfirmed);
    rules.refreshBooking(state);
    // Exceptions are raised when seen, not at a deadline; the process keeps following the operator.
    await run.raiseExceptions(rules.newExceptions(state, timings.markets));
    const next = evaluateInto(rules, state);
    if (next === 'settled') Object.assign(state, rules.settlementOf(state));
    // Publishes on status changes only.
    if (next !== status) {
      status = next;
      clock.stepStarted();
      publish(status);
    }
    if (rules.isTerminal(status)) break;
    // An exception nothing converted ends as it is: its incident is already open.
    if (clock.processTimedOut() && status === 'exception') break;
    if (clock.processTimedOut()) {
      await run.alert(timedOutAlert(state, status));
      status = 'timed-out';
      publish(status);
      break;
    }
    // The order transaction completed with the sweep's confirmation: no further event comes, read the order now.
    if (!orderId && orderReadOverdue(status, state)) continue;
    const step = await clock.waitForEventOrDeadline(
      () => run.revision,
      () => true,
      ledger && (() => ledger.sync()),
    );
    if (!step.poll) continue;
    // The next event is late: ask the operator.
    await run.tolerate('poll', () => run.poll());
    clock.afterPoll(step.late);
    if (shouldMarkStuck(evaluateInto(rules, state), state)) await run.markStuck();
  }
  if (status === 'settled') {
    await run.resolveStuckAlert();
    await run.resolveExceptionAlerts();
  }
  state.endedAt = new Date().toISOString();
  // The ledger books the ramp; a 1.0 run tells the client's backend every transition before it closes.
  await bookEnd(
    outcomes,
    recorded,
    () => run.revision,
    () => rules.refreshBooking(state),
  );
  return state;
}

declareReleaseBehaviour(offRampWorkflow, 'pinned');
