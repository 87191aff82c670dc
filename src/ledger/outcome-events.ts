/**
 * Outcome events in the ledger: recorded when their process raises them (with the status they report), listed
 * newest first with how their delivery stands and their place in their process's queue, and marked for
 * redelivery. The delivery itself is the dispatcher's (src/outcomes/dispatcher.ts).
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import { preparedStatement, runPrepared } from '../database/prepared';
import type { Ledger } from '../database/connection';
import type { DeliveryState, LedgerSchema } from '../database/schema';
import type { RaisedEvent, WebhookEvent } from '../domain/outcome-events';
import type { EventView } from './views';

/** The channel a dispatcher listens on: a new or re-queued event wakes it at once instead of at its next poll. */
export const EVENTS_CHANNEL = 'outcome_events';

/**
 * The end of a statement that records raised events as pending (an event recorded before keeps its row: a retried
 * write records it once) and wakes the dispatchers (at commit) when any is new: the parameter numbered `process` is
 * the process, `values` and the two after it are raisedEventsValues'. The statement's other parts come before it,
 * each a `name as (...)` of its WITH.
 */
export const raisedEventsInsert = (at: { process: number; values: number }) => `inserted as (
    insert into outcome_events (webhook_id, process_id, sequence, type, end_user_id, occurred_at, body, delivery,
      next_attempt_at, retry_for_ms, trace_parent)
    select e.webhook_id, $${at.process}::text, e.sequence, e.type, e.end_user_id, e.occurred_at, e.body, 'pending',
      now(), $${at.values}::bigint, $${at.values + 1}::text
    from json_to_recordset($${at.values + 2}::json) as e(webhook_id text, sequence integer, type text,
      end_user_id text, occurred_at timestamptz, body json)
    on conflict (webhook_id) do nothing
    returning webhook_id
  )
  select pg_notify('${EVENTS_CHANNEL}', '') from inserted limit 1`;

/** raisedEventsInsert's parameters from `values` on: the retry time, the trace and the events. */
export function raisedEventsValues(
  events: readonly RaisedEvent[],
  retryForMs: number,
  traceParent: string | undefined,
): unknown[] {
  const rows = events.map(({ webhookId, sequence, event }) => ({
    webhook_id: webhookId,
    sequence,
    type: event.type,
    end_user_id: event.type === 'test.ping' ? null : event.data.endUserId,
    occurred_at: event.timestamp,
    body: event,
  }));
  return [retryForMs, traceParent ?? null, JSON.stringify(rows)];
}

const INSERT_RAISED_EVENTS = preparedStatement(
  'insert_raised_events',
  `with ${raisedEventsInsert({ process: 1, values: 2 })}`,
);

