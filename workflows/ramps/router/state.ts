/** Pure rules of the webhook router (routes/<task queue>/<n>). Workflow-safe: no I/O, no Temporal calls. */
import type { WorkflowTimings } from '../../../src/domain/timings';
import { resourceKey } from '../../../src/domain/ids';
import {
  OPERATOR_BACKOFF_COEFFICIENT,
  OPERATOR_NON_RETRYABLE_ERROR_TYPES,
} from '../../shared/activity-options';
import type { CarriedLane, HopFailure, LaneState, RouterTotals } from './types';

/**
 * Resources a router routes at once. Each holds at most one activity in flight, so this stays far below the
 * server's limit on pending activities per execution (2,000 by default); the rest wait their turn.
 */
export const MAX_ACTIVE_LANES = 200;

/**
 * History length after which a router continues as new: a hand-over waits for the hops in flight, so not too
 * often, and well under the server's suggestion and its limits on signals per run.
 */
export const ROUTER_HISTORY_EVENTS = 4_000;

/**
 * Resources a router holds before it says it is overloaded (its memo), and the receiver answers its deliveries 503
 * until it is not (the operator retries them): an operator outage keeps lanes retrying while deliveries add more,
 * and every lane is carried over continue-as-new, in an input the server caps at 2 MB.
 */
export const MAX_ROUTER_LANES = 500;

/**
 * Deliveries a carried lane keeps, of those it recorded and of those still to route: one re-read serves any number
 * of waiting deliveries, so only the duplicate count can come out lower. Its other counts stay whole. A lane so
 * carried is under 2 KB, so MAX_ROUTER_LANES of them stay far under the server's 2 MB.
 */
export const KEEP_CARRIED_EVENTS = 5;

/**
 * Hops one routeEvents activity carries at most. Its hops run side by side in one activity task, so this also bounds
 * the operator reads one task makes at once; more ready lanes go in further batches of the same workflow task.
 */
export const MAX_HOPS_PER_BATCH = 50;

/**
 * After a hop in a batch failed on its own: how long to wait before it goes in another batch, as the operator retry
 * policy (workflows/shared/activity-options.ts) would wait before retrying a routeEvent activity of its own; or
 * undefined when that policy would give up (a non-retryable failure, or no time left before schedule-to-close).
 */
export function hopRetryWaitMs(
  timings: Pick<
    WorkflowTimings,
    'activityRetryInitialMs' | 'activityRetryMaximumMs' | 'activityScheduleToCloseMs'
  >,
  failure: Pick<HopFailure, 'type' | 'nonRetryable'>,
  attempt: number,
  elapsedMs: number,
): number | undefined {
  if (failure.nonRetryable || OPERATOR_NON_RETRYABLE_ERROR_TYPES.includes(failure.type)) return undefined;
  const waitMs = Math.min(
    timings.activityRetryInitialMs * OPERATOR_BACKOFF_COEFFICIENT ** (attempt - 1),
    timings.activityRetryMaximumMs,
  );
  return elapsedMs + waitMs < timings.activityScheduleToCloseMs ? waitMs : undefined;
}

/** How many finished resources a run keeps for people looking in. */
export const KEEP_RECENT_LANES = 20;

/** A router holds one lane per resource: transaction/<id> or order/<id>. */
export const laneKey = resourceKey;

export function newRouterTotals(since: string): RouterTotals {
  return {
    since,
    runs: 1,
    eventsReceived: 0,
    resourcesRouted: 0,
    duplicates: 0,
    lateEvents: 0,
    unknownResources: 0,
    failedResources: 0,
  };
}

/** The totals a new run starts from: the carried ones, one run more. */
export function continuedTotals(carried: RouterTotals | undefined, since: string): RouterTotals {
  return carried ? { ...carried, runs: carried.runs + 1 } : newRouterTotals(since);
}

/** The lanes to start now: those with deliveries and none running, oldest first, up to the cap. */
export function lanesToStart(
  lanes: ReadonlyMap<string, Pick<CarriedLane, 'inbox'>>,
  running: ReadonlySet<string>,
  max = MAX_ACTIVE_LANES,
): string[] {
  const room = max - running.size;
  const keys: string[] = [];
  if (room <= 0) return keys;
  for (const [key, lane] of lanes) {
    if (running.has(key) || lane.inbox.length === 0) continue;
    keys.push(key);
    if (keys.length >= room) break;
  }
  return keys;
}

/** True when a lane has nothing left to do: no delivery waiting, no retry pending. */
export const laneIsDone = (lane: Pick<CarriedLane, 'inbox' | 'resumeAtMs'>): boolean =>
  lane.inbox.length === 0 && lane.resumeAtMs === undefined;

/** Counts a finished lane into the totals and keeps it among the recent ones. */
export function retireLane(
  totals: RouterTotals,
  recent: LaneState[],
  state: LaneState,
  keep = KEEP_RECENT_LANES,
): void {
  if (state.unknownResource?.gaveUpAt) totals.unknownResources += 1;
  else if (state.gaveUpAt) totals.failedResources += 1;
  else totals.resourcesRouted += 1;
  totals.duplicates += state.duplicates;
  totals.lateEvents += state.lateEvents?.length ?? 0;
  recent.push(state);
  if (recent.length > keep) recent.shift();
}

/** What a router hands to its next run: every lane with deliveries or a retry still to make. */
export function carriedLanes(lanes: Iterable<CarriedLane>): CarriedLane[] {
  return [...lanes]
    .filter((lane) => !laneIsDone(lane))
    .map(({ state, inbox, retry, resumeAtMs }) => ({
      state: { ...state, events: state.events.slice(-KEEP_CARRIED_EVENTS) },
      inbox: inbox.slice(-KEEP_CARRIED_EVENTS),
      retry,
      ...(resumeAtMs === undefined ? {} : { resumeAtMs }),
    }));
}

/** The router's current details (Web UI): its lanes now, and its totals. */
export function routerDetails(totals: RouterTotals, lanes: { active: number; retrying: number }): string {
  const trouble = [
    totals.unknownResources ? `${totals.unknownResources} unknown to the operator` : '',
    totals.failedResources ? `${totals.failedResources} given up after failures` : '',
  ].filter(Boolean);
  return (
    `Routing ${lanes.active} resource${lanes.active === 1 ? '' : 's'}` +
    `${lanes.retrying ? ` (${lanes.retrying} waiting to retry)` : ''}; ` +
    `since ${totals.since}: ${totals.eventsReceived} deliveries, ${totals.resourcesRouted} resources routed` +
    (trouble.length ? `, ${trouble.join(', ')}` : '')
  );
}

/** The memo a router keeps for readers of visibility: people looking in (unknown resources), the receiver (overloaded). */
export interface RouterMemo {
  unknownResources: number;
  overloaded: boolean;
}

export const routerMemo = (totals: RouterTotals, lanes: number, maxLanes = MAX_ROUTER_LANES): RouterMemo => ({
  unknownResources: totals.unknownResources,
  overloaded: lanes >= maxLanes,
});

/** True when a router's memo says it holds as many resources as it should. */
export const routerOverloaded = (memo: Record<string, unknown> | undefined): boolean =>
  memo?.overloaded === true;
