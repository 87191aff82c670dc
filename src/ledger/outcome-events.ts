/**
 * Outcome events in the ledger: recorded when their process raises them (with the status they report), listed
 * newest first with how their delivery stands and their place in their process's queue, and marked for
 * redelivery. The delivery itself is the dispatcher's (src/outcomes/dispatcher.ts).
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Ledger } from '../database/connection';
import type { DeliveryState, LedgerSchema } from '../database/schema';
import type { RaisedEvent, WebhookEvent } from '../domain/outcome-events';
import type { EventView } from './views';

/** The channel a dispatcher listens on: a new or re-queued event wakes it at once instead of at its next poll. */
export const EVENTS_CHANNEL = 'outcome_events';

/** Records raised events as pending (an event recorded before keeps its row: a retried write records it once). */
export async function insertRaisedEvents(
  db: Kysely<LedgerSchema> | Transaction<LedgerSchema>,
  processId: string,
  events: readonly RaisedEvent[],
  retryForMs: number,
  traceParent?: string,
): Promise<void> {
  if (events.length === 0) return;
  // One statement: the rows, and the dispatcher's wake-up (sent at commit) when any row is new.
  await db
    .with('inserted', (query) =>
      query
        .insertInto('outcome_events')
        .values(
          events.map(({ webhookId, sequence, event }) => ({
            webhook_id: webhookId,
            process_id: processId,
            sequence,
            type: event.type,
            end_user_id: event.type === 'test.ping' ? null : event.data.endUserId,
            occurred_at: event.timestamp,
            body: JSON.stringify(event),
            delivery: 'pending' as const,
            next_attempt_at: sql<string>`now()`,
            retry_for_ms: retryForMs,
            trace_parent: traceParent ?? null,
          })),
        )
        .onConflict((conflict) => conflict.column('webhook_id').doNothing())
        .returning('webhook_id'),
    )
    .selectFrom('inserted')
    .select(sql`pg_notify(${EVENTS_CHANNEL}, '')`.as('notified'))
    .limit(1)
    .execute();
}

/** A filter of the events API, its values checked by the caller. */
export interface EventQuery {
  type?: string;
  delivery?: DeliveryState;
  endUserId?: string;
  /** The event happened at or after this instant. */
  since?: string;
  /** And before this one. */
  until?: string;
}

/** Where a page of events, newest first, stopped. */
export interface EventCursor {
  occurredAt: string;
  webhookId: string;
}

const EVENT_COLUMNS = [
  'e.webhook_id',
  'e.body',
  'e.delivery',
  'e.attempts',
  'e.next_attempt_at',
  'e.last_attempt_at',
  'e.delivered_at',
  'e.error',
  'e.give_up_at',
  'e.occurred_at',
] as const;

/** The earlier events of the same process still waiting to be delivered. */
const waitingFor = sql<number>`(
  select count(*)::int from outcome_events earlier
  where earlier.process_id = e.process_id and earlier.sequence < e.sequence and earlier.delivery = 'pending'
)`.as('waiting_for');

/** The events of a filter, newest first (then by webhook-id), a page at a time. */
export async function listEventViews(
  db: Ledger,
  query: EventQuery,
  limit: number,
  after?: EventCursor,
): Promise<{ data: EventView[]; next: EventCursor | null }> {
  let select = db
    .selectFrom('outcome_events as e')
    .select([...EVENT_COLUMNS, waitingFor])
    .orderBy('e.occurred_at', 'desc')
    .orderBy('e.webhook_id', 'desc')
    .limit(limit + 1);
  if (query.type !== undefined) select = select.where('e.type', '=', query.type);
  if (query.delivery !== undefined) select = select.where('e.delivery', '=', query.delivery);
  if (query.endUserId !== undefined) select = select.where('e.end_user_id', '=', query.endUserId);
  if (query.since !== undefined) select = select.where('e.occurred_at', '>=', query.since);
  if (query.until !== undefined) select = select.where('e.occurred_at', '<', query.until);
  if (after)
    select = select.where(
      sql<boolean>`(e.occurred_at, e.webhook_id) < (${after.occurredAt}::timestamptz, ${after.webhookId})`,
    );
  const rows = await select.execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(eventView),
    next: rows.length > limit && last ? { occurredAt: last.occurred_at, webhookId: last.webhook_id } : null,
  };
}

