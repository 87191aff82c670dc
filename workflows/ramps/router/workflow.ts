/**
 * transaction/<id> and order/<id>: the receiver's durable inbox for one operator resource.
 *
 * The receiver signal-with-starts this workflow and answers 200 once the signal is in Temporal. The workflow then
 * re-reads the resource by ID (the payload is only a hint), works out which process owns it and forwards the
 * fresh snapshot there (signal-with-start, so an event that arrives before its process exists still lands).
 * Several deliveries that arrive together are coalesced into one read. It ends once its inbox is empty (after
 * RAMP_ROUTER_LINGER, when set, with no new delivery); a later delivery for the same resource starts a new run
 * under the same ID (its history stays small).
 */
import {
  condition,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { RampActivities } from '../../../activities';
import { errorMessage } from '../../../src/domain/errors';
import { RampStatus } from '../../../src/temporal/search-attributes';
import { operatorActivityOptions, operatorLocalActivityOptions } from '../../shared/activity-options';
import { failureNote, nextPollDelayMs } from '../shared/step-timing';
import { routerStateQuery, webhookEventSignal } from './messages';
import {
  forwardedDetails,
  forwardOutcomeOf,
  isDuplicate,
  lateEventAlert,
  lingerMs,
  lingeringDetails,
  OFF_RAMP_ORDER_UNROUTABLE,
  recordEvent,
  recordForward,
  routeTransaction,
} from './state';
import {
  type ForwardOutcome,
  type RouterInput,
  type RouterState,
  UNKNOWN_RESOURCE_STATUS,
  type WebhookEventSignal,
} from './types';
import { isOperatorNotFound, recordGiveUp, recordNotFound, unknownResourceRetry } from './unknown-resource';
import { hasPatch } from '../../shared/patches';

/** Runs recorded before a hop was one activity (routeEvent) re-read, then forwarded, in activities of their own. */
export const ROUTE_IN_ONE_ACTIVITY_PATCH = 'router-one-activity';

export async function webhookRouterWorkflow(input: RouterInput): Promise<RouterState> {
  const { kind, resourceId, timings } = input;
  const activities = proxyActivities<RampActivities>(operatorActivityOptions(timings));
  // A hop is one scheduled activity (routeEvent, below). Runs recorded before take the separate ones, and those
  // started while routers used local activities keep them on replay (docs/architecture.md, "A router's hop stays
  // in scheduled activities").
  const hop =
    !hasPatch(input, 'router-activities-restored') && patched('router-local-activities')
      ? proxyLocalActivities<RampActivities>(operatorLocalActivityOptions(timings))
      : activities;
  const state: RouterState = {
    kind,
    resourceId,
    eventsReceived: 0,
    duplicates: 0,
    forwardedTo: [],
    events: [],
  };
  const inbox: WebhookEventSignal[] = [];

  // ---- messages
  setHandler(webhookEventSignal, (event) => {
    inbox.push(event);
    recordEvent(state, event);
  });
  setHandler(routerStateQuery, () => state);

  // ---- the loop
  // Started by signal-with-start: the first event is in the inbox before this line runs.
  await condition(() => inbox.length > 0, timings.activityStartToCloseMs);
  // The receiver already answered 200: this run is the event's only copy, so a failed read or forward (operator
  // outage, a 404 while the operator's read lags its own webhook) keeps the batch and tries again with backoff.
  let giveUpAtMs = Date.now() + timings.processTimeoutMs;
  let retryDelayMs = timings.pollInitialMs;
  /** When the operator first answered 404 for this resource (reset by a successful read). */
  let firstNotFoundAtMs: number | undefined;
  for (;;) {
    await routeInbox();
    if (state.unknownResource?.gaveUpAt) break;
    // Open a while longer when configured and another event is due: it is then a signal, not a new run.
    const waitMs = lingerMs(timings, state, workflowInfo().historyLength);
    if (waitMs <= 0) break;
    setCurrentDetails(lingeringDetails(state, waitMs));
    if (!(await condition(() => inbox.length > 0, waitMs))) break;
    giveUpAtMs = Date.now() + timings.processTimeoutMs;
  }
  if (!state.unknownResource?.gaveUpAt) setCurrentDetails(forwardedDetails(state));
  return state;

  /** Routes what the inbox holds, and what arrives meanwhile, until it is empty or the router gave up. */
  async function routeInbox(): Promise<void> {
    while (inbox.length > 0) {
      const batch = inbox.splice(0);
      try {
        await handle(batch);
        retryDelayMs = timings.pollInitialMs;
        firstNotFoundAtMs = undefined;
      } catch (error) {
        if (Date.now() >= giveUpAtMs) throw error;
        inbox.unshift(...batch);
        state.lastFailure = failureNote(`re-read or forward of ${kind} ${resourceId}`, error);
        let waitMs = retryDelayMs;
        let nextDelayMs = nextPollDelayMs(timings, retryDelayMs);
        if (isOperatorNotFound(error) && hasPatch(input, 'router-unknown-resource')) {
          firstNotFoundAtMs ??= Date.now();
          recordNotFound(state, firstNotFoundAtMs);
          const retry = unknownResourceRetry(timings, {
            firstNotFoundAtMs,
            delayMs: retryDelayMs,
            nowMs: Date.now(),
          });
          if (retry.giveUp) {
            giveUpUnknownResource(inbox.splice(0).length);
            return;
          }
          ({ waitMs, nextDelayMs } = retry);
        }
        log.warn('Router could not finish; retrying', {
          kind,
          resourceId,
          retryInMs: waitMs,
          error: state.lastFailure.message,
        });
        setCurrentDetails(
          `Re-read or forward of ${kind} ${resourceId} failed; retrying in ${Math.round(waitMs / 1000)} s`,
        );
        await sleep(waitMs);
        retryDelayMs = nextDelayMs;
      }
    }
  }

  /** Ends the router for a resource the operator never knew: recorded, searchable, counted in metrics. */
  function giveUpUnknownResource(dropped: number): void {
    const why = recordGiveUp(state, timings, dropped, new Date().toISOString());
    log.warn('Router gave up on a resource the operator does not know', {
      kind,
      resourceId,
      reads: state.unknownResource?.reads,
      eventsDropped: dropped,
    });
    setCurrentDetails(`Unknown resource: ${why}`);
    upsertSearchAttributes([{ key: RampStatus, value: UNKNOWN_RESOURCE_STATUS }]);
  }

  async function handle(batch: WebhookEventSignal[]): Promise<void> {
    setCurrentDetails(
      `Re-reading ${kind} ${resourceId} after ${batch.map((event) => event.eventType).join(', ')}`,
    );
    if (hasPatch(input, ROUTE_IN_ONE_ACTIVITY_PATCH)) {
      // The read, the routing and the forward in one activity; the same rules decide (they are the pure module's).
      const routed = await activities.routeEvent({ kind, resourceId, lastStatus: state.lastStatus, timings });
      if (isDuplicate(state, routed.status, batch.length)) return;
      if ('outcome' in routed) {
        await remember(routed.status, routed.outcome);
      } else if ('unroutable' in routed) {
        state.unroutable = routed.unroutable;
        if (kind === 'transaction')
          log.warn('Transaction belongs to no ramp process', {
            transactionId: resourceId,
            reason: routed.unroutable,
          });
      }
      return;
    }
    if (kind === 'transaction') {
      const tx = await hop.readTransactionSnapshot({ id: resourceId });
      if (isDuplicate(state, tx.status, batch.length)) return;
      const route = routeTransaction(tx);
      if (route.kind === 'offramp') {
        await remember(
          tx.status,
          await hop.forwardToOffRamp({
            depositTransactionId: route.depositTransactionId,
            signal: { role: route.role, transaction: tx },
            timings,
          }),
        );
      } else if (route.kind === 'onramp-order') {
        const order = await hop.readOrderSnapshot({ id: route.orderId });
        await remember(
          tx.status,
          await hop.forwardToOnRamp({
            orderReference: order.orderReference,
            order,
            transaction: tx,
            timings,
          }),
        );
      } else {
        state.unroutable = route.reason;
        log.warn('Transaction belongs to no ramp process', {
          transactionId: resourceId,
          reason: route.reason,
        });
      }
    } else {
      const order = await hop.readOrderSnapshot({ id: resourceId });
      if (isDuplicate(state, order.status, batch.length)) return;
      if (order.direction === 'off-ramp') {
        state.unroutable = OFF_RAMP_ORDER_UNROUTABLE;
      } else {
        await remember(
          order.status,
          await hop.forwardToOnRamp({ orderReference: order.orderReference, order, timings }),
        );
      }
    }
  }

  /**
   * A process that had already ended is not run again (src/temporal/process-start.ts): the event is kept on this
   * router as late, and one that gave up is raised as an incident; its outcome stays as it ended.
   */
  async function remember(resourceStatus: string, answer: ForwardOutcome | string): Promise<void> {
    const outcome = forwardOutcomeOf(answer);
    const { late, raiseLateAlert } = recordForward(state, outcome, resourceStatus, new Date().toISOString());
    if (!late) return;
    log.warn('Event for a process that has already ended: recorded, not applied', {
      kind,
      resourceId,
      process: outcome.workflowId,
      processStatus: late.processStatus,
      resourceStatus,
    });
    if (raiseLateAlert && hasPatch(input, 'late-event-after-timeout')) {
      try {
        const alert = lateEventAlert(kind, resourceId, late);
        await activities.raiseAlert({
          kind: alert.kind,
          message: alert.message,
          workflowId: workflowInfo().workflowId,
          details: alert.details,
        });
      } catch (error) {
        // Not retried through the batch: the event is recorded above, and a second forward would record it twice.
        log.error('Late-event incident could not be raised', {
          process: outcome.workflowId,
          error: errorMessage(error),
        });
      }
    }
  }
}
