/**
 * A process's outcome events, in the order of its transitions: numbered by the process (so each keeps one
 * `webhook-id` for good), sent one at a time (a later event waits until the earlier one is delivered or given up),
 * and listed in the process's state with how their delivery stands. Pure: the process passes `now`.
 */
import {
  outcomeWebhookId,
  type OutcomeDeliveryStatus,
  type OutcomeEventData,
  type OutcomeEventRecord,
  type OutcomeEventType,
} from '../../src/domain/outcome-events';

export interface Outbox {
  /** The number of the last event raised (carried over continue-as-new, so numbers never repeat). */
  sequence: number;
  events: OutcomeEventRecord[];
}

export const newOutbox = (carried?: Outbox): Outbox => ({
  sequence: carried?.sequence ?? 0,
  events: carried?.events.map((record) => ({ ...record })) ?? [],
});

/** Records a transition's event, to be sent after every earlier one. */
export function raiseOutcome(
  outbox: Outbox,
  workflowId: string,
  type: OutcomeEventType,
  data: OutcomeEventData,
  now: Date,
): OutcomeEventRecord {
  outbox.sequence += 1;
  const record: OutcomeEventRecord = {
    webhookId: outcomeWebhookId(workflowId, outbox.sequence),
    event: { type, timestamp: now.toISOString(), data },
    delivery: 'pending',
  };
  outbox.events.push(record);
  return record;
}

/** The event to send now: the earliest one still pending (later ones wait for it). */
export const nextToDeliver = (outbox: Outbox): OutcomeEventRecord | undefined =>
  outbox.events.find((record) => record.delivery === 'pending');

export const isDrained = (outbox: Outbox): boolean => nextToDeliver(outbox) === undefined;

export interface DeliveryResult {
  delivery: Exclude<OutcomeDeliveryStatus, 'pending'>;
  error?: string;
}

/** Closes the delivery of one pending event; a second answer for the same event changes nothing. */
export function recordDelivery(
  outbox: Outbox,
  webhookId: string,
  result: DeliveryResult,
  now: Date,
): boolean {
  const record = outbox.events.find((candidate) => candidate.webhookId === webhookId);
  if (!record || record.delivery !== 'pending') return false;
  record.delivery = result.delivery;
  record.deliveredAt = now.toISOString();
  if (result.error !== undefined) record.error = result.error;
  return true;
}

/** Whether a transition's event was already raised (a process raises each transition's event once). */
export const hasRaised = (outbox: Outbox, type: OutcomeEventType): boolean =>
  outbox.events.some((record) => record.event.type === type);
