/**
 * The events API seen from the client: outcome events listed from their records (events/<webhook-id>,
 * src/temporal/event-records.ts) newest first with their delivery, one read, a bulk redelivery as one job
 * (events/redeliveries/<job ID>), and the signed test event.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { outcomeEventWorkflowId, redeliveryJobWorkflowId, WORKFLOW_TYPES } from '../domain/ids';
import {
  OUTCOME_DELIVERY_STATUSES,
  TEST_EVENT_TYPE,
  testWebhookId,
  WEBHOOK_EVENT_TYPES,
  type TestPingEvent,
} from '../domain/outcome-events';
import { endUserSearchValues } from '../temporal/end-user-pseudonym';
import { eventRecordQuery, type EventRecordFilter, listEventRecords } from '../temporal/event-records';
import { parseEndUserId } from '../validation/identifiers';
import { eventRecordQuery as eventRecordStateQuery } from '../../workflows/outcomes/events/messages';
import type { EventRecord } from '../../workflows/outcomes/events/types';
import type { outcomeEventWorkflow } from '../../workflows/outcomes/events/workflow';
import { redeliveryJobProgressQuery } from '../../workflows/outcomes/redelivery-job/messages';
import type { RedeliveryFilter, RedeliveryJobProgress } from '../../workflows/outcomes/redelivery-job/types';
import type { outcomeRedeliveryJobWorkflow } from '../../workflows/outcomes/redelivery-job/workflow';
import type { ClientContext } from './context';
import { ConflictError, InvalidInputError, NotFoundError } from './errors';
import { openPageToken, PAGE_NOT_FOUND, PAGE_TOKEN, sealPageToken } from './page-token';

export type { EventRecord } from '../../workflows/outcomes/events/types';
export type { RedeliveryFilter, RedeliveryJobProgress } from '../../workflows/outcomes/redelivery-job/types';

export interface EventListFilter {
  type?: string;
  status?: string;
  endUserId?: string;
  /** ISO 8601: events that happened at or after this instant. */
  since?: string;
  /** ISO 8601: events that happened before this instant. */
  until?: string;
  /** Page size, 1 to 100 (default 20). */
  limit?: number;
  /** The `nextPageToken` of the previous page, with the same filter. */
  pageToken?: string;
}

export interface EventPage {
  data: EventRecord[];
  nextPageToken: string | null;
}

