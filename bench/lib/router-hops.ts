/**
 * The event-to-state leg's reading of router and off-ramp histories (bench/event-to-state.ts): which delivery each
 * router hop carried, what it forwarded, and when the owner applied it.
 */
import { tsToDate } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { offRampTransactionSignal } from '../../workflows/ramps/offramp/messages';

export type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const { EventType } = temporal.api.enums.v1;

/** The router's activity: a batch of hops, each re-reading and forwarding in one. */
const ROUTE_HOPS = 'routeEvents';

export const eventMs = (event: HistoryEvent) => (event.eventTime ? tsToDate(event.eventTime).getTime() : NaN);
const idOf = (value: unknown) => String(value);

/** One offRampTransaction signal in an off-ramp's history, and when the task that ran its handler completed. */
export interface Applied {
  signalMs: number;
  appliedMs?: number;
}

export function appliedSignals(events: HistoryEvent[]): Applied[] {
  const applied: Applied[] = [];
  events.forEach((event, index) => {
    if (event.eventType !== EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED) return;
    if (event.workflowExecutionSignaledEventAttributes?.signalName !== offRampTransactionSignal.name) return;
    const completed = events
      .slice(index + 1)
      .find((later) => later.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
    applied.push({ signalMs: eventMs(event), ...(completed ? { appliedMs: eventMs(completed) } : {}) });
  });
  return applied;
}

/**
 * One delivery as its router handled it: when its signal reached the router, and either the window of the hop that
 * carried a re-read made after it (the owner's signal falls inside), or, when the lane found the re-read status
 * already forwarded, when it decided so (nothing to forward: the owner has it).
 */
export interface Hop {
  resourceId: string;
  signalMs: number;
  /** A lane the router's previous run handed over: its deliveries' own hops are in that run, `unrouted`. */
  carried?: boolean;
  /** Scheduled in no re-read before its run's history ends: a router that continued as new handed it over. */
  unrouted?: boolean;
  forward?: { startedMs: number; completedMs: number };
  deduplicatedMs?: number;
}

/**
 * The hops of one lane of a router run, from its events (routerLanes): each delivery belongs to the first re-read
 * scheduled after it. A lane carried into the run (`carriedAtMs`, the run's start) goes with its first re-read.
 */
export function routerHops(resourceId: string, events: HistoryEvent[], carriedAtMs?: number): Hop[] {
  const hops: Hop[] = [];
  let pending: Hop[] = [];
  if (carriedAtMs !== undefined) {
    const carried: Hop = { resourceId, signalMs: carriedAtMs, carried: true };
    hops.push(carried);
    pending.push(carried);
  }
  let batch: Hop[] = [];
  const scheduled = new Map<string, { name: string; batch: Hop[] }>();
  const started = new Map<string, number>();
  let decidingAfterRead: Hop[] | undefined;
  events.forEach((event) => {
    switch (event.eventType) {
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED: {
        const hop: Hop = { resourceId, signalMs: eventMs(event) };
        hops.push(hop);
        pending.push(hop);
        break;
      }
      case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED: {
        const name = event.activityTaskScheduledEventAttributes?.activityType?.name ?? '';
        if (name === ROUTE_HOPS) {
          batch = pending;
          pending = [];
        }
        scheduled.set(idOf(event.eventId), { name, batch });
        break;
      }
      case EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
        started.set(idOf(event.activityTaskStartedEventAttributes?.scheduledEventId), eventMs(event));
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED: {
        const key = idOf(event.activityTaskCompletedEventAttributes?.scheduledEventId);
        const activity = scheduled.get(key);
        if (!activity) break;
        // routeEvents re-reads and forwards in one activity: its window holds the forward, if it made one.
        if (activity.name !== ROUTE_HOPS) break;
        decidingAfterRead = activity.batch;
        for (const hop of activity.batch)
          hop.forward = { startedMs: started.get(key) ?? eventMs(event), completedMs: eventMs(event) };
        break;
      }
      case EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED: {
        if (!decidingAfterRead) break;
        for (const hop of decidingAfterRead) hop.deduplicatedMs = eventMs(event);
        decidingAfterRead = undefined;
        break;
      }
    }
  });
  for (const hop of pending) hop.unrouted = true;
  return hops;
}

/** A payload's JSON (the bench runs without payload encryption). */
export function payloadJson(payloads: temporal.api.common.v1.IPayloads | null | undefined): unknown {
  const data = payloads?.payloads?.[0]?.data;
  return data ? JSON.parse(Buffer.from(data).toString('utf8')) : undefined;
}

/** The resources whose lanes a router's run took over from its previous run with deliveries still to route. */
export function carriedLanes(events: HistoryEvent[]): Set<string> {
  const input = payloadJson(events[0]?.workflowExecutionStartedEventAttributes?.input) as
    { carried?: { lanes?: { state: { resourceId: string }; inbox: unknown[] }[] } } | undefined;
  return new Set(
    (input?.carried?.lanes ?? [])
      .filter((lane) => lane.inbox.length > 0)
      .map((lane) => lane.state.resourceId),
  );
}

/**
 * A router's history cut into one per resource (its lane): the resource's deliveries and the routeEvents activities
 * that carry its hops, and every completed workflow task (a lane decides in the router's tasks).
 */
export function routerLanes(events: HistoryEvent[]): Map<string, HistoryEvent[]> {
  const lanes = new Map<string, HistoryEvent[]>();
  const ownersOfActivity = new Map<string, string[]>();
  const add = (resourceId: string, event: HistoryEvent) =>
    lanes.set(resourceId, [...(lanes.get(resourceId) ?? []), event]);
  const completedTasks: HistoryEvent[] = [];
  for (const event of events) {
    switch (event.eventType) {
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED: {
        // One signal carries the deliveries that waited together, each a hop here.
        const signal = payloadJson(event.workflowExecutionSignaledEventAttributes?.input) as
          { deliveries?: { event?: { resourceId?: string } }[] } | undefined;
        for (const delivery of signal?.deliveries ?? [])
          if (delivery.event?.resourceId) add(delivery.event.resourceId, event);
        break;
      }
      case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED: {
        // A routeEvents batch names each of its hops' resources.
        const input = payloadJson(event.activityTaskScheduledEventAttributes?.input) as
          { hops?: { resourceId: string }[] } | undefined;
        const owners = input?.hops?.map((hop) => hop.resourceId) ?? [];
        if (owners.length === 0) break;
        ownersOfActivity.set(idOf(event.eventId), owners);
        for (const owner of owners) add(owner, event);
        break;
      }
      case EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
      case EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED: {
        const scheduledId =
          event.activityTaskStartedEventAttributes?.scheduledEventId ??
          event.activityTaskCompletedEventAttributes?.scheduledEventId;
        for (const owner of ownersOfActivity.get(idOf(scheduledId)) ?? []) add(owner, event);
        break;
      }
      case EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
        completedTasks.push(event);
        break;
    }
  }
  // Each lane's events with the router's completed tasks among them, in history order.
  for (const [resourceId, laneEvents] of lanes)
    lanes.set(
      resourceId,
      [...laneEvents, ...completedTasks].sort((a, b) => Number(a.eventId) - Number(b.eventId)),
    );
  return lanes;
}

/** A delivery's time on the client: sent, and answered 200. */
export interface DeliveryWindow {
  sentMs: number;
  answeredMs: number;
}

/** When the owner applied a hop's forward, or when the router decided it had nothing to forward. */
function hopOutcome(hop: Hop, owner: readonly Applied[]): { doneMs?: number; deduplicated?: true } {
  if (hop.forward) {
    const { startedMs, completedMs } = hop.forward;
    const appliedMs = owner.find(
      (signal) => signal.signalMs >= startedMs - 2 && signal.signalMs <= completedMs + 2,
    )?.appliedMs;
    if (appliedMs !== undefined) return { doneMs: appliedMs };
  }
  // A hop that forwarded nothing (the status was already forwarded) decided so.
  return hop.deduplicatedMs === undefined ? {} : { doneMs: hop.deduplicatedMs, deduplicated: true };
}

/**
 * A delivery through a router: the hop whose signal arrived while it was in flight (taken, in `used`), and when it
 * was applied; undefined when no hop is its. One its run did not route before continuing as new is applied by the
 * next run's first re-read of its lane (or the run after, if that one handed the lane over again). One re-read
 * serves any number of deliveries, so a carried hop is never taken.
 */
export function routedDelivery(
  delivery: DeliveryWindow,
  lane: readonly Hop[],
  owner: readonly Applied[],
  used: Set<object>,
): { doneMs?: number; deduplicated?: true } | undefined {
  const hop = lane.find(
    (candidate) =>
      !used.has(candidate) &&
      !candidate.carried &&
      candidate.signalMs >= delivery.sentMs - 2 &&
      candidate.signalMs <= delivery.answeredMs + 2,
  );
  if (!hop) return undefined;
  used.add(hop);
  let routedBy = hop;
  while (routedBy.unrouted) {
    const after = routedBy.signalMs;
    const next = lane.find((candidate) => candidate.carried && candidate.signalMs > after);
    if (!next) break;
    routedBy = next;
  }
  return hopOutcome(routedBy, owner);
}
