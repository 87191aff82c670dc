/**
 * The index of outcome events: one record workflow per event (events/<webhook-id>, workflows/outcomes/events),
 * told of each delivery by the delivery activity, listed through visibility. Shared by the activities (the delivery
 * tells, the bulk redelivery lists) and the typed client (the events API lists and reads).
 */
import type { Client } from '@temporalio/client';
import { executionInfoFromRaw } from '@temporalio/client/lib/helpers';
import type { PayloadEncryptionConfig } from '../config/encryption';
import { outcomeEventWorkflowId, WORKFLOW_TYPES } from '../domain/ids';
import { TEST_EVENT_TYPE, type WebhookEvent } from '../domain/outcome-events';
import { deliveryNewsSignal } from '../../workflows/outcomes/events/messages';
import type { DeliveryNews, EventRecord } from '../../workflows/outcomes/events/types';
import type { outcomeEventWorkflow } from '../../workflows/outcomes/events/workflow';
import { endUserSearchValue } from './end-user-pseudonym';

/** Tells an event's record how its delivery goes, starting the record at the event's first news. */
export type EventRecordSink = (
  where: { taskQueue: string; webhookId: string; event: WebhookEvent },
  news: DeliveryNews,
) => Promise<void>;

export function eventRecordSink(
  temporal: Client,
  encryption: Pick<PayloadEncryptionConfig, 'keys'> | undefined,
): EventRecordSink {
  return async ({ taskQueue, webhookId, event }, news) => {
    const endUserId = event.type === TEST_EVENT_TYPE ? null : event.data.endUserId;
    await temporal.workflow.signalWithStart<typeof outcomeEventWorkflow, [DeliveryNews]>(
      WORKFLOW_TYPES.outcomeEvent,
      {
        workflowId: outcomeEventWorkflowId(webhookId),
        taskQueue,
        args: [
          {
            webhookId,
            event,
            endUserSearchValue: endUserId === null ? null : endUserSearchValue(endUserId, encryption),
          },
        ],
        signal: deliveryNewsSignal,
        signalArgs: [news],
      },
    );
  };
}

/** A filter of the events API, its values checked; the end user as every RampEndUserId value it may have. */
export interface EventRecordFilter {
  type?: string;
  status?: string;
  endUserSearchValues?: readonly string[];
  /** ISO 8601 instants, canonical: the event happened at or after `since`, and before `until`. */
  since?: string;
  until?: string;
}

const quoted = (value: string) => `'${value}'`;

/** The visibility query of the open records of one task queue that a filter matches (values checked before). */
export function eventRecordQuery(taskQueue: string, filter: EventRecordFilter): string {
  const clauses = [
    `WorkflowType = ${quoted(WORKFLOW_TYPES.outcomeEvent)}`,
    `ExecutionStatus = 'Running'`,
    `TaskQueue = ${quoted(taskQueue)}`,
  ];
  if (filter.type !== undefined) clauses.push(`RampEventType = ${quoted(filter.type)}`);
  if (filter.status !== undefined) clauses.push(`RampEventDelivery = ${quoted(filter.status)}`);
  if (filter.endUserSearchValues !== undefined)
    clauses.push(`RampEndUserId IN (${filter.endUserSearchValues.map(quoted).join(', ')})`);
  if (filter.since !== undefined) clauses.push(`RampEventAt >= ${quoted(filter.since)}`);
  if (filter.until !== undefined) clauses.push(`RampEventAt < ${quoted(filter.until)}`);
  return clauses.join(' AND ');
}

export interface EventRecordPage {
  records: EventRecord[];
  /** Visibility's own token; null on the last page. */
  nextToken: Uint8Array | null;
}

/** One page of records, newest first (open records by when they started), each read from its memo. */
export async function listEventRecords(
  temporal: Client,
  query: string,
  pageSize: number,
  token?: Uint8Array,
): Promise<EventRecordPage> {
  const { namespace, loadedDataConverter } = temporal.options;
  const response = await temporal.workflowService.listWorkflowExecutions({
    namespace,
    query,
    pageSize,
    ...(token ? { nextPageToken: token } : {}),
  });
  const records: EventRecord[] = [];
  for (const raw of response.executions ?? []) {
    const info = await executionInfoFromRaw(raw, loadedDataConverter, raw, namespace);
    const record = info.memo?.record as EventRecord | undefined;
    // A record that has not published its memo yet (it started a moment ago) is listed on the next read.
    if (record) records.push(record);
  }
  const next = response.nextPageToken;
  return { records, nextToken: next && next.length > 0 ? next : null };
}
