/**
 * The events API seen from the client: outcome events listed from the ledger newest first with their delivery and
 * their place in their process's queue, one read, a bulk redelivery, and the signed test event.
 */
import { randomUUID } from 'node:crypto';
import type { DeliveryState } from '../database/schema';
import { TEST_EVENT_RETRY_FOR_MS } from '../domain/timings';
import {
  OUTCOME_DELIVERY_STATUSES,
  TEST_EVENT_TYPE,
  testWebhookId,
  WEBHOOK_EVENT_TYPES,
  type TestPingEvent,
} from '../domain/outcome-events';
import {
  type EventQuery,
  insertRaisedEvents,
  listEventViews,
  readEventView,
  redeliveryProgress,
  type RedeliveryProgress,
  startRedelivery,
} from '../ledger/outcome-events';
import type { EventView } from '../ledger/views';
import type { ClientContext } from './context';
import { InvalidInputError, NotFoundError } from './errors';
import { parseWebhookId } from './outcomes';
import { openPageToken, PAGE_TOKEN, sealPageToken } from './page-token';
import { parseFilterEndUserId, parseInstant } from './ramp-list';

export type { EventView } from '../ledger/views';
export type { RedeliveryProgress } from '../ledger/outcome-events';

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

/** What a bulk redelivery matches; `since` is required: a redelivery is always bounded. */
export interface RedeliveryFilter {
  type?: string;
  status?: string;
  endUserId?: string;
  since: string;
  until?: string;
}

export interface EventPage {
  data: EventView[];
  nextPageToken: string | null;
}

const CURSOR_KEYS = ['occurredAt', 'webhookId'] as const;

/** Every value of a filter checked (canonical instants), as a ledger query. */
function parseFilter(filter: Omit<EventListFilter, 'limit' | 'pageToken'>, issues: string[]): EventQuery {
  if (filter.type !== undefined && !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(filter.type))
    issues.push(`type: must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  if (
    filter.status !== undefined &&
    !(OUTCOME_DELIVERY_STATUSES as readonly string[]).includes(filter.status)
  )
    issues.push(`status: must be one of ${OUTCOME_DELIVERY_STATUSES.join(', ')}`);
  const endUserId = parseFilterEndUserId(filter.endUserId, issues);
  const since = parseInstant('since', filter.since, issues);
  const until = parseInstant('until', filter.until, issues);
  return {
    ...(filter.type !== undefined ? { type: filter.type } : {}),
    ...(filter.status !== undefined ? { delivery: filter.status as DeliveryState } : {}),
    ...(endUserId !== undefined ? { endUserId } : {}),
    ...(since ? { since } : {}),
    ...(until ? { until } : {}),
  };
}

/**
 * One page of outcome events, newest first (then by webhook-id), each with how its delivery stands, from the moment
 * its process raised it; following `nextPageToken` with the same filter lists each event once.
 */
export async function listEvents(context: ClientContext, filter: EventListFilter = {}): Promise<EventPage> {
  const issues: string[] = [];
  const query = parseFilter(filter, issues);
  const limit = filter.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    issues.push('limit: must be an integer from 1 to 100');
  if (filter.pageToken !== undefined && !PAGE_TOKEN.test(filter.pageToken))
    issues.push('pageToken: must be a nextPageToken this API answered');
  if (issues.length > 0) throw new InvalidInputError('Invalid event filter', issues);
  const after =
    filter.pageToken === undefined ? undefined : openPageToken(filter.pageToken, query, CURSOR_KEYS);
  const page = await listEventViews(context.ledger, query, limit, after);
  return { data: page.data, nextPageToken: page.next ? sealPageToken({ ...page.next }, query) : null };
}

/** One event with its delivery, or NotFoundError. */
export async function getEvent(context: ClientContext, webhookId: string): Promise<EventView> {
  const id = parseWebhookId(webhookId);
  const view = await readEventView(context.ledger, id);
  if (!view) throw new NotFoundError(`No outcome event ${id}`);
  return view;
}

/** Queues a signed `test.ping` to every endpoint and answers it as recorded (pending, due now). */
export async function sendTestEvent(context: ClientContext): Promise<EventView> {
  const uuid = randomUUID();
  const webhookId = testWebhookId(uuid);
  const event: TestPingEvent = {
    type: TEST_EVENT_TYPE,
    timestamp: new Date(context.now()).toISOString(),
    data: {
      message: 'A test event from ramp-orchestrator: your endpoint receives and verifies our webhooks.',
    },
  };
  await insertRaisedEvents(
    context.ledger,
    `test/${uuid}`,
    [{ webhookId, sequence: 1, event }],
    TEST_EVENT_RETRY_FOR_MS,
  );
  return (await readEventView(context.ledger, webhookId))!;
}

/**
 * Puts every event the filter matches (`since` is required) back in its process's queue, due now, as one job whose
 * progress can be read; the events keep their webhook-ids and bodies.
 */
export async function startRedeliveryJob(
  context: ClientContext,
  filter: RedeliveryFilter,
): Promise<RedeliveryProgress> {
  const issues: string[] = [];
  if (typeof filter.since !== 'string') issues.push('since: is required');
  const query = parseFilter(filter, issues);
  if (issues.length > 0) throw new InvalidInputError('Invalid redelivery filter', issues);
  const jobFilter = Object.fromEntries(
    Object.entries({ ...filter, since: query.since, until: query.until }).filter(
      ([, value]) => value !== undefined,
    ),
  ) as Record<string, string>;
  const job = await startRedelivery(context.ledger, { jobId: randomUUID(), filter: jobFilter, query });
  return getRedeliveryJob(context, job.jobId);
}

/** A redelivery job's progress, or NotFoundError. */
export async function getRedeliveryJob(context: ClientContext, jobId: string): Promise<RedeliveryProgress> {
  const progress = await redeliveryProgress(context.ledger, jobId);
  if (!progress) throw new NotFoundError(`No redelivery job ${jobId}`);
  return progress;
}
