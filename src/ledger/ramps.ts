/**
 * Ramps in the ledger: each ramp's view, written by its own activity at each status change together with the
 * outcome events it raised (one statement, so an event is never recorded without the status it reports, nor a
 * status without its event), and its booked row when it ends (in one transaction with the last write; a later last
 * write of the same ramp books it again). Reads are the API's and the typed client's: one ramp,
 * a page of ramps newest first.
 */
import { sql } from 'kysely';
import type { RampDirection } from '../domain/vocabulary';
import type { Ledger } from '../database/connection';
import { preparedStatement, runPrepared } from '../database/prepared';
import type { RaisedEvent } from '../domain/outcome-events';
import { raisedEventsInsert, raisedEventsValues } from './outcome-events';
import { bookedResources, bookedRow, heldResources, type RampState, rampView } from './ramp-views';
import type { OffRampView, OnRampView, RampSummary } from './views';

export interface RampRecord {
  ramp: RampState;
  /** The process's count of its writes: a write never replaces a newer one (a retry, or a repair racing it). */
  revision: number;
  /** The outcome events raised since the last write, in order. */
  raised: RaisedEvent[];
  /** How long each of those events' delivery is retried. */
  retryForMs: number;
  /** When the view was written, in the process's time (replay gives the same). */
  at: string;
  /** Set when the ramp has ended: its row is booked at this instant. */
  closedAt?: string;
  /** The trace the write runs in, kept with its events so that their deliveries join it. */
  traceParent?: string;
}

/**
 * A ramp's view, never over a newer write, with the events it raised and, for a deposit, its end user's activity (a
 * deposit makes its wallet one reconciliation checks first; `$11` is null for any other ramp): one statement.
 */
const WRITE_RAMP = preparedStatement(
  'write_ramp',
  `with written as (
    insert into ramps (workflow_id, direction, end_user_id, status, revision, view, resources, started_at, updated_at,
      ended_at)
    values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
    on conflict (workflow_id) do update set end_user_id = excluded.end_user_id, status = excluded.status,
      revision = excluded.revision, view = excluded.view, resources = excluded.resources,
      updated_at = excluded.updated_at, ended_at = excluded.ended_at
    where ramps.revision <= excluded.revision
  ), active as (
    update end_users set active_at = $8 where end_user_id = $11 and active_at < $8
  ), ${raisedEventsInsert({ process: 1, values: 12 })}`,
);

/** Writes a ramp's view, its new events and, when it ended, its booked row; idempotent (a retry writes once). */
export async function writeRamp(db: Ledger, record: RampRecord): Promise<void> {
  const { ramp, revision, at } = record;
  const depositor = ramp.direction === 'off-ramp' ? (ramp.state.endUserId ?? null) : null;
  const values = [
    ramp.workflowId,
    ramp.direction,
    ramp.state.endUserId ?? null,
    ramp.state.status,
    revision,
    JSON.stringify(rampView(ramp, at)),
    JSON.stringify(heldResources(ramp)),
    ramp.state.startedAt,
    at,
    ramp.state.endedAt ?? null,
    depositor,
    ...raisedEventsValues(record.raised, record.retryForMs, record.traceParent),
  ];
  if (record.closedAt === undefined) return void (await runPrepared(db, WRITE_RAMP, values));
  // Ending: the booked row names every event of the ramp, read in the same transaction.
  const closedAt = record.closedAt;
  await db.transaction().execute(async (trx) => {
    await runPrepared(trx, WRITE_RAMP, values);
    const webhookIds = await trx
      .selectFrom('outcome_events')
      .select('webhook_id')
      .where('process_id', '=', ramp.workflowId)
      .orderBy('sequence')
      .execute();
    const row = bookedRow(
      ramp,
      closedAt,
      webhookIds.map((event) => event.webhook_id),
    );
    await trx
      .insertInto('bookings')
      .values({
        workflow_id: ramp.workflowId,
        direction: ramp.direction,
        status: ramp.state.status,
        closed_at: closedAt,
        row: JSON.stringify(row),
        resources: JSON.stringify(bookedResources(ramp)),
      })
      // A later last write (a snapshot came in while the first ran) books its row again, in the same period; a
      // retried or older write changes nothing.
      .onConflict((conflict) =>
        conflict
          .column('workflow_id')
          .doUpdateSet({
            row: sql`excluded.row || jsonb_build_object('closedAt', bookings.row -> 'closedAt')`,
            resources: sql`excluded.resources`,
            reconciled: 'unchecked',
            reconciliation: '',
            checked_at: null,
          })
          .where(sql<boolean>`bookings.row - 'closedAt' is distinct from excluded.row - 'closedAt'`)
          .where(
            sql<boolean>`exists (select from ramps where ramps.workflow_id = bookings.workflow_id and ramps.revision = ${revision})`,
          ),
      )
      .execute();
  });
}

