/**
 * One resource's routing inside the router: re-read the resource, forward the snapshot to its owner, keep the
 * batch and try again when that fails, give up only on a resource the operator does not know.
 * Workflow code: the lane schedules the activities, timers and alerts of the router that runs it.
 */
import { log } from '@temporalio/workflow';
import { failureReason } from '../../../src/domain/errors';
import type { WorkflowTimings } from '../../../src/domain/timings';
import type { ResourceKind } from '../../../src/domain/vocabulary';
import type { AlertInput } from '../../operations/alerts/types';
import { failureNote, nextPollDelayMs } from '../shared/step-timing';
import { isDuplicate, lateEventAlert, recordForward } from './lane-state';
import { countHop } from './metrics';
import type { CarriedLane, ForwardOutcome, RoutedEvent, RouteEventInput } from './types';
import { isOperatorNotFound, recordGiveUp, recordNotFound, unknownResourceRetry } from './unknown-resource';

/** One resource's routing: what the router carries over continue-as-new, and the timings it routes with. */
export interface Lane extends CarriedLane {
  timings: WorkflowTimings;
}

/** What the router lends a lane. */
export interface LaneHost {
  /** The lane's hop: a place in the router's next routeEvents batch. */
  routeEvent(input: RouteEventInput): Promise<RoutedEvent>;
  raiseAlert(alert: AlertInput): Promise<unknown>;
  /** True when the lane should stop before its next batch (the router is about to continue as new). */
  paused(): boolean;
  /**
   * Waits before the next attempt; true when the router asked the lane to stop waiting (it is about to continue as
   * new), in which case the lane returns with its batch back in the inbox.
   */
  waitBeforeRetry(waitMs: number): Promise<boolean>;
  /** The router's workflow ID, for the incidents a lane raises. */
  workflowId: string;
}

export function newLane(
  kind: ResourceKind,
  resourceId: string,
  timings: WorkflowTimings,
  nowMs: number,
): Lane {
  return {
    timings,
    state: { kind, resourceId, eventsReceived: 0, duplicates: 0, forwardedTo: [], events: [] },
    inbox: [],
    retry: { giveUpAtMs: nowMs + timings.processTimeoutMs, retryDelayMs: timings.pollInitialMs },
  };
}

/**
 * Routes what the inbox holds, and what arrives meanwhile, until it is empty, the lane gave up on an unknown
 * resource, or the host interrupted a wait. The receiver already answered 200: the lane holds the event's only
 * copy, so a failed read or forward (operator outage, a 404 while the operator's read lags its own webhook) keeps
 * the batch and tries again with backoff.
 */
export async function routeLane(lane: Lane, host: LaneHost): Promise<void> {
  const { inbox, retry, timings } = lane;
  while (inbox.length > 0 && !host.paused()) {
    const batch = inbox.splice(0);
    try {
      await routeBatch(lane, host, batch.length);
      countHop('routed');
      retry.retryDelayMs = timings.pollInitialMs;
      delete retry.firstNotFoundAtMs;
    } catch (error) {
      countHop(isOperatorNotFound(error) ? 'not-found' : 'failed');
      if (Date.now() >= retry.giveUpAtMs) throw error;
      inbox.unshift(...batch);
      if (!(await waitToRetry(lane, host, error))) return;
    }
  }
}

/** One hop for the batch: the read, the routing and the forward in one activity (the rules are the pure modules'). */
async function routeBatch(lane: Lane, host: LaneHost, batchSize: number): Promise<void> {
  const { state, timings } = lane;
  const { kind, resourceId } = state;
  const routed = await host.routeEvent({ kind, resourceId, lastStatus: state.lastStatus, timings });
  if (isDuplicate(state, routed.status, batchSize)) return;
  if ('outcome' in routed) {
    await rememberForward(lane, host, routed.status, routed.outcome);
  } else if ('unroutable' in routed) {
    state.unroutable = routed.unroutable;
    if (kind === 'transaction')
      log.warn('Transaction belongs to no ramp process', {
        transactionId: resourceId,
        reason: routed.unroutable,
      });
  }
}

/**
 * After a failed hop: records the failure and waits the backoff (a resource the operator does not know has its own,
 * and an end). False when the lane stops: it gave up on an unknown resource, or the router cut the wait short.
 */
async function waitToRetry(lane: Lane, host: LaneHost, error: unknown): Promise<boolean> {
  const { state, inbox, retry, timings } = lane;
  const { kind, resourceId } = state;
  state.lastFailure = failureNote(`re-read or forward of ${kind} ${resourceId}`, error);
  let waitMs = retry.retryDelayMs;
  let nextDelayMs = nextPollDelayMs(timings, retry.retryDelayMs);
  if (isOperatorNotFound(error)) {
    retry.firstNotFoundAtMs ??= Date.now();
    recordNotFound(state, retry.firstNotFoundAtMs);
    const verdict = unknownResourceRetry(timings, {
      firstNotFoundAtMs: retry.firstNotFoundAtMs,
      delayMs: retry.retryDelayMs,
      nowMs: Date.now(),
    });
    if (verdict.giveUp) {
      const dropped = inbox.splice(0).length;
      recordGiveUp(state, timings, dropped, new Date().toISOString());
      log.warn('Router gave up on a resource the operator does not know', {
        kind,
        resourceId,
        reads: state.unknownResource?.reads,
        eventsDropped: dropped,
      });
      return false;
    }
    ({ waitMs, nextDelayMs } = verdict);
  }
  log.warn('Router could not finish; retrying', {
    kind,
    resourceId,
    retryInMs: waitMs,
    error: state.lastFailure.message,
  });
  const interrupted = await host.waitBeforeRetry(waitMs);
  retry.retryDelayMs = nextDelayMs;
  return !interrupted;
}

/**
 * A process that had already ended is not run again (src/temporal/process-start.ts): the event is kept on this lane
 * as late, and one that gave up is raised as an incident; its outcome stays as it ended.
 */
async function rememberForward(
  lane: Lane,
  host: LaneHost,
  resourceStatus: string,
  outcome: ForwardOutcome,
): Promise<void> {
  const { kind, resourceId } = lane.state;
  const { late, raiseLateAlert } = recordForward(
    lane.state,
    outcome,
    resourceStatus,
    new Date().toISOString(),
  );
  if (!late) return;
  log.warn('Event for a process that has already ended: recorded, not applied', {
    kind,
    resourceId,
    process: outcome.workflowId,
    processStatus: late.processStatus,
    resourceStatus,
  });
  if (!raiseLateAlert) return;
  try {
    await host.raiseAlert({ ...lateEventAlert(kind, resourceId, late), workflowId: host.workflowId });
  } catch (error) {
    // Not retried through the batch: the event is recorded above, and a second forward would record it twice.
    log.error('Late-event incident could not be raised', {
      process: outcome.workflowId,
      error: failureReason(error),
    });
  }
}
