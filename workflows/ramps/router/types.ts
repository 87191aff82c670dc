/** transaction/<id> and order/<id>: the webhook router's input, the events it receives and its state. */
import type { WorkflowTimings } from '../../../src/domain/timings';
import type { ResourceKind } from '../../../src/domain/vocabulary';
import type { PatchBaseline } from '../../shared/patch-baseline';

/** What the receiver hands to Temporal: the event as delivered (a hint only). No secrets, no URL. */
export interface WebhookEventSignal {
  eventType: string;
  resourceId: string;
  newStatus?: string;
  orderReference?: string;
  receivedAt: string;
}

export interface RouterInput extends PatchBaseline {
  kind: ResourceKind;
  resourceId: string;
  timings: WorkflowTimings;
}

/** A forward's answer: the process it reached, or how that process had already ended (it is never run again). */
export interface ForwardOutcome {
  workflowId: string;
  closed?: { executionStatus: string; status: string | null; closedAt: string | null };
}

/** An event whose process had already ended: recorded on the router, changes nothing. */
export interface LateEvent {
  workflowId: string;
  /** The process's own final status (RampStatus), or its Temporal status when it has none. */
  processStatus: string;
  /** The resource's status re-read from the operator when the event came. */
  resourceStatus: string;
  at: string;
}

export interface RouterState {
  /** The last operator read that failed (the process keeps going and tries again), for people looking in. */
  lastFailure?: { what: string; message: string; at: string };
  kind: ResourceKind;
  resourceId: string;
  eventsReceived: number;
  /** Deliveries that changed nothing (same status as already forwarded). */
  duplicates: number;
  lastStatus?: string;
  forwardedTo: string[];
  unroutable?: string;
  events: WebhookEventSignal[];
  /** Events for processes that had already ended (the process is not started again). */
  lateEvents?: LateEvent[];
  /** The operator answered 404 for this resource: since when, how many reads, and when the router gave up. */
  unknownResource?: { firstNotFoundAt: string; reads: number; gaveUpAt?: string; eventsDropped?: number };
  /**
   * A shard router's lane whose re-read or forward kept failing for the whole process timeout (`lastFailure` says
   * why): its events were dropped. A per-resource router fails instead.
   */
  gaveUpAt?: string;
}

/** What a lane (one resource's routing) carries between its hops, and over a shard router's continue-as-new. */
export interface LaneRetry {
  /** After this a failed read or forward is no longer retried (the process timeout from the last progress). */
  giveUpAtMs: number;
  /** The wait before the next attempt after a failure. */
  retryDelayMs: number;
  /** When the operator first answered 404 for this resource (reset by a successful read). */
  firstNotFoundAtMs?: number;
}

/** RampStatus of a router that gave up on a resource the operator does not know (counted in metrics). */
export const UNKNOWN_RESOURCE_STATUS = 'unknown-resource';

/** What routeEvent is asked: the resource, and the status this router last forwarded (a re-read of it is a duplicate). */
export interface RouteEventInput {
  kind: ResourceKind;
  resourceId: string;
  lastStatus?: string;
  timings: WorkflowTimings;
}

/** routeEvent's answer: the re-read status, and what became of it. */
export type RoutedEvent =
  | { status: string; duplicate: true }
  | { status: string; unroutable: string }
  | { status: string; outcome: ForwardOutcome };

/** One resource's hop in a shard router's routeEvents batch: routeEvent's question without the timings. */
export type RouteHop = Omit<RouteEventInput, 'timings'>;

/**
 * What routeEvents is asked: the hops of a shard router's lanes that were ready together, routed with the shard's
 * current timings (the newest the receiver sent, which a process the forward starts takes).
 */
export interface RouteEventsInput {
  timings: WorkflowTimings;
  hops: RouteHop[];
}

/** A hop's failure, as the activity would have failed with it alone (the operator's failure type and details). */
export interface HopFailure {
  type: string;
  message: string;
  nonRetryable: boolean;
  details?: unknown[];
}

/** routeEvents' answer, one per hop in the order asked: each routed or failed on its own. */
export type HopResult = { routed: RoutedEvent } | { failed: HopFailure };

// ---------------------------------------------------------------------------------------------- shard router

/** What the receiver hands a shard router (routes/<task queue>/<n>): the event and which kind of resource it names. */
export interface ShardEventSignal {
  kind: ResourceKind;
  event: WebhookEventSignal;
  /**
   * The receiver's timings now: a shard outlives any one configuration, so a new lane, and every lane after a
   * hand-over, takes the latest, as a new per-resource router would. Signals recorded before carry none.
   */
  timings?: WorkflowTimings;
}

/**
 * Deliveries the receiver hands a shard router together: those that arrived while its previous signal to that shard
 * was still on its way (each answered 200 once this signal is in Temporal). Each is handled as a ShardEventSignal.
 */
export interface ShardEventsSignal {
  deliveries: Array<Pick<ShardEventSignal, 'kind' | 'event'>>;
  timings?: WorkflowTimings;
}

/** A resource whose deliveries a shard router was still routing when it continued as new. */
export interface CarriedLane {
  state: RouterState;
  inbox: WebhookEventSignal[];
  retry: LaneRetry;
  /** A failed attempt's wait that the hand-over cut short: the next attempt waits until then. */
  resumeAtMs?: number;
}

/** Counts over every run of a shard router (carried over continue-as-new). */
export interface ShardTotals {
  since: string;
  runs: number;
  eventsReceived: number;
  /** Resources whose deliveries were all routed (a resource that gets deliveries again later counts again). */
  resourcesRouted: number;
  duplicates: number;
  lateEvents: number;
  /** Resources the operator answered 404 for until the unknown-resource timeout: their events were dropped. */
  unknownResources: number;
  /** Resources whose re-read or forward kept failing for the whole process timeout: their events were dropped. */
  failedResources: number;
}

export interface ShardRouterInput extends PatchBaseline {
  shard: string;
  timings: WorkflowTimings;
  carried?: { lanes: CarriedLane[]; totals: ShardTotals };
  /** History length after which the run continues as new (tests set it low). */
  continueAsNewAfterEvents?: number;
  /** Resources held before the shard says it is overloaded (MAX_SHARD_LANES; tests set it low). */
  maxLanes?: number;
}

export interface ShardRouterState {
  shard: string;
  totals: ShardTotals;
  /** Resources with deliveries being routed now, or waiting to retry. */
  active: RouterState[];
  /** The last resources this run finished routing, newest last. */
  recent: RouterState[];
}
