/**
 * One resource's routing, inside a router workflow: re-read the resource, forward the snapshot to its owner, keep
 * the batch and try again when that fails, give up only on a resource the operator does not know. A per-resource
 * router (`transaction/<id>`) runs one lane; a shard router (`routes/<task queue>/<n>`) runs one per resource with
 * deliveries.
 * Workflow code: the lane schedules the activities, timers and alerts of the workflow that runs it.
 */
import { log, workflowInfo } from '@temporalio/workflow';
import type { RampActivities } from '../../../activities';
import { failureReason } from '../../../src/domain/errors';
import { hasPatch } from '../../shared/patches';
import { failureNote, nextPollDelayMs } from '../shared/step-timing';
import {
  forwardOutcomeOf,
  isDuplicate,
  lateEventAlert,
  OFF_RAMP_ORDER_UNROUTABLE,
  recordForward,
  routeTransaction,
} from './state';
import type {
  CarriedLane,
  ForwardOutcome,
  RoutedEvent,
  RouteEventInput,
  RouterInput,
  WebhookEventSignal,
} from './types';
import { isOperatorNotFound, recordGiveUp, recordNotFound, unknownResourceRetry } from './unknown-resource';

/** Runs recorded before a hop was one activity (routeEvent) re-read, then forwarded, in activities of their own. */
export const ROUTE_IN_ONE_ACTIVITY_PATCH = 'router-one-activity';

/** One resource's routing: what a shard router carries over continue-as-new, and the input it routes with. */
export interface Lane extends CarriedLane {
  input: RouterInput;
}

/** What the workflow running a lane lends it. */
export interface LaneHost {
  activities: RampActivities;
  /** The activities a hop's separate steps run on (local ones in runs recorded while routers used them). */
  hop: RampActivities;
  /** A hop in one activity: routeEvent of its own, or a place in the shard router's next batch. */
  routeEvent: (input: RouteEventInput) => Promise<RoutedEvent>;
  /** Says what the lane is doing (the Web UI's current details of a per-resource router). */
  describe: (details: string) => void;
  /** True when the lane should stop before its next batch (a shard router about to continue as new). */
  paused: () => boolean;
  /**
   * Waits before the next attempt; true when the workflow asked the lane to stop waiting (a shard router about
   * to continue as new), in which case the lane returns with its batch back in the inbox.
   */
  waitBeforeRetry: (waitMs: number) => Promise<boolean>;
  /** The lane gave up on a resource the operator never knew (after its state recorded it). */
  gaveUpUnknownResource: (why: string) => void;
}

export function newLane(input: RouterInput, nowMs: number): Lane {
  return {
    input,
    state: {
      kind: input.kind,
      resourceId: input.resourceId,
      eventsReceived: 0,
      duplicates: 0,
      forwardedTo: [],
      events: [],
    },
    inbox: [],
    retry: { giveUpAtMs: nowMs + input.timings.processTimeoutMs, retryDelayMs: input.timings.pollInitialMs },
  };
}

/** A lingering per-resource router that gets another delivery tries for another process timeout from then. */
export function extendLane(lane: Lane, nowMs: number): void {
  lane.retry.giveUpAtMs = nowMs + lane.input.timings.processTimeoutMs;
}

/**
 * Routes what the inbox holds, and what arrives meanwhile, until it is empty, the lane gave up on an unknown
 * resource, or the host interrupted a wait. The receiver already answered 200: the lane holds the event's only
 * copy, so a failed read or forward (operator outage, a 404 while the operator's read lags its own webhook) keeps
 * the batch and tries again with backoff.
 */
export async function routeLane(lane: Lane, host: LaneHost): Promise<void> {
  const { input, state, inbox, retry } = lane;
  const { kind, resourceId, timings } = input;
  const { activities, hop } = host;
  while (inbox.length > 0 && !host.paused()) {
    const batch = inbox.splice(0);
    try {
      await handle(batch);
      retry.retryDelayMs = timings.pollInitialMs;
      delete retry.firstNotFoundAtMs;
    } catch (error) {
      if (Date.now() >= retry.giveUpAtMs) throw error;
      inbox.unshift(...batch);
      state.lastFailure = failureNote(`re-read or forward of ${kind} ${resourceId}`, error);
      let waitMs = retry.retryDelayMs;
      let nextDelayMs = nextPollDelayMs(timings, retry.retryDelayMs);
      if (isOperatorNotFound(error) && hasPatch(input, 'router-unknown-resource')) {
        retry.firstNotFoundAtMs ??= Date.now();
        recordNotFound(state, retry.firstNotFoundAtMs);
        const verdict = unknownResourceRetry(timings, {
          firstNotFoundAtMs: retry.firstNotFoundAtMs,
          delayMs: retry.retryDelayMs,
          nowMs: Date.now(),
        });
        if (verdict.giveUp) {
          giveUpUnknownResource(inbox.splice(0).length);
          return;
        }
        ({ waitMs, nextDelayMs } = verdict);
      }
      log.warn('Router could not finish; retrying', {
        kind,
        resourceId,
        retryInMs: waitMs,
        error: state.lastFailure.message,
      });
      host.describe(
        `Re-read or forward of ${kind} ${resourceId} failed; retrying in ${Math.round(waitMs / 1000)} s`,
      );
      const interrupted = await host.waitBeforeRetry(waitMs);
      retry.retryDelayMs = nextDelayMs;
      if (interrupted) return;
    }
  }

  /** Ends the lane for a resource the operator never knew: recorded, searchable, counted in metrics. */
  function giveUpUnknownResource(dropped: number): void {
    const why = recordGiveUp(state, timings, dropped, new Date().toISOString());
    log.warn('Router gave up on a resource the operator does not know', {
      kind,
      resourceId,
      reads: state.unknownResource?.reads,
      eventsDropped: dropped,
    });
    host.gaveUpUnknownResource(why);
  }

  async function handle(batch: WebhookEventSignal[]): Promise<void> {
    host.describe(
      `Re-reading ${kind} ${resourceId} after ${batch.map((event) => event.eventType).join(', ')}`,
    );
    if (hasPatch(input, ROUTE_IN_ONE_ACTIVITY_PATCH)) {
      // The read, the routing and the forward in one activity; the same rules decide (they are the pure module's).
      const routed = await host.routeEvent({ kind, resourceId, lastStatus: state.lastStatus, timings });
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
   * lane as late, and one that gave up is raised as an incident; its outcome stays as it ended.
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
          error: failureReason(error),
        });
      }
    }
  }
}
