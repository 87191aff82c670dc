/** Pure rules of one resource's lane in the webhook router. Workflow-safe: no I/O, no Temporal calls. */
import type { AlertInput } from '../../operations/alerts/types';
import type { ForwardOutcome, LateEvent, LaneState, WebhookEventSignal } from './types';

/** How many events (and late events) a lane keeps for people looking in. */
export const KEEP_EVENTS = 20;

/** Counts a delivery and keeps the last `keep` of them. */
export function recordEvent(state: LaneState, event: WebhookEventSignal, keep = KEEP_EVENTS): void {
  state.eventsReceived += 1;
  state.events.push(event);
  if (state.events.length > keep) state.events.shift();
}

/**
 * A re-read status already forwarded changes nothing: the batch counts as duplicates. Otherwise the status is
 * remembered as the last one forwarded.
 */
export function isDuplicate(state: LaneState, status: string, batchSize: number): boolean {
  if (status === state.lastStatus) {
    state.duplicates += batchSize;
    return true;
  }
  state.lastStatus = status;
  return false;
}

/**
 * Records where an event went. A process that had already ended is not run again: the event is kept as late.
 * Only a process that gave up (`timed-out`) may have missed money that moved since, so only then is an alert due.
 */
export function recordForward(
  state: LaneState,
  outcome: ForwardOutcome,
  resourceStatus: string,
  at: string,
  keep = KEEP_EVENTS,
): { late?: LateEvent; raiseLateAlert: boolean } {
  if (!state.forwardedTo.includes(outcome.workflowId)) state.forwardedTo.push(outcome.workflowId);
  if (!outcome.closed) return { raiseLateAlert: false };
  const processStatus = outcome.closed.status ?? outcome.closed.executionStatus;
  const late: LateEvent = { workflowId: outcome.workflowId, processStatus, resourceStatus, at };
  const kept = (state.lateEvents ??= []);
  kept.push(late);
  if (kept.length > keep) kept.shift();
  return { late, raiseLateAlert: processStatus === 'timed-out' };
}

/** The incident for an event that came after its process gave up. */
export function lateEventAlert(
  kind: LaneState['kind'],
  resourceId: string,
  late: LateEvent,
): Omit<AlertInput, 'workflowId'> {
  return {
    kind: 'late-event-after-timeout',
    message: `${kind} ${resourceId} is now ${late.resourceStatus}, after ${late.workflowId} gave up (timed-out): settle it by hand with the operator's records`,
    details: {
      process: late.workflowId,
      resource: `${kind}/${resourceId}`,
      resourceStatus: late.resourceStatus,
    },
  };
}