/** One event with its delivery, or undefined. */
export async function readEventView(db: Ledger, webhookId: string): Promise<EventView | undefined> {
  const row = await db
    .selectFrom('outcome_events as e')
    .select([...EVENT_COLUMNS, waitingFor])
    .where('e.webhook_id', '=', webhookId)
    .executeTakeFirst();
  return row ? eventView(row) : undefined;
}

function eventView(row: {
  webhook_id: string;
  body: unknown;
  delivery: DeliveryState;
  attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  delivered_at: string | null;
  error: string | null;
  give_up_at: string | null;
  waiting_for: number;
}): EventView {
  const pending = row.delivery === 'pending';
  const waiting = pending ? row.waiting_for : 0;
  return {
    webhookId: row.webhook_id,
    event: row.body as EventView['event'],
    delivery: row.delivery,
    attempts: row.attempts,
    waitingFor: waiting,
    // Behind earlier events of its process it has no time of its own: it goes right after them.
    nextAttemptAt: pending && waiting === 0 ? row.next_attempt_at : null,
    lastAttemptAt: row.last_attempt_at,
    deliveredAt: row.delivered_at,
    error: row.error,
    giveUpAt: pending ? row.give_up_at : null,
  };
}

// ---------------------------------------------------------------------------------------------- delivery

/** An event handed to a dispatcher for one attempt. */
export interface ClaimedEvent {
  webhookId: string;
  processId: string;
  event: WebhookEvent;
  attempt: number;
  /** When this attempt was claimed. */
  startedAt: string;
  confirmedEndpoints: string[];
  giveUpAt: string;
  /** The trace of the work that raised the event, which its delivery joins. */
  traceParent: string | null;
}

/**
 * Takes up to `limit` events whose turn it is (pending, due, and first of their process's pending events), each
 * leased for `leaseMs` (another dispatcher skips it until then, and takes it over when its dispatcher died), its
 * attempt counted and, on its first attempt, its give-up time set.
 */
export async function claimDueEvents(db: Ledger, limit: number, leaseMs: number): Promise<ClaimedEvent[]> {
  const { rows } = await sql<{
    webhook_id: string;
    process_id: string;
    body: WebhookEvent;
    attempts: number;
    last_attempt_at: string;
    confirmed_endpoints: string[];
    give_up_at: string;
    trace_parent: string | null;
  }>`
    with due as (
      select e.webhook_id from outcome_events e
      where e.delivery = 'pending' and e.next_attempt_at <= now()
        and (e.leased_until is null or e.leased_until < now())
        and not exists (
          select 1 from outcome_events earlier
          where earlier.process_id = e.process_id and earlier.sequence < e.sequence and earlier.delivery = 'pending'
        )
      order by e.next_attempt_at
      limit ${limit}
      for update skip locked
    )
    update outcome_events e set
      attempts = e.attempts + 1,
      last_attempt_at = now(),
      next_attempt_at = now() + ${leaseMs} * interval '1 millisecond',
      leased_until = now() + ${leaseMs} * interval '1 millisecond',
      give_up_at = coalesce(e.give_up_at, now() + e.retry_for_ms * interval '1 millisecond')
    from due where e.webhook_id = due.webhook_id
    returning e.webhook_id, e.process_id, e.body, e.attempts, e.last_attempt_at, e.confirmed_endpoints,
      e.give_up_at, e.trace_parent
  `.execute(db);
  return rows.map((row) => ({
    webhookId: row.webhook_id,
    processId: row.process_id,
    event: row.body,
    attempt: row.attempts,
    startedAt: row.last_attempt_at,
    confirmedEndpoints: row.confirmed_endpoints,
    giveUpAt: row.give_up_at,
    traceParent: row.trace_parent,
  }));
}

/** How one attempt ended, as the dispatcher records it. */
export type AttemptOutcome =
  | { kind: 'confirmed'; confirmed: string[] }
  | { kind: 'no-endpoint' }
  | { kind: 'refused'; confirmed: string[]; error: string; retryInMs: number }
  | { kind: 'given-up'; confirmed: string[]; error: string };

