/** webhooks/unknown-events: what is kept of a delivery of an event kind the spec does not list. */
import type { ResourceKind } from '../../../src/domain/vocabulary';

export interface UnknownEventRecord {
  eventType: string;
  resourceId: string | null;
  kindPath: ResourceKind;
  receivedAt: string;
  /** The payload's keys only: an unknown payload is not trusted into history whole. */
  payloadKeys: string[];
}
