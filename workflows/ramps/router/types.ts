/**
 * routes/<task queue>/<n>: the webhook router's input, the deliveries it receives, each resource's lane and the
 * router's state.
 */
import type { WorkflowTimings } from '../../../src/domain/timings';
import type { ResourceKind } from '../../../src/domain/vocabulary';

/** What the receiver hands to Temporal: the event as delivered (a hint only). No secrets, no URL. */
export interface WebhookEventSignal {
  eventType: string;
  resourceId: string;
  newStatus?: string;
  orderReference?: string;
  receivedAt: string;
}

/** One delivery for the router: the event and which kind of resource it names. */
export interface RouterDelivery {
  kind: ResourceKind;
  event: WebhookEventSignal;
}

/**
 * The deliveries the receiver hands a router in one signal: those that arrived while its previous signal to that
 * router was still on its way (each answered 200 once this signal is in Temporal). `timings` are the receiver's
 * now: a router outlives any one configuration, so a new lane, and every lane after a hand-over, takes the latest.
 */
export interface RouterDeliveries {
  deliveries: RouterDelivery[];
  timings: WorkflowTimings;
}

/** A forward's answer: the process it reached, or how that process had already ended (it is never run again). */
export interface ForwardOutcome {
  workflowId: string;
  closed?: { executionStatus: string; status: string | null; closedAt: string | null };
}

/** An event whose process had already ended: recorded on its lane, changes nothing. */
export interface LateEvent {
  workflowId: string;
  /** The process's own final status (RampStatus), or its Temporal status when it has none. */
  processStatus: string;
  /** The resource's status re-read from the operator when the event came. */
  resourceStatus: string;
  at: string;
}

/** One resource's routing, for people looking in. */
export interface LaneState {
  /** The last operator read that failed (the lane keeps going and tries again). */
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
  /** The operator answered 404 for this resource: since when, how many reads, and when the lane gave up. */
  unknownResource?: { firstNotFoundAt: string; reads: number; gaveUpAt?: string; eventsDropped?: number };
  /** The re-read or forward kept failing for the whole process timeout (`lastFailure` says why): events dropped. */
  gaveUpAt?: string;
}

/** What a lane carries between its hops, and over the router's continue-as-new. */
export interface LaneRetry {
  /** After this a failed read or forward is no longer retried (the process timeout from the last progress). */
  giveUpAtMs: number;
  /** The wait before the next attempt after a failure. */
  retryDelayMs: number;
  /** When the operator first answered 404 for this resource (reset by a successful read). */
  firstNotFoundAtMs?: number;
}

/** A resource whose deliveries the router was still routing when it continued as new. */
export interface CarriedLane {
  state: LaneState;
  inbox: WebhookEventSignal[];
  retry: LaneRetry;
  /** A failed attempt's wait that the hand-over cut short: the next attempt waits until then. */
  resumeAtMs?: number;
}

/** What routeEvent is asked: the resource, and the status its lane last forwarded (a re-read of it is a duplicate). */
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

/** One resource's hop in a routeEvents batch: routeEvent's question without the timings. */
export type RouteHop = Omit<RouteEventInput, 'timings'>;

/**
 * What routeEvents is asked: the hops of the lanes that were ready together, routed with the router's current
 * timings (the newest the receiver sent, which a process the forward starts takes).
 */
export interface RouteEventsInput {
  timings: WorkflowTimings;
  hops: RouteHop[];
}

/** A hop's failure, as an activity of its own would have failed with it (the operator's failure type and details). */
export interface HopFailure {
  type: string;
  message: string;
  nonRetryable: boolean;
  details?: unknown[];
}

/** routeEvents' answer, one per hop in the order asked: each routed or failed on its own. */
export type HopResult = { routed: RoutedEvent } | { failed: HopFailure };

/** Counts over every run of a router (carried over continue-as-new). */
export interface RouterTotals {
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

export interface RouterInput {
  router: string;
  timings: WorkflowTimings;
  carried?: { lanes: CarriedLane[]; totals: RouterTotals };
  /** History length after which the run continues as new (tests set it low). */
  continueAsNewAfterEvents?: number;
  /** Resources held before the router says it is overloaded (MAX_ROUTER_LANES; tests set it low). */
  maxLanes?: number;
}

/** The router's query answer. */
export interface RouterState {
  router: string;
  totals: RouterTotals;
  /** Resources with deliveries being routed now, or waiting to retry. */
  active: LaneState[];
  /** The last resources this run finished routing, newest last. */
  recent: LaneState[];
}
