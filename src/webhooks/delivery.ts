/**
 * The receiver's first step: what a delivery's body says, or why it cannot be used (a 400). Pure: the payload's
 * status is never acted on (the resource is re-read by ID), and what is kept of it is bounded and safe in history
 * and logs (identifiers pass src/validation/identifiers.ts; free text is cut and has no lone surrogate).
 */
import { formatIssues } from '../domain/errors';
import { KNOWN_EVENT_TYPES, type ResourceKind, TRANSACTION_EVENT_TYPES } from '../domain/vocabulary';
import { knownEvent, webhookDelivery } from '../operator/schemas';
import { identifierIssue } from '../validation/identifiers';
import type { WebhookEventSignal } from '../../workflows/ramps/router/types';
import type { UnknownEventRecord } from '../../workflows/ramps/unknown-events/types';

export type ParsedDelivery =
  /** One of the spec's events: its resource, and the event as the router keeps it. */
  | { known: { kind: ResourceKind; resourceId: string; signal: WebhookEventSignal } }
  /** An event kind the spec does not list: kept as a record only. */
  | { unknown: UnknownEventRecord }
  | { invalid: { message: string; issues: string[] } };

/** At most `max` UTF-16 units of `text`, a lone surrogate (or one the cut split) replaced: safe in history and logs. */
const wellFormedPrefix = (text: string, max: number) => text.slice(0, max).replace(/\p{Cs}/gu, '\uFFFD');

/** Why the payload's IDs cannot be used (issues name the field and the rule, never the value), or []. */
function payloadIdIssues(payload: Record<string, unknown>, required: boolean): string[] {
  const issues: string[] = [];
  if (required || payload.id !== undefined) {
    const issue = identifierIssue(payload.id, 'resource ID');
    if (issue) issues.push(`data.payload.id: ${issue}`);
  }
  if (payload.orderReference !== undefined) {
    const issue = identifierIssue(payload.orderReference, 'order reference');
    if (issue) issues.push(`data.payload.orderReference: ${issue}`);
  }
  return issues;
}

const invalidIds = (issues: string[]): ParsedDelivery => ({
  invalid: { message: 'The payload holds an invalid identifier', issues },
});

/** `pathKind`: the recipient path the delivery came to (transactions or orders). */
export function parseDelivery(body: unknown, pathKind: ResourceKind, receivedAt: string): ParsedDelivery {
  const parsed = webhookDelivery.safeParse(body);
  if (!parsed.success)
    return {
      invalid: {
        message: 'The body is not { data: { eventType, payload } }',
        issues: formatIssues(parsed.error.issues),
      },
    };
  const { eventType, payload } = parsed.data.data;
  const known = knownEvent.safeParse(parsed.data.data);
  if (!known.success) {
    if ((KNOWN_EVENT_TYPES as readonly string[]).includes(eventType))
      return {
        invalid: {
          message: `The payload of ${eventType} is incomplete`,
          issues: formatIssues(known.error.issues),
        },
      };
    // Kept as a record only, but an ID we could not use for anything else is not kept either.
    const issues = payloadIdIssues(payload, false);
    if (issues.length > 0) return invalidIds(issues);
    return {
      unknown: {
        eventType: wellFormedPrefix(eventType, 100),
        resourceId: typeof payload.id === 'string' ? payload.id : null,
        kindPath: pathKind,
        receivedAt,
        payloadKeys: Object.keys(payload)
          .slice(0, 20)
          .map((key) => wellFormedPrefix(key, 50)),
      },
    };
  }
  const event = known.data;
  const issues = payloadIdIssues(event.payload, true);
  if (issues.length > 0) return invalidIds(issues);
  const kind: ResourceKind = TRANSACTION_EVENT_TYPES.includes(event.eventType) ? 'transaction' : 'order';
  const signal: WebhookEventSignal = {
    eventType: event.eventType,
    resourceId: event.payload.id,
    receivedAt,
    ...('newStatus' in event.payload
      ? { newStatus: wellFormedPrefix(String(event.payload.newStatus), 50) }
      : {}),
    ...('orderReference' in event.payload ? { orderReference: String(event.payload.orderReference) } : {}),
  };
  return { known: { kind, resourceId: event.payload.id, signal } };
}
