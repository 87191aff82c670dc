/**
 * onramp/<orderReference>: one on-ramp (spec §6, on-ramp sequence) for an order reference.
 *
 *   order created (awaiting_funds) -> order executed -> crypto deposit to the master wallet -> deposit confirmed:
 *   settled. Or the order ends expired / failed.
 *
 * Started by the typed client (startOnRamp: end user and optional quote shown) or by the first event of an order
 * whose reference no client call announced (then flagged unattributed until a startOnRamp names its end user; one
 * that ends so stays claimable for ONRAMP_CLAIM_WINDOW, then closes `unclaimed` with an incident). An order outside
 * the account's markets, or executed off its quote, is an exception when seen: event and incident.
 * The master-wallet Deposit finds this process through its orderId (Get Order gives the reference).
 * Each step has a deadline; a late event makes it poll Get Order / Get Transaction with backoff. Before the
 * first order event there is nothing to poll (the operator has no lookup by reference), so it waits.
 *
 * How this loop differs from the off-ramp's, and why: it may start with no event, so it waits for none before its loop; the client names its end user (no lookup);
 * it publishes on every revision too, because an attribution can come at any step and must reach RampEndUserId;
 * it cannot poll before its first order; its poll reads the order every time; it raises no alert when it times
 * out (an order that never comes is the client's own business; a deposit is already the operator's).
 */
import { log, proxyActivities, setHandler } from '@temporalio/workflow';
import type { RampActivities } from '../../../activities';
import { recordsIntoLedger } from '../../outcomes/ledger';
import { startOutcomeSender } from '../../outcomes/sender';
import { operatorActivityOptions } from '../../shared/activity-options';
import { bookEnd, firstShown } from '../shared/ending';
import { rampLedger } from '../shared/ledger';
import { statusPublisher } from '../shared/publish';
import { StepClock } from '../shared/step-clock';
import { failureNote } from '../shared/step-timing';
import {
  onRampAttributionSignal,
  onRampOrderSignal,
  onRampStateQuery,
  onRampTransactionSignal,
} from './messages';
import { evaluateInto } from '../shared/rules';
import { onRampRules as rules } from './rules';
import {
  applyAttribution,
  applyDeposit,
  applyOrder,
  applyPoll,
  canPoll,
  initialSearchValue,
  newOnRampState,
  orderToConfirm,
  pollRequest,
} from './state';
import { OnRampSteps } from './steps';
import type { OnRampInput, OnRampPollRequest, OnRampState, OnRampStatus } from './types';
import { declareReleaseBehaviour } from '../../shared/versioning';

export async function onRampWorkflow(input: OnRampInput): Promise<OnRampState> {
  const { timings } = input;
  const activities = proxyActivities<RampActivities>(operatorActivityOptions(timings));
  // Its view and events go to the ledger before each wait; a run from a 1.0 history sends from its own outbox.
  const recorded = recordsIntoLedger();
  const clock = new StepClock(timings, Date.now(), { keepsTimers: recorded });
  const state = newOnRampState(input, new Date(clock.startedAtMs).toISOString());
  let revision = 0;
  /** RampEndUserId: the end user ID, or its pseudonym with payload encryption (computed by the typed client). */
  let endUserSearchValue = initialSearchValue(input);
  const ledger = recorded ? rampLedger({ direction: 'on-ramp', state }, timings) : undefined;
  const outcomes = ledger ?? startOutcomeSender(state.outcomes, timings);
  const publish = statusPublisher(state, rules, outcomes, () => endUserSearchValue, recorded);
  const steps = new OnRampSteps(state, timings, outcomes, ledger);

  // ---- messages
  setHandler(onRampOrderSignal, (order) => {
    if (applyOrder(state, order, true).revised) revision += 1;
  });
  setHandler(onRampTransactionSignal, (tx) => {
    if (applyDeposit(state, tx, true).revised) revision += 1;
  });
  setHandler(onRampAttributionSignal, (attribution) => {
    const applied = applyAttribution(state, endUserSearchValue, attribution);
    endUserSearchValue = applied.endUserSearchValue;
    if (applied.revised) revision += 1;
  });
  setHandler(onRampStateQuery, () => state);

  // ---- the loop (no first snapshot to wait for: startOnRamp may start it before any event)
  let status = firstShown<OnRampStatus>(evaluateInto(rules, state), 'awaiting-confirmation');
  publish(status);
  clock.stepStarted();
  let publishedRevision = revision;
  const poll = async (request: OnRampPollRequest) => {
    state.polls += 1;
    try {
      const found = await activities.pollOnRamp(request);
      if (applyPoll(state, found).revised) revision += 1;
    } catch (error) {
      // A failed poll is noted and tried again at the next one: it never ends the process.
      state.lastFailure = failureNote('poll', error);
      log.warn('Operator poll failed; the on-ramp keeps waiting and polls again', {
        orderReference: state.orderReference,
        error: state.lastFailure.message,
      });
    }
  };
  for (;;) {
    // Settling with its order read before it executed: poll once more, so the row booked is what the operator says.
    const unconfirmed = recorded ? orderToConfirm(state) : undefined;
    if (unconfirmed) await poll(unconfirmed);
    rules.refreshBooking(state);
    // Exceptions are raised when seen, not at a deadline; the process keeps following the operator.
    await steps.raiseExceptions(rules.newExceptions(state, timings.markets));
    const next = evaluateInto(rules, state);
    if (next === 'settled') Object.assign(state, rules.settlementOf(state));
    // Publishes on revisions too: an attribution can come at any step and must reach RampEndUserId.
    if (next !== status || revision !== publishedRevision) {
      if (next !== status) clock.stepStarted();
      status = next;
      publishedRevision = revision;
      publish(status);
    }
    if (rules.isTerminal(status)) break;
    // An exception nothing converted ends as it is: its incident is already open.
    if (clock.processTimedOut() && status === 'exception') break;
    if (clock.processTimedOut()) {
      status = 'timed-out';
      publish(status);
      break;
    }
    // Without an order ID there is nothing to poll: wait for an event (or the process timeout).
    const step = await clock.waitForEventOrDeadline(
      () => revision,
      () => canPoll(state),
      ledger && (() => ledger.sync()),
    );
    const request = pollRequest(state);
    if (!step.poll || !request) continue;
    await poll(request);
    clock.afterPoll(step.late);
  }
  state.endedAt = new Date().toISOString();
  // Ended without an end user: the client's backend may still name one (a late startOnRamp) for a while.
  const claimable = steps.waitsForClaim();
  if (status === 'settled') await steps.resolveExceptionAlerts();
  if (claimable) await steps.awaitClaim(status, publish);
  // The ledger books the ramp; a 1.0 run tells the client's backend every transition before it closes.
  await bookEnd(
    outcomes,
    recorded,
    () => revision,
    () => rules.refreshBooking(state),
  );
  return state;
}

declareReleaseBehaviour(onRampWorkflow, 'pinned');
