/**
 * Temporal Cloud's billable actions, counted by its published rules ("Temporal Cloud Actions" in Temporal's
 * documentation), from workflow histories as the client fetches them, and from the frontend's own request counts for
 * what no history records. Pure: rules and arithmetic.
 *
 * From a history:
 * - a workflow started: a client's start, a continue-as-new's new run (counted on the new run, never also on the
 *   old run's continued-as-new event), 3 for a run a schedule started (2 for the schedule, 1 for the start); the
 *   signal of a signal-with-start that started the run counts nothing more (one action in total);
 * - a child workflow: 2 on the parent's initiation (the start and the execution), nothing on the child's start;
 * - a timer started (a `condition` with a timeout starts one too);
 * - an UpsertWorkflowSearchAttributes command, one however many attributes, none when it only sets the versioning
 *   attribute TemporalChangeVersion;
 * - a signal received, or sent to another workflow (counted on the sender's initiation, not again on the receiver);
 * - an update accepted or rejected in history (an update-with-start: the update beside the start);
 * - an activity scheduled, and each retry: the started event records the last attempt's number;
 * - local activities: one per workflow task that recorded any marker other than a patch marker, plus the later
 *   attempts the task's metering reports (at most 100);
 * - the workflow execution options updated.
 * Outside histories: queries a worker received (the frontend's QueryWorkflow requests less those it refused itself,
 * such as a workflow not found; a query the worker failed was received) and activity heartbeats that reached the
 * server. Visibility calls (list, count, scan)
 * are not billable but are rate-limited per namespace; they are counted beside.
 */
