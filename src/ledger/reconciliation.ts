/**
 * Booked rows against the operator: reconciliation reads each booked row's resources again and records whether the
 * operator still says what the ramp booked (`matches`), says otherwise (`differs`, and how), or could not be read.
 * The statement shows the last verdict. Pure comparison, then the update.
 */
import { sql } from 'kysely';
import type { Ledger } from '../database/connection';
import type { BookedResource } from './ramp-views';
import type { Reconciled } from './views';

/** A fresh read of a booked resource: its status and amounts, or why it could not be read. */
export type ResourceRead =
  | { kind: 'order'; id: string; status: string; amountFrom: string | null; amountTo: string | null }
  | { kind: 'transaction'; id: string; status: string; amount: string | null }
  | { kind: 'order' | 'transaction'; id: string; error: string };

export const resourceKey = (resource: { kind: string; id: string }) => `${resource.kind}/${resource.id}`;

/** Whether the operator, read afresh, agrees with every status and amount the ramp booked. */
export function compareBooked(
  booked: readonly BookedResource[],
  reads: ReadonlyMap<string, ResourceRead>,
): { reconciled: Exclude<Reconciled, 'unchecked'>; reconciliation: string } {
  if (booked.length === 0)
    return { reconciled: 'nothing-to-read', reconciliation: 'the ramp booked no operator resource' };
  const unreadable: string[] = [];
  const differences: string[] = [];
  const compare = (what: string, ours: string | null, theirs: string | null) => {
    if (ours !== theirs) differences.push(`${what} ${theirs ?? 'absent'} (booked ${ours ?? 'absent'})`);
  };
  for (const resource of booked) {
    const read = reads.get(resourceKey(resource));
    if (!read || 'error' in read || read.kind !== resource.kind) {
      unreadable.push(
        `${resource.kind} ${resource.id}: ${read && 'error' in read ? read.error : 'not read'}`,
      );
      continue;
    }
    const name = `${resource.kind} ${resource.id}`;
    compare(`${name} status`, resource.status, read.status);
    if (resource.kind === 'order' && read.kind === 'order') {
      compare(`${name} amountFrom`, resource.amountFrom, read.amountFrom);
      compare(`${name} amountTo`, resource.amountTo, read.amountTo);
    } else if (resource.kind === 'transaction' && read.kind === 'transaction') {
      compare(`${name} amount`, resource.amount, read.amount);
    }
  }
  if (unreadable.length > 0) return { reconciled: 'unreadable', reconciliation: unreadable.join('; ') };
  if (differences.length > 0)
    return { reconciled: 'differs', reconciliation: `the operator says ${differences.join('; ')}` };
  return { reconciled: 'matches', reconciliation: '' };
}

/**
 * Booked rows to check: those booked within the lookback and not checked since `checkedBefore` (a run's start), never
 * checked first, then the least recently checked (an operator record may still change in the days after a ramp
 * ends), at most `limit`.
 */
export async function bookingsToCheck(
  db: Ledger,
  lookbackMs: number,
  checkedBefore: string,
  limit: number,
): Promise<Array<{ workflowId: string; closedAt: string; resources: BookedResource[] }>> {
  const rows = await db
    .selectFrom('bookings')
    .select(['workflow_id', 'closed_at', 'resources'])
    .where('closed_at', '>', sql<string>`now() - ${lookbackMs} * interval '1 millisecond'`)
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', checkedBefore)]))
    .orderBy(sql`checked_at nulls first`)
    .orderBy('closed_at')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    workflowId: row.workflow_id,
    closedAt: row.closed_at,
    resources: row.resources as BookedResource[],
  }));
}

export async function recordReconciliation(
  db: Ledger,
  workflowId: string,
  verdict: { reconciled: Reconciled; reconciliation: string },
): Promise<void> {
  await db
    .updateTable('bookings')
    .set({ ...verdict, checked_at: sql<string>`now()` })
    .where('workflow_id', '=', workflowId)
    .execute();
}

/** Which of these workflows have no booked row. */
export async function unbooked(db: Ledger, workflowIds: readonly string[]): Promise<string[]> {
  if (workflowIds.length === 0) return [];
  const booked = await db
    .selectFrom('bookings')
    .select('workflow_id')
    .where('workflow_id', 'in', [...workflowIds])
    .execute();
  const have = new Set(booked.map((row) => row.workflow_id));
  return workflowIds.filter((id) => !have.has(id));
}
