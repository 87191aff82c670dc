/**
 * Reconciliation runs in the ledger: each run's budget of operator calls, its progress as of its last page, and its
 * findings (one row per kind and subject, so a page retried records nothing twice). Runs are kept RUNS_KEPT_MS.
 */
import { sql } from 'kysely';
import type { Ledger } from '../database/connection';
import type {
  ReconcileFinding,
  ReconcileFindingKind,
  ReconcileProgress,
} from '../../workflows/operations/reconcile/types';

/** A month of runs: enough to compare today's findings with those of any run on-call may ask about. */
export const RUNS_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Records a run's start with its budget: `perInterval` less the calls other runs made in the interval before it (a
 * run by hand and a scheduled one share it). A retry finds the row and answers the budget recorded then.
 */
export async function beginRun(
  db: Ledger,
  progress: Omit<ReconcileProgress, 'budget'>,
  perInterval: number,
): Promise<number> {
  await db
    .deleteFrom('reconcile_runs')
    .where('started_at', '<', sql<string>`now() - ${RUNS_KEPT_MS} * interval '1 millisecond'`)
    .execute();
  const spent = await db
    .selectFrom('reconcile_runs')
    .select(sql<number>`coalesce(sum(operator_calls), 0)::int`.as('calls'))
    .where('run_id', '!=', progress.runId)
    .where(
      'started_at',
      '>',
      sql<string>`${progress.startedAt}::timestamptz - ${progress.intervalMs} * interval '1 millisecond'`,
    )
    .executeTakeFirstOrThrow();
  const budget = Math.max(0, perInterval - spent.calls);
  await db
    .insertInto('reconcile_runs')
    .values({
      run_id: progress.runId,
      started_at: progress.startedAt,
      budget,
      progress: JSON.stringify({ ...progress, budget }),
      updated_at: progress.startedAt,
    })
    .onConflict((conflict) => conflict.column('run_id').doNothing())
    .execute();
  const row = await db
    .selectFrom('reconcile_runs')
    .select('budget')
    .where('run_id', '=', progress.runId)
    .executeTakeFirstOrThrow();
  return row.budget;
}

/** Records where the run stands (at each page), and when it finished (at its end). */
export async function recordProgress(
  db: Ledger,
  progress: ReconcileProgress,
  finished = false,
): Promise<void> {
  await db
    .updateTable('reconcile_runs')
    .set({
      progress: JSON.stringify(progress),
      operator_calls: progress.operatorCalls,
      updated_at: sql<string>`now()`,
      ...(finished ? { finished_at: sql<string>`now()` } : {}),
    })
    .where('run_id', '=', progress.runId)
    .execute();
}

/** Records findings of a run; answers how many of each kind were new (a retry's repeats are not). */
export async function recordFindings(
  db: Ledger,
  runId: string,
  findings: readonly ReconcileFinding[],
): Promise<Partial<Record<ReconcileFindingKind, number>>> {
  const found: Partial<Record<ReconcileFindingKind, number>> = {};
  if (findings.length === 0) return found;
  const rows = await db
    .insertInto('reconcile_findings')
    .values(
      findings.map((finding) => ({
        run_id: runId,
        kind: finding.kind,
        subject: finding.subject,
        finding: JSON.stringify(finding),
      })),
    )
    .onConflict((conflict) => conflict.columns(['run_id', 'kind', 'subject']).doNothing())
    .returning('kind')
    .execute();
  for (const { kind } of rows)
    found[kind as ReconcileFindingKind] = (found[kind as ReconcileFindingKind] ?? 0) + 1;
  return found;
}

/** A run as recorded: its progress as of its last page, and whether it finished. */
export interface RecordedRun {
  progress: ReconcileProgress;
  finishedAt: string | null;
}

/** The newest run, or one by its workflow ID. */
export async function readRun(db: Ledger, runId?: string): Promise<RecordedRun | undefined> {
  let select = db
    .selectFrom('reconcile_runs')
    .select(['progress', 'finished_at'])
    .orderBy('started_at', 'desc')
    .limit(1);
  if (runId !== undefined) select = select.where('run_id', '=', runId);
  const row = await select.executeTakeFirst();
  return row ? { progress: row.progress as ReconcileProgress, finishedAt: row.finished_at } : undefined;
}

/** A run's findings in the order found, at most `limit`. */
export async function runFindings(db: Ledger, runId: string, limit: number): Promise<ReconcileFinding[]> {
  const rows = await db
    .selectFrom('reconcile_findings')
    .select('finding')
    .where('run_id', '=', runId)
    .orderBy('found_at')
    .orderBy('kind')
    .orderBy('subject')
    .limit(limit)
    .execute();
  return rows.map((row) => row.finding as ReconcileFinding);
}