/** An ISO 8601 date-time as a canonical instant, or an issue. */
function instant(name: string, value: string | undefined, issues: string[]): string | undefined {
  if (value === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  if (Number.isFinite(ms)) return new Date(ms).toISOString();
  issues.push(`${name}: must be an ISO 8601 date-time such as 2026-01-01T00:00:00Z`);
  return undefined;
}

/** Every value of a filter checked, and the end user as every RampEndUserId value it may have. */
function parseFilter(
  context: ClientContext,
  filter: Omit<EventListFilter, 'limit' | 'pageToken'>,
  issues: string[],
): EventRecordFilter {
  if (filter.type !== undefined && !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(filter.type))
    issues.push(`type: must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  if (
    filter.status !== undefined &&
    !(OUTCOME_DELIVERY_STATUSES as readonly string[]).includes(filter.status)
  )
    issues.push(`status: must be one of ${OUTCOME_DELIVERY_STATUSES.join(', ')}`);
  let endUser: string[] | undefined;
  if (filter.endUserId !== undefined) {
    try {
      endUser = endUserSearchValues(parseEndUserId(filter.endUserId), context.encryption);
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      issues.push(...error.issues);
    }
  }
  const since = instant('since', filter.since, issues);
  const until = instant('until', filter.until, issues);
  return {
    ...(filter.type !== undefined ? { type: filter.type } : {}),
    ...(filter.status !== undefined ? { status: filter.status } : {}),
    ...(endUser ? { endUserSearchValues: endUser } : {}),
    ...(since ? { since } : {}),
    ...(until ? { until } : {}),
  };
}

/**
 * One page of outcome events, newest first, each with how its delivery stands; following `nextPageToken` with the
 * same filter lists each event once. Events are listed for 30 days (OUTCOME_EVENTS_LISTED_FOR_MS).
 */
export async function listEvents(context: ClientContext, filter: EventListFilter = {}): Promise<EventPage> {
  const issues: string[] = [];
  const parsed = parseFilter(context, filter, issues);
  const limit = filter.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    issues.push('limit: must be an integer from 1 to 100');
  if (filter.pageToken !== undefined && !PAGE_TOKEN.test(filter.pageToken))
    issues.push('pageToken: must be a nextPageToken this API answered');
  if (issues.length > 0) throw new InvalidInputError('Invalid event filter', issues);
  const query = eventRecordQuery(context.taskQueue, parsed);
  const token = filter.pageToken === undefined ? undefined : openPageToken(filter.pageToken, query);
  let page;
  try {
    page = await listEventRecords(context.temporal, query, limit, token);
  } catch (error) {
    // INVALID_ARGUMENT for a token of ours whose inside visibility does not take.
    if (token && (error as { code?: unknown }).code === 3) throw new NotFoundError(PAGE_NOT_FOUND);
    throw error;
  }
  return { data: page.records, nextPageToken: page.nextToken ? sealPageToken(page.nextToken, query) : null };
}

/** One event with its delivery, or NotFoundError. */
export async function getEvent(context: ClientContext, webhookId: string): Promise<EventRecord> {
  try {
    return await context.temporal.workflow
      .getHandle(outcomeEventWorkflowId(webhookId))
      .query(eventRecordStateQuery);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) throw new NotFoundError(`No outcome event ${webhookId}`);
    throw error;
  }
}

/** Sends a signed `test.ping` to every endpoint: a record that delivers itself; answers it as it starts. */
export async function sendTestEvent(context: ClientContext): Promise<EventRecord> {
  const webhookId = testWebhookId(randomUUID());
  const event: TestPingEvent = {
    type: TEST_EVENT_TYPE,
    timestamp: new Date(context.now()).toISOString(),
    data: {
      message: 'A test event from ramp-orchestrator: your endpoint receives and verifies our webhooks.',
    },
  };
  await context.temporal.workflow.start<typeof outcomeEventWorkflow>(WORKFLOW_TYPES.outcomeEvent, {
    workflowId: outcomeEventWorkflowId(webhookId),
    taskQueue: context.taskQueue,
    args: [{ webhookId, event, endUserSearchValue: null, deliverWith: context.timings }],
  });
  return { webhookId, event, delivery: 'pending', attempts: 0 };
}

/**
 * Starts the job that redelivers every event the filter matches (`since` is required) and answers its progress;
 * ConflictError while the task queue's previous job still runs.
 */
export async function startRedeliveryJob(
  context: ClientContext,
  filter: RedeliveryFilter,
): Promise<RedeliveryJobProgress> {
  const issues: string[] = [];
  if (typeof filter.since !== 'string') issues.push('since: is required');
  const parsed = parseFilter(context, filter, issues);
  if (issues.length > 0) throw new InvalidInputError('Invalid redelivery filter', issues);
  const startedAt = new Date(context.now()).toISOString();
  const jobFilter = { ...filter, since: parsed.since!, ...(parsed.until ? { until: parsed.until } : {}) };
  let handle;
  try {
    handle = await context.temporal.workflow.start<typeof outcomeRedeliveryJobWorkflow>(
      WORKFLOW_TYPES.outcomeRedeliveryJob,
      {
        workflowId: redeliveryJobWorkflowId(context.taskQueue),
        taskQueue: context.taskQueue,
        workflowIdConflictPolicy: 'FAIL',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        args: [
          {
            filter: jobFilter,
            query: eventRecordQuery(context.taskQueue, parsed),
            timings: context.timings,
            startedAt,
          },
        ],
      },
    );
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError)
      throw new ConflictError('A bulk redelivery is running; start another once it has completed');
    throw error;
  }
  return {
    jobId: handle.firstExecutionRunId,
    status: 'running',
    filter: jobFilter,
    matched: 0,
    delivered: 0,
    failed: 0,
    noEndpoint: 0,
    startedAt,
  };
}

/** A redelivery job's progress (its result once completed), or NotFoundError. */
export async function getRedeliveryJob(
  context: ClientContext,
  jobId: string,
): Promise<RedeliveryJobProgress> {
  const workflowId = redeliveryJobWorkflowId(context.taskQueue);
  try {
    const run = context.temporal.workflow.getHandle(workflowId, jobId, { followRuns: false });
    const { status } = await run.describe();
    if (status.name === 'RUNNING') return await run.query(redeliveryJobProgressQuery);
    if (status.name === 'COMPLETED') return (await run.result()) as RedeliveryJobProgress;
    if (status.name === 'CONTINUED_AS_NEW') {
      // The job goes on in a later run of the chain, which carries its job ID.
      const latest = context.temporal.workflow.getHandle(workflowId, undefined, {
        firstExecutionRunId: jobId,
      });
      return await latest.query(redeliveryJobProgressQuery);
    }
    throw new NotFoundError(`Redelivery job ${jobId} ended without completing (${status.name})`);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) throw new NotFoundError(`No redelivery job ${jobId}`);
    throw error;
  }
}
