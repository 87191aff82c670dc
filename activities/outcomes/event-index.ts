/**
 * The index of outcome events, read from a workflow: a bulk redelivery pages through the records its filter
 * matches (src/temporal/event-records.ts), each with the event's body as it was sent.
 */
import type { Client } from '@temporalio/client';
import type { WebhookEvent } from '../../src/domain/outcome-events';
import { listEventRecords } from '../../src/temporal/event-records';

export interface FindOutcomeEventsRequest {
  query: string;
  pageSize: number;
  /** The previous page's token (base64url), absent for the first. */
  pageToken?: string | undefined;
}

export interface FoundOutcomeEvents {
  events: Array<{ webhookId: string; event: WebhookEvent }>;
  nextPageToken: string | null;
}

export function createEventIndexActivities(temporal: Client) {
  return {
    async findOutcomeEvents(request: FindOutcomeEventsRequest): Promise<FoundOutcomeEvents> {
      const page = await listEventRecords(
        temporal,
        request.query,
        request.pageSize,
        request.pageToken === undefined ? undefined : Buffer.from(request.pageToken, 'base64url'),
      );
      return {
        events: page.records.map(({ webhookId, event }) => ({ webhookId, event })),
        nextPageToken: page.nextToken ? Buffer.from(page.nextToken).toString('base64url') : null,
      };
    },
  };
}
