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