/** Records raised events as pending, in one statement with the dispatchers' wake-up. */
export async function insertRaisedEvents(
  db: Kysely<LedgerSchema> | Transaction<LedgerSchema>,
  processId: string,
  events: readonly RaisedEvent[],
  retryForMs: number,
  traceParent?: string,
): Promise<void> {
  if (events.length === 0) return;
  await runPrepared(db, INSERT_RAISED_EVENTS, [
    processId,
    ...raisedEventsValues(events, retryForMs, traceParent),
  ]);
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
const CLAIM_DUE_EVENTS = preparedStatement<{
  webhook_id: string;
  process_id: string;
  body: WebhookEvent;
  attempts: number;
  last_attempt_at: string;
  confirmed_endpoints: string[];
  give_up_at: string;
  trace_parent: string | null;
}>(
  'claim_due_events',
  `with due as (
    select e.webhook_id from outcome_events e
    where e.delivery = 'pending' and e.next_attempt_at <= now()
      and (e.leased_until is null or e.leased_until < now())
      and not exists (
        select 1 from outcome_events earlier
        where earlier.process_id = e.process_id and earlier.sequence < e.sequence and earlier.delivery = 'pending'
      )
    order by e.next_attempt_at
    limit $1
    for update skip locked
  )
  update outcome_events e set
    attempts = e.attempts + 1,
    last_attempt_at = now(),
    next_attempt_at = now() + $2 * interval '1 millisecond',
    leased_until = now() + $2 * interval '1 millisecond',
    give_up_at = coalesce(e.give_up_at, now() + e.retry_for_ms * interval '1 millisecond')
  from due where e.webhook_id = due.webhook_id
  returning e.webhook_id, e.process_id, e.body, e.attempts, e.last_attempt_at, e.confirmed_endpoints,
    e.give_up_at, e.trace_parent`,
);

export async function claimDueEvents(db: Ledger, limit: number, leaseMs: number): Promise<ClaimedEvent[]> {
  const { rows } = await runPrepared(db, CLAIM_DUE_EVENTS, [limit, leaseMs]);
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

/** What recording an attempt found. */
export interface RecordedAttempt {
  /** False when the event was not this attempt's any more (taken over, or redelivered and delivered). */
  current: boolean;
  /** A later event of the same process waits: its turn has come. */
  laterPending: boolean;
  /** The endpoints this attempt reached that were failing until now, and whether their incident was open. */
  recovered: { label: string; incidentWasOpen: boolean }[];
}

/**
 * An attempt's row, the event's next step and what the attempt says of the endpoints that confirmed it (a failing one
 * is healthy again), one statement. `$4` is the attempt's outcome: refused leaves the event pending for its retry in
 * `$7` ms (at once when it was hurried while under way: its endpoint answered again, or a redelivery asked for it);
 * any other ends its delivery.
 */
const RECORD_ATTEMPT = preparedStatement<{
  current: boolean;
  later_pending: boolean;
  recovered: { label: string; incident_open: boolean }[];
}>(
  'record_attempt',
  `with attempt as (
    insert into delivery_attempts (webhook_id, attempt, started_at, ended_at, outcome, error)
    values ($1, $2, $3, now(), case when $4::text = 'given-up' then 'refused' else $4::text end, $5::text)
    on conflict (webhook_id, attempt) do nothing
  ), recorded as (
    update outcome_events set
      delivery = case $4::text when 'confirmed' then 'delivered' when 'no-endpoint' then 'no-endpoint'
        when 'given-up' then 'failed' else delivery end,
      confirmed_endpoints = array(select distinct unnest(confirmed_endpoints || $6::text[])),
      next_attempt_at = case when $4::text <> 'refused' then null when next_attempt_at <= now() then now()
        else now() + $7 * interval '1 millisecond' end,
      leased_until = null,
      delivered_at = case when $4::text = 'refused' then delivered_at else now() end,
      error = $5::text
    where webhook_id = $1 and attempts = $2 and delivery = 'pending'
    returning process_id, sequence
  ), previous as (
    -- Read before it changes, locked: two attempts that recover one endpoint report it once.
    select label, incident_open from endpoint_health
    where label = any($8::text[]) and failing_since is not null
    for update
  ), recovered as (
    update endpoint_health h set failing_since = null, incident_open = false
    from previous where h.label = previous.label
    returning previous.label, previous.incident_open
  )
  select
    exists (select 1 from recorded) as current,
    exists (
      select 1 from recorded, outcome_events later
      where later.process_id = recorded.process_id and later.sequence > recorded.sequence
        and later.delivery = 'pending'
    ) as later_pending,
    coalesce((select json_agg(recovered) from recovered), '[]'::json) as recovered`,
);

/** Records an attempt, where the event goes next and which endpoints that confirmed it are healthy again. */
export async function recordAttempt(
  db: Ledger,
  claimed: ClaimedEvent,
  outcome: AttemptOutcome,
  confirmedNow: readonly string[] = [],
): Promise<RecordedAttempt> {
  const { rows } = await runPrepared(db, RECORD_ATTEMPT, [
    claimed.webhookId,
    claimed.attempt,
    claimed.startedAt,
    outcome.kind,
    outcome.kind === 'refused' || outcome.kind === 'given-up' ? outcome.error : null,
    'confirmed' in outcome ? outcome.confirmed : [],
    outcome.kind === 'refused' ? outcome.retryInMs : 0,
    confirmedNow,
  ]);
  const [row] = rows;
  if (!row) throw new Error('An attempt recorded no row');
  return {
    current: row.current,
    laterPending: row.later_pending,
    recovered: row.recovered.map((endpoint) => ({
      label: endpoint.label,
      incidentWasOpen: endpoint.incident_open,
    })),
  };
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