/** One ramp's view, or undefined when the ledger has none. */
export async function readRampView(
  db: Ledger,
  workflowId: string,
): Promise<OffRampView | OnRampView | undefined> {
  const row = await db
    .selectFrom('ramps')
    .select('view')
    .where('workflow_id', '=', workflowId)
    .executeTakeFirst();
  return row?.view as OffRampView | OnRampView | undefined;
}

export interface RampQuery {
  endUserId?: string;
  direction?: RampDirection;
  status?: string;
  /** Only ramps that ended after this instant. */
  closedAfter?: string;
  limit: number;
  /** The last ramp of the previous page. */
  after?: RampCursor;
}

/** Where a page of ramps, newest first, stopped. */
export interface RampCursor {
  startedAt: string;
  workflowId: string;
}

/** A page of ramps, newest first (then by workflow ID), and the cursor of its last when more may follow. */
export async function listRampSummaries(
  db: Ledger,
  query: RampQuery,
): Promise<{ data: RampSummary[]; next: RampCursor | null }> {
  let select = db
    .selectFrom('ramps')
    .select(['workflow_id', 'direction', 'status', 'end_user_id', 'view', 'started_at', 'ended_at'])
    .orderBy('started_at', 'desc')
    .orderBy('workflow_id', 'desc')
    .limit(query.limit + 1);
  if (query.endUserId !== undefined) select = select.where('end_user_id', '=', query.endUserId);
  if (query.direction !== undefined) select = select.where('direction', '=', query.direction);
  if (query.status !== undefined) select = select.where('status', '=', query.status);
  if (query.closedAfter !== undefined) select = select.where('ended_at', '>', query.closedAfter);
  if (query.after)
    select = select.where(
      sql<boolean>`(started_at, workflow_id) < (${query.after.startedAt}::timestamptz, ${query.after.workflowId})`,
    );
  const rows = await select.execute();
  const page = rows.slice(0, query.limit);
  const data = page.map((row): RampSummary => {
    const view = row.view as Partial<OffRampView & OnRampView>;
    return {
      workflowId: row.workflow_id,
      direction: row.direction,
      status: row.status,
      endUserId: row.end_user_id,
      orderReference: view.orderReference ?? null,
      depositTransactionId: view.depositTransactionId ?? null,
      running: row.ended_at === null,
      startTime: row.started_at,
      closeTime: row.ended_at,
    };
  });
  const last = page.at(-1);
  return {
    data,
    next:
      rows.length > query.limit && last ? { startedAt: last.started_at, workflowId: last.workflow_id } : null,
  };
}

/** How many ramps the ledger holds of each direction and status. */
export async function countRampsByStatus(
  db: Ledger,
): Promise<Array<{ direction: RampDirection; status: string; count: number }>> {
  return db
    .selectFrom('ramps')
    .select(['direction', 'status', sql<number>`count(*)::int`.as('count')])
    .groupBy(['direction', 'status'])
    .execute();
}
