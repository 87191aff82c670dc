/**
 * The incident store: every incident in the ledger, open until resolved, one open incident per key (kind and subject,
 * workflows/operations/alerts/incidents.ts `incidentKey`). A raise opens the incident of its key or counts one more
 * occurrence of the open one, in one statement: the unique index on open keys decides which raise opened it, and
 * only that raise (and its retries, same request ID) is told to notify. Listed newest first a page at a time, each
 * page under PAGE_BUDGET_BYTES however many incidents there are; what is written is bounded (INCIDENT_LIMITS).
 */
import { sql, type Selectable } from 'kysely';
import type { Ledger } from '../database/connection';
import type { IncidentsTable } from '../database/schema';
import type {
  AlertInput,
  Incident,
  IncidentAction,
  RaiseAlertAnswer,
  RaiseAlertRequest,
  ResolveAlertAnswer,
  ResolveAlertRequest,
  ResolvedIncident,
} from '../../workflows/operations/alerts/types';

/**
 * What one incident may hold: a message is a sentence or two, details are identifiers and figures. Longer text is
 * cut, so that one incident stays a few kilobytes and a page of them under its budget.
 */
export const INCIDENT_LIMITS = { message: 1_000, detailKeys: 30, detailKey: 64, detailText: 300 } as const;

/** Most bytes of incidents in one page (its JSON), well under the 64 kB every answer of the store stays within. */
export const PAGE_BUDGET_BYTES = 48_000;

/** Times are kept to the millisecond, as they are read: a page's cursor then names its last incident exactly. */
const now = () => sql<string>`date_trunc('milliseconds', now())`;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The details as kept: at most INCIDENT_LIMITS.detailKeys entries, each name and text cut to its limit. */
export function boundedDetails(details: AlertInput['details']): AlertInput['details'] {
  return Object.fromEntries(
    Object.entries(details ?? {})
      .slice(0, INCIDENT_LIMITS.detailKeys)
      .map(([name, value]) => [
        cut(name, INCIDENT_LIMITS.detailKey),
        typeof value === 'string' ? cut(value, INCIDENT_LIMITS.detailText) : value,
      ]),
  );
}

const text = (details: AlertInput['details'], name: string): string | null => {
  const value = details[name];
  return typeof value === 'string' ? value : null;
};

type IncidentRow = Selectable<IncidentsTable>;

function incidentOf(row: IncidentRow): Incident {
  return {
    key: row.key,
    kind: row.kind as Incident['kind'],
    network: row.network,
    depositTransactionId: row.deposit_transaction_id,
    message: row.message,
    workflowId: row.workflow_id,
    lastWorkflowId: row.last_workflow_id,
    details: row.details,
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
    occurrences: row.occurrences,
    openedBy: row.opened_by,
    ...(row.acknowledged ? { acknowledged: row.acknowledged } : {}),
  };
}

function resolvedOf(row: IncidentRow): ResolvedIncident {
  return {
    ...incidentOf(row),
    resolvedAt: row.resolved_at!,
    resolution: row.resolution ?? '',
    resolvedBy: row.resolved_by ?? '',
  };
}

/**
 * Opens the incident of the request's key, or counts one more occurrence of the open one (its details and last
 * raiser become this raise's). Only the raise that opened it, and its retries, is told to notify.
 */
export async function raiseIncident(db: Ledger, request: RaiseAlertRequest): Promise<RaiseAlertAnswer> {
  const details = boundedDetails(request.details);
  const row = await db
    .insertInto('incidents')
    .values({
      key: request.key,
      kind: request.kind,
      network: text(details, 'network'),
      deposit_transaction_id: text(details, 'depositTransactionId'),
      message: cut(request.message, INCIDENT_LIMITS.message),
      workflow_id: request.workflowId,
      last_workflow_id: request.workflowId,
      details: JSON.stringify(details),
      first_seen: now(),
      last_seen: now(),
      occurrences: 1,
      opened_by: request.requestId,
    })
    .onConflict((conflict) =>
      conflict
        .column('key')
        .where('resolved_at', 'is', null)
        .doUpdateSet({
          last_seen: now(),
          occurrences: sql<number>`incidents.occurrences + 1`,
          last_workflow_id: (eb) => eb.ref('excluded.last_workflow_id'),
          details: (eb) => eb.ref('excluded.details'),
        }),
    )
    .returning(['key', 'occurrences', 'opened_by', sql<boolean>`xmax = 0`.as('inserted')])
    .executeTakeFirstOrThrow();
  return {
    key: row.key,
    isNew: row.inserted,
    notify: row.opened_by === request.requestId,
    occurrences: row.occurrences,
  };
}