/** Records an attempt and where the event goes next; answers false when the event was not this attempt's any more. */
export async function recordAttempt(
  db: Ledger,
  claimed: ClaimedEvent,
  outcome: AttemptOutcome,
): Promise<boolean> {
  const confirmed = 'confirmed' in outcome ? outcome.confirmed : [];
  const next =
    outcome.kind === 'refused'
      ? {
          confirmed_endpoints: sql<
            string[]
          >`array(select distinct unnest(confirmed_endpoints || ${confirmed}::text[]))`,
          // Hurried while under way (its endpoint answered again, or a redelivery asked for it): at once.
          next_attempt_at: sql<string>`case when next_attempt_at <= now() then now()
            else now() + ${outcome.retryInMs} * interval '1 millisecond' end`,
          leased_until: null,
          error: outcome.error,
        }
      : {
          delivery: (outcome.kind === 'confirmed'
            ? 'delivered'
            : outcome.kind === 'no-endpoint'
              ? 'no-endpoint'
              : 'failed') as DeliveryState,
          confirmed_endpoints: sql<
            string[]
          >`array(select distinct unnest(confirmed_endpoints || ${confirmed}::text[]))`,
          next_attempt_at: null,
          leased_until: null,
          delivered_at: sql<string>`now()`,
          error: outcome.kind === 'given-up' ? outcome.error : null,
        };
  // One statement: the attempt's row and the event's next step.
  const result = await db
    .with('attempt', (query) =>
      query
        .insertInto('delivery_attempts')
        .values({
          webhook_id: claimed.webhookId,
          attempt: claimed.attempt,
          started_at: claimed.startedAt,
          ended_at: sql<string>`now()`,
          outcome: outcome.kind === 'given-up' ? 'refused' : outcome.kind,
          error: outcome.kind === 'refused' || outcome.kind === 'given-up' ? outcome.error : null,
        })
        .onConflict((conflict) => conflict.columns(['webhook_id', 'attempt']).doNothing()),
    )
    .updateTable('outcome_events')
    .set(next)
    .where('webhook_id', '=', claimed.webhookId)
    .where('attempts', '=', claimed.attempt)
    .where('delivery', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * What makes a pending event due now. Its lease, if an attempt is under way, stays: that attempt's result is
 * recorded, and a refusal is then retried at once (recordAttempt sees the hurried time).
 */
const hurried = { next_attempt_at: sql<string>`now()` };

/** An attempt cut off by its dispatcher stopping: the event is due again at once, for whichever dispatcher runs. */
export async function releaseAttempt(db: Ledger, claimed: ClaimedEvent): Promise<void> {
  await db
    .updateTable('outcome_events')
    .set({ next_attempt_at: sql<string>`now()`, leased_until: null })
    .where('webhook_id', '=', claimed.webhookId)
    .where('attempts', '=', claimed.attempt)
    .where('delivery', '=', 'pending')
    .execute();
}

/**
 * An endpoint answered again: every event waiting for a retry that it has not confirmed is due now, so what queued
 * up during an outage goes out at once (each process's order kept), not on its backoff. An attempt under way keeps
 * its lease (no other dispatcher sends the event meanwhile); refused, it is retried at once. Answers how many.
 */
export async function retryNowFor(db: Ledger, endpoint: string): Promise<number> {
  const result = await db
    .updateTable('outcome_events')
    .set(hurried)
    .where('delivery', '=', 'pending')
    .where('attempts', '>', 0)
    .where('next_attempt_at', '>', sql<string>`now()`)
    .where(sql<boolean>`not (${endpoint} = any(confirmed_endpoints))`)
    .executeTakeFirst();
  const count = Number(result.numUpdatedRows);
  if (count > 0) await sql`select pg_notify(${EVENTS_CHANNEL}, '')`.execute(db);
  return count;
}

// ---------------------------------------------------------------------------------------------- endpoints

/** Endpoints refused an attempt: each is failing from its first refusal on. */
export async function endpointsRefused(db: Ledger, labels: readonly string[]): Promise<void> {
  if (labels.length === 0) return;
  await db
    .insertInto('endpoint_health')
    .values(labels.map((label) => ({ label, failing_since: sql<string>`now()` })))
    .onConflict((conflict) =>
      conflict.column('label').doUpdateSet({
        failing_since: sql<string>`coalesce(endpoint_health.failing_since, excluded.failing_since)`,
      }),
    )
    .execute();
}

/** Endpoints missed an event for good: their incident is open until each confirms an event again. */
export async function endpointsGaveUp(db: Ledger, labels: readonly string[]): Promise<void> {
  if (labels.length === 0) return;
  await db.updateTable('endpoint_health').set({ incident_open: true }).where('label', 'in', labels).execute();
}

/**
 * An endpoint confirmed an event: when it was failing, it is healthy again and everything waiting for it is due now.
 * Answers whether it was failing, and whether its incident was open.
 */
export async function endpointConfirmed(
  db: Ledger,
  label: string,
): Promise<{ wasFailing: boolean; incidentWasOpen: boolean }> {
  const { rows } = await sql<{ was_open: boolean }>`
    with previous as (
      select label, incident_open from endpoint_health where label = ${label} and failing_since is not null for update
    )
    update endpoint_health h set failing_since = null, incident_open = false
    from previous where h.label = previous.label
    returning previous.incident_open as was_open
  `.execute(db);
  const row = rows[0];
  if (!row) return { wasFailing: false, incidentWasOpen: false };
  await retryNowFor(db, label);
  return { wasFailing: true, incidentWasOpen: row.was_open };
}

// ---------------------------------------------------------------------------------------------- redelivery

/**
 * The columns that put an event back in its process's queue, due now, with a fresh retry time. An attempt under way
 * keeps its lease: no other dispatcher sends the event meanwhile, and that attempt's result is recorded.
 */
const requeued = {
  delivery: 'pending' as const,
  next_attempt_at: sql<string>`now()`,
  leased_until: sql<string | null>`case when leased_until > now() then leased_until end`,
  give_up_at: null,
  delivered_at: null,
  confirmed_endpoints: sql<string[]>`'{}'::text[]`,
};

/**
 * Puts one event in its process's queue to be delivered (again): recorded if absent (a run from before the ledger
 * hands its events over this way), requeued if its delivery had ended, due now if it was waiting for a retry (an
 * endpoint that answers again gets it, and the queue behind it, without waiting for the backoff). Answers false
 * for an event unknown here that `insert` did not provide.
 */
export async function requeueEvent(
  db: Ledger,
  webhookId: string,
  insert?: { processId: string; sequence: number; event: WebhookEvent; retryForMs: number },
): Promise<boolean> {
  if (insert)
    await insertRaisedEvents(
      db,
      insert.processId,
      [{ webhookId, sequence: insert.sequence, event: insert.event }],
      insert.retryForMs,
    );
  const result = await db
    .updateTable('outcome_events')
    .set(requeued)
    .where('webhook_id', '=', webhookId)
    .where('delivery', '!=', 'pending')
    .executeTakeFirst();
  const hurry = await db
    .updateTable('outcome_events')
    .set(hurried)
    .where('webhook_id', '=', webhookId)
    .where('delivery', '=', 'pending')
    .where('next_attempt_at', '>', sql<string>`now()`)
    .executeTakeFirst();
  if (result.numUpdatedRows + hurry.numUpdatedRows > 0n)
    await sql`select pg_notify(${EVENTS_CHANNEL}, '')`.execute(db);
  if (insert) return true;
  const found = await db
    .selectFrom('outcome_events')
    .select('webhook_id')
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
  return found !== undefined;
}

export interface RedeliveryJob {
  jobId: string;
  filter: Record<string, string>;
  matched: number;
  startedAt: string;
}

/**
 * A bulk redelivery: every event the filter matches that is not pending goes back in its queue now; a pending one is
 * already on its way and is hurried instead (due now, keeping the endpoints that confirmed it and its give-up time);
 * all are marked with the job. Each process's queue keeps its order: an event requeued goes before the later ones.
 */
export async function startRedelivery(
  db: Ledger,
  job: { jobId: string; filter: Record<string, string>; query: EventQuery },
): Promise<RedeliveryJob> {
  return db.transaction().execute(async (trx) => {
    let update = trx
      .updateTable('outcome_events')
      .set({
        // Every right-hand side reads the row as it was: a pending event keeps its delivery so far.
        delivery: 'pending',
        next_attempt_at: sql<string>`case when delivery = 'pending' and next_attempt_at <= now()
          then next_attempt_at else now() end`,
        leased_until: requeued.leased_until,
        give_up_at: sql<string | null>`case when delivery = 'pending' then give_up_at end`,
        delivered_at: null,
        confirmed_endpoints: sql<
          string[]
        >`case when delivery = 'pending' then confirmed_endpoints else '{}'::text[] end`,
        redelivery_job: job.jobId,
      })
      .where('type', '!=', 'test.ping');
    const { query } = job;
    if (query.type !== undefined) update = update.where('type', '=', query.type);
    if (query.delivery !== undefined) update = update.where('delivery', '=', query.delivery);
    if (query.endUserId !== undefined) update = update.where('end_user_id', '=', query.endUserId);
    if (query.since !== undefined) update = update.where('occurred_at', '>=', query.since);
    if (query.until !== undefined) update = update.where('occurred_at', '<', query.until);
    const result = await update.executeTakeFirst();
    const matched = Number(result.numUpdatedRows);
    const row = await trx
      .insertInto('redelivery_jobs')
      .values({
        job_id: job.jobId,
        filter: JSON.stringify(job.filter),
        matched,
        started_at: sql<string>`now()`,
      })
      .returning('started_at')
      .executeTakeFirstOrThrow();
    await sql`select pg_notify(${EVENTS_CHANNEL}, '')`.execute(trx);
    return { jobId: job.jobId, filter: job.filter, matched, startedAt: row.started_at };
  });
}

export interface RedeliveryProgress extends RedeliveryJob {
  status: 'running' | 'completed';
  delivered: number;
  failed: number;
  noEndpoint: number;
  completedAt: string | null;
}

/** How a bulk redelivery stands, counted from its events; undefined for an unknown job. */
export async function redeliveryProgress(db: Ledger, jobId: string): Promise<RedeliveryProgress | undefined> {
  const job = await db
    .selectFrom('redelivery_jobs')
    .selectAll()
    .where('job_id', '=', jobId)
    .executeTakeFirst();
  if (!job) return undefined;
  const counts = await db
    .selectFrom('outcome_events')
    .select([
      'delivery',
      sql<number>`count(*)::int`.as('count'),
      sql<string | null>`max(delivered_at)`.as('last'),
    ])
    .where('redelivery_job', '=', jobId)
    .groupBy('delivery')
    .execute();
  const count = (state: DeliveryState) => counts.find((row) => row.delivery === state)?.count ?? 0;
  const pending = count('pending');
  const last =
    counts
      .map((row) => row.last)
      .filter((at): at is string => at !== null)
      .sort()
      .at(-1) ?? null;
  return {
    jobId: job.job_id,
    filter: job.filter as Record<string, string>,
    matched: job.matched,
    startedAt: job.started_at,
    status: pending > 0 ? 'running' : 'completed',
    delivered: count('delivered'),
    failed: count('failed'),
    noEndpoint: count('no-endpoint'),
    completedAt: pending > 0 ? null : (last ?? job.started_at),
  };
}

// ---------------------------------------------------------------------------------------------- counts

export interface OutcomeEventCounts {
  pending: number;
  failed: number;
}

/** Events waiting to be delivered and events given up (both by index: the delivered bulk is never counted). */
export async function countOutcomeEvents(db: Ledger): Promise<OutcomeEventCounts> {
  const rows = await db
    .selectFrom('outcome_events')
    .select(['delivery', sql<number>`count(*)::int`.as('count')])
    .where('delivery', 'in', ['pending', 'failed'])
    .groupBy('delivery')
    .execute();
  const of = (delivery: DeliveryState) => rows.find((row) => row.delivery === delivery)?.count ?? 0;
  return { pending: of('pending'), failed: of('failed') };
}
