/** The shapes of an outcome event's record (events/<webhook-id>): what the events API lists. Workflow-safe. */
import type { OutcomeDeliveryStatus, WebhookEvent } from '../../../src/domain/outcome-events';
import type { WorkflowTimings } from '../../../src/domain/timings';

export interface OutcomeEventRecordInput {
  webhookId: string;
  event: WebhookEvent;
  /** RampEndUserId: the end user ID, or its pseudonym with payload encryption; null when the event names none. */
  endUserSearchValue: string | null;
  /** The test event delivers itself (nobody else sends it); an outcome event is sent by its process. */
  deliverWith?: WorkflowTimings;
}

/** What a delivery tells the record: an attempt starts, an attempt was refused, or the delivery ended. */
export type DeliveryNews =
  | { kind: 'attempt'; at: string; giveUpAt: string }
  | { kind: 'refused'; at: string; error: string }
  | { kind: 'ended'; at: string; delivery: 'delivered' | 'no-endpoint' };

/** One event as the events API lists it: the body, and how its delivery stands. */
export interface EventRecord {
  webhookId: string;
  event: WebhookEvent;
  delivery: OutcomeDeliveryStatus;
  /** Attempts so far, redeliveries included. */
  attempts: number;
  lastAttemptAt?: string;
  /** When the delivery ended: confirmed, nowhere to send it, or given up. */
  deliveredAt?: string;
  /** The last refusal (never a URL or a secret); cleared once delivered. */
  error?: string;
  /** While pending: when the current delivery gives up (CLIENT_WEBHOOK_RETRY_FOR after it began). */
  giveUpAt?: string;
}