/**
 * Closes the open incident of the request's key. With none open, only a retry of the resolve that closed it is told
 * to notify again (its webhook may have failed).
 */
export async function resolveIncident(db: Ledger, request: ResolveAlertRequest): Promise<ResolveAlertAnswer> {
  const closed = await db
    .updateTable('incidents')
    .set({
      resolved_at: now(),
      resolution: cut(request.resolution, INCIDENT_LIMITS.message),
      resolved_by: request.requestId,
    })
    .where('key', '=', request.key)
    .where('resolved_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (closed) return { key: request.key, wasOpen: true, notify: true, incident: incidentOf(closed) };
  const earlier = await db
    .selectFrom('incidents')
    .selectAll()
    .where('key', '=', request.key)
    .where('resolved_by', '=', request.requestId)
    .orderBy('resolved_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    key: request.key,
    wasOpen: false,
    notify: earlier !== undefined,
    ...(earlier ? { incident: resolvedOf(earlier) } : {}),
  };
}

/** Marks the open incident of the key as taken by someone (a second acknowledgement replaces the first). */
export async function acknowledgeIncident(db: Ledger, action: IncidentAction): Promise<Incident | undefined> {
  const row = await db
    .updateTable('incidents')
    .set({
      acknowledged: sql<string>`jsonb_build_object('by', ${action.by}::text, 'reason', ${action.reason}::text, 'at', to_char(${now()} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`,
    })
    .where('key', '=', action.key)
    .where('resolved_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  return row ? incidentOf(row) : undefined;
}

/** Closes the open incident of the key by hand; should its cause persist, the next raise opens a new one. */
export async function resolveIncidentByPerson(
  db: Ledger,
  action: IncidentAction,
): Promise<ResolvedIncident | undefined> {
  const row = await db
    .updateTable('incidents')
    .set({
      resolved_at: now(),
      resolution: action.reason,
      resolved_by: `person/${action.by}`,
    })
    .where('key', '=', action.key)
    .where('resolved_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  return row ? resolvedOf(row) : undefined;
}

export type IncidentStatus = 'open' | 'resolved';

/** A filter of the incident list, its values checked by the caller. */
export interface IncidentQuery {
  status: IncidentStatus;
  kind?: string;
}

/** Where a page stopped: the last incident's time (opened, or resolved) and its row. */
export interface IncidentCursor {
  at: string;
  id: string;
}

/**
 * One page of incidents, newest first: open ones by when they opened, resolved ones by when they were resolved. At
 * most `limit`, and fewer when their JSON would pass PAGE_BUDGET_BYTES (never fewer than one).
 */
export async function listIncidents(
  db: Ledger,
  query: IncidentQuery,
  limit: number,
  after?: IncidentCursor,
): Promise<{ data: Incident[] | ResolvedIncident[]; next: IncidentCursor | null }> {
  const resolved = query.status === 'resolved';
  const at = resolved ? 'resolved_at' : 'first_seen';
  let select = db
    .selectFrom('incidents')
    .selectAll()
    .where('resolved_at', resolved ? 'is not' : 'is', null)
    .orderBy(at, 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1);
  if (query.kind !== undefined) select = select.where('kind', '=', query.kind);
  if (after)
    select = select.where(
      sql<boolean>`(${sql.ref(at)}, id) < (${after.at}::timestamptz, ${after.id}::bigint)`,
    );
  const rows = await select.execute();
  const data: Array<Incident | ResolvedIncident> = [];
  let bytes = 0;
  let last: IncidentRow | undefined;
  for (const row of rows.slice(0, limit)) {
    const incident = resolved ? resolvedOf(row) : incidentOf(row);
    const size = Buffer.byteLength(JSON.stringify(incident)) + 1;
    if (data.length > 0 && bytes + size > PAGE_BUDGET_BYTES) break;
    data.push(incident);
    bytes += size;
    last = row;
  }
  const more = rows.length > data.length;
  return {
    data: data as Incident[] | ResolvedIncident[],
    next: more && last ? { at: (resolved ? last.resolved_at : last.first_seen)!, id: last.id } : null,
  };
}

/** The open incidents by kind and whether someone acknowledged them (what the metrics show). */
export async function countOpenIncidents(
  db: Ledger,
): Promise<Array<{ kind: string; acknowledged: boolean; count: number }>> {
  const rows = await db
    .selectFrom('incidents')
    .select([
      'kind',
      sql<boolean>`acknowledged is not null`.as('acknowledged'),
      sql<number>`count(*)::int`.as('count'),
    ])
    .where('resolved_at', 'is', null)
    .groupBy(['kind', sql`acknowledged is not null`])
    .execute();
  return rows;
}

/**
 * Takes the incidents an incident store workflow held (its open ones and the last resolved ones) into the ledger,
 * as they were: an open one whose key is open here already adds its occurrences to it; one kept before is not kept
 * twice (a retried hand-over). One transaction.
 */
export async function takeOverIncidents(
  db: Ledger,
  held: { open: readonly Incident[]; recentlyResolved: readonly ResolvedIncident[] },
): Promise<{ open: number; resolved: number }> {
  return db.transaction().execute(async (trx) => {
    let open = 0;
    let resolved = 0;
    for (const incident of [...held.recentlyResolved].reverse()) {
      if (await keptBefore(trx, incident)) continue;
      await trx.insertInto('incidents').values(rowOf(incident, incident)).execute();
      resolved += 1;
    }
    for (const incident of held.open) {
      if (await keptBefore(trx, incident)) continue;
      const taken = await trx
        .insertInto('incidents')
        .values(rowOf(incident))
        .onConflict((conflict) =>
          conflict
            .column('key')
            .where('resolved_at', 'is', null)
            .doUpdateSet({
              occurrences: sql<number>`incidents.occurrences + excluded.occurrences`,
              first_seen: sql<string>`least(incidents.first_seen, excluded.first_seen)`,
            }),
        )
        .returning('id')
        .executeTakeFirst();
      if (taken) open += 1;
    }
    return { open, resolved };
  });
}

/** Whether a retried hand-over kept this incident already: the same key, first seen at the same instant. */
async function keptBefore(db: Ledger, incident: Incident): Promise<boolean> {
  const kept = await db
    .selectFrom('incidents')
    .select('id')
    .where('key', '=', incident.key)
    .where('first_seen', '=', incident.firstSeen)
    .executeTakeFirst();
  return kept !== undefined;
}

function rowOf(incident: Incident, resolved?: ResolvedIncident) {
  const details = boundedDetails(incident.details);
  return {
    key: incident.key,
    kind: incident.kind,
    network: incident.network,
    deposit_transaction_id: incident.depositTransactionId,
    message: cut(incident.message, INCIDENT_LIMITS.message),
    workflow_id: incident.workflowId,
    last_workflow_id: incident.lastWorkflowId,
    details: JSON.stringify(details),
    first_seen: incident.firstSeen,
    last_seen: incident.lastSeen,
    occurrences: incident.occurrences,
    opened_by: incident.openedBy,
    acknowledged: incident.acknowledged ? JSON.stringify(incident.acknowledged) : null,
    resolved_at: resolved?.resolvedAt ?? null,
    resolution: resolved ? cut(resolved.resolution, INCIDENT_LIMITS.message) : null,
    resolved_by: resolved?.resolvedBy ?? null,
  };
}