import type { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

export const ACTION_KINDS = [
  'workflow start',
  'child workflow',
  'timer',
  'search attribute upsert',
  'signal',
  'update',
  'activity',
  'activity retry',
  'local activities',
  'options update',
  'query',
  'activity heartbeat',
] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

export type ActionCounts = Partial<Record<ActionKind, number>>;

/** Markers that record a version decision, not a local activity. */
const VERSION_MARKERS = new Set(['core_patch', 'Version']);
const VERSION_ATTRIBUTE = 'TemporalChangeVersion';
const SCHEDULE_ATTRIBUTE = 'TemporalScheduledById';
/** Later local activity attempts bill at most this many actions per workflow task. */
const LOCAL_ACTIVITY_ATTEMPTS_CAP = 100;

export interface BilledEvent {
  /** When the server wrote it, ms since the epoch. */
  timeMs: number;
  kind: ActionKind;
  actions: number;
}

/** A fetched history's seconds are a Long, a converted JSON history's a number: their decimal text reads both. */
const eventTimeMs = (event: HistoryEvent): number =>
  Number(String(event.eventTime?.seconds ?? 0)) * 1000 + Math.floor((event.eventTime?.nanos ?? 0) / 1e6);

/** The search attribute names a payload map sets. */
const attributeNames = (fields: Record<string, unknown> | null | undefined): string[] =>
  Object.keys(fields ?? {});

/** Every billable action one run's history records, with the event's time, in history order. */
export function billedEvents(events: readonly HistoryEvent[]): BilledEvent[] {
  const billed: BilledEvent[] = [];
  const tasksWithLocalActivities = new Set<string>();
  const bill = (event: HistoryEvent, kind: ActionKind, actions: number) => {
    if (actions > 0) billed.push({ timeMs: eventTimeMs(event), kind, actions });
  };
  events.forEach((event, index) => {
    const started = event.workflowExecutionStartedEventAttributes;
    if (started) {
      if (started.parentWorkflowExecution) return;
      const scheduled = attributeNames(started.searchAttributes?.indexedFields).includes(SCHEDULE_ATTRIBUTE);
      bill(event, 'workflow start', scheduled ? 3 : 1);
      return;
    }
    if (event.workflowExecutionSignaledEventAttributes) {
      const fromWorkflow = !!event.workflowExecutionSignaledEventAttributes.externalWorkflowExecution;
      const withStart = index === 1 && !!events[0]?.workflowExecutionStartedEventAttributes;
      if (!fromWorkflow && !withStart) bill(event, 'signal', 1);
      return;
    }
    if (event.signalExternalWorkflowExecutionInitiatedEventAttributes) return bill(event, 'signal', 1);
    if (event.startChildWorkflowExecutionInitiatedEventAttributes) return bill(event, 'child workflow', 2);
    if (event.timerStartedEventAttributes) return bill(event, 'timer', 1);
    const upsert = event.upsertWorkflowSearchAttributesEventAttributes;
    if (upsert) {
      const names = attributeNames(upsert.searchAttributes?.indexedFields);
      if (!(names.length === 1 && names[0] === VERSION_ATTRIBUTE)) bill(event, 'search attribute upsert', 1);
      return;
    }
    if (
      event.workflowExecutionUpdateAcceptedEventAttributes ||
      event.workflowExecutionUpdateRejectedEventAttributes
    )
      return bill(event, 'update', 1);
    if (event.activityTaskScheduledEventAttributes) return bill(event, 'activity', 1);
    if (event.activityTaskStartedEventAttributes)
      return bill(event, 'activity retry', (event.activityTaskStartedEventAttributes.attempt ?? 1) - 1);
    const marker = event.markerRecordedEventAttributes;
    if (marker) {
      if (VERSION_MARKERS.has(marker.markerName ?? '')) return;
      const task = String(marker.workflowTaskCompletedEventId ?? '');
      if (tasksWithLocalActivities.has(task)) return;
      tasksWithLocalActivities.add(task);
      return bill(event, 'local activities', 1);
    }
    const completed = event.workflowTaskCompletedEventAttributes;
    if (completed) {
      const later = completed.meteringMetadata?.nonfirstLocalActivityExecutionAttempts ?? 0;
      return bill(event, 'local activities', Math.min(later, LOCAL_ACTIVITY_ATTEMPTS_CAP));
    }
    if (event.workflowExecutionOptionsUpdatedEventAttributes) return bill(event, 'options update', 1);
  });
  return billed;
}

/** A half-open span of time, ms since the epoch: [fromMs, toMs). */
export interface TimeWindow {
  fromMs: number;
  toMs: number;
}

const within = (timeMs: number, window: TimeWindow | undefined) =>
  !window || (timeMs >= window.fromMs && timeMs < window.toMs);

export interface RunCount {
  /** Billable actions by kind. */
  actions: ActionCounts;
  /** History events written (every event, billable or not). */
  events: number;
}

/** One run's billable actions by kind and its history events, only those written within `window` when given. */
export function countRun(events: readonly HistoryEvent[], window?: TimeWindow): RunCount {
  const actions: ActionCounts = {};
  for (const billed of billedEvents(events))
    if (within(billed.timeMs, window)) actions[billed.kind] = (actions[billed.kind] ?? 0) + billed.actions;
  return { actions, events: events.filter((event) => within(eventTimeMs(event), window)).length };
}

export const totalActions = (counts: ActionCounts): number =>
  Object.values(counts).reduce((sum, value) => sum + value, 0);

/** The sum of several counts, kind by kind. */
export function addCounts(...all: ActionCounts[]): ActionCounts {
  const sum: ActionCounts = {};
  for (const counts of all)
    for (const [kind, value] of Object.entries(counts) as [ActionKind, number][])
      sum[kind] = (sum[kind] ?? 0) + value;
  return sum;
}

/** What the frontend counted for one operation between two scrapes of a namespace's metrics. */
export interface FrontendOperation {
  requests: number;
  /** The requests it answered with an error, by the error's type (serviceerror_NotFound, ...). */
  errors: Record<string, number>;
}

export type FrontendRequests = Record<string, FrontendOperation>;

/** The visibility API's calls, rate-limited per namespace on Temporal Cloud. */
export const VISIBILITY_OPERATIONS = [
  'ListWorkflowExecutions',
  'ListOpenWorkflowExecutions',
  'ListClosedWorkflowExecutions',
  'CountWorkflowExecutions',
  'ScanWorkflowExecutions',
] as const;
const HEARTBEAT_OPERATIONS = ['RecordActivityTaskHeartbeat', 'RecordActivityTaskHeartbeatById'];

export interface OutsideHistories {
  /** Billable actions no history records: queries a worker received and heartbeats that reached the server. */
  actions: ActionCounts;
  /** List, count and scan calls to visibility. */
  visibilityCalls: number;
}

/** A query failed by the worker's own answer: it was received, so it bills. */
const QUERY_FAILED_BY_WORKER = 'serviceerror_QueryFailed';

/** The billable work and visibility calls the frontend counted, which no history shows. */
export function outsideHistories(requests: FrontendRequests): OutsideHistories {
  const of = (operation: string) => requests[operation] ?? { requests: 0, errors: {} };
  const query = of('QueryWorkflow');
  const refused = Object.entries(query.errors)
    .filter(([type]) => type !== QUERY_FAILED_BY_WORKER)
    .reduce((sum, [, count]) => sum + count, 0);
  const queries = query.requests - refused;
  const heartbeats = HEARTBEAT_OPERATIONS.reduce((sum, operation) => sum + of(operation).requests, 0);
  const actions: ActionCounts = {};
  if (queries > 0) actions.query = queries;
  if (heartbeats > 0) actions['activity heartbeat'] = heartbeats;
  return {
    actions,
    visibilityCalls: VISIBILITY_OPERATIONS.reduce((sum, operation) => sum + of(operation).requests, 0),
  };
}
