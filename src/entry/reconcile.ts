/**
 * `npm run reconcile [-- --json] [-- --last]`: runs the reconciliation workflow once (ops/reconcile-manual-<ISO time>),
 * waits for it, and prints what it checked, its operator calls against its budget and its findings (from the
 * database, where the run records them), as a table or as JSON with --json. With --last it starts nothing and prints
 * the newest run instead, the schedule's say. A worker must be running to start one. Exit code 0 when there are no
 * findings, 2 when there are.
 */
import { commandFlags, defineCommand } from './args';
import { runMain } from './run';
import { loadDatabaseConfig, requiredDatabaseUrl } from '../config/database';
import { loadEncryptionConfig } from '../config/encryption';
import { loadOperationsConfig } from '../config/operations';
import { loadTemporalConfig } from '../config/temporal';
import { loadWorkflowTimings } from '../config/timings';
import { openMigrated } from '../database/use-database';
import type { Ledger } from '../database/connection';
import { readRun, runFindings } from '../ledger/reconcile-runs';
import { connectTemporal, temporalAddress } from '../temporal/wiring';
import { findingsTable } from '../../workflows/operations/reconcile/findings';
import type { ReconcileFinding, ReconcileProgress } from '../../workflows/operations/reconcile/types';
import type { reconcileWorkflow } from '../../workflows/operations/reconcile/workflow';
import { manualReconcileWorkflowId, WORKFLOW_TYPES } from '../domain/ids';

/** Rows of the findings table; --json lists every finding. */
const FINDINGS_SHOWN = 200;

export interface ReconcileReport {
  progress: ReconcileProgress;
  finishedAt: string | null;
  findings: ReconcileFinding[];
}

const findingsCount = (progress: ReconcileProgress) =>
  Object.values(progress.found).reduce((sum, count) => sum + count, 0);

export function formatReconcile({ progress, finishedAt, findings }: ReconcileReport): string {
  const { checked } = progress;
  const state = finishedAt
    ? `${progress.startedAt} .. ${finishedAt}`
    : `since ${progress.startedAt}, still running (${progress.pass})`;
  const stopped = progress.stoppedInPass
    ? `; stopped in the ${progress.stoppedInPass} pass, the budget spent: the next run goes on from there`
    : '';
  const total = findingsCount(progress);
  return [
    `Reconciliation ${progress.runId}, ${state}`,
    `  open ramps checked: ${checked.ramps}`,
    `  deposit wallets checked: ${checked.wallets}${progress.transactionListing ? '' : ' (balances only: the operator does not list wallet transactions)'}`,
    `  ramps listed for a ledger row: ${checked.unrecorded}, booked rows read again: ${checked.bookings}`,
    `  operator calls: ${progress.operatorCalls} of a budget of ${progress.budget}${stopped}`,
    `  pages: ${progress.pages} in ${progress.runs} run${progress.runs === 1 ? '' : 's'}`,
    '',
    findingsTable(findings),
    ...(total > findings.length ? [`... and ${total - findings.length} more (--json lists them all)`] : []),
  ].join('\n');
}

const COMMAND = defineCommand({
  usage: 'npm run reconcile --',
  summary:
    'Runs the reconciliation once: re-reads the operator for every open ramp and the deposit wallets due a check, ' +
    'starts what was missed, and prints the findings. A worker must be running.',
  flags: {
    json: { type: 'boolean', description: 'print the run and every finding as JSON' },
    last: { type: 'boolean', description: 'start nothing: print the newest run (a scheduled one, say)' },
  },
  notes: [
    'A run started here times out after RECONCILE_INTERVAL.',
    'Exit status: 0 no findings, 2 findings, 1 failure.',
  ],
});

async function report(db: Ledger, runId: string | undefined, all: boolean): Promise<ReconcileReport> {
  const run = await readRun(db, runId);
  if (!run) throw new Error(runId ? `no run ${runId} in the database` : 'no reconciliation has run yet');
  const limit = all ? Number.MAX_SAFE_INTEGER : FINDINGS_SHOWN;
  return { ...run, findings: await runFindings(db, run.progress.runId, limit) };
}

async function main(): Promise<void> {
  const flags = commandFlags(COMMAND);
  const json = flags.json === true;
  const env = process.env;
  const database = await openMigrated(
    requiredDatabaseUrl(loadDatabaseConfig(env), 'reconcile').reveal(),
    'ramp-orchestrator reconcile',
  );
  try {
    let runId: string | undefined;
    if (flags.last !== true) {
      const temporal = loadTemporalConfig(env);
      const intervalMs = loadOperationsConfig(env).schedules.reconcileIntervalMs;
      const connected = await connectTemporal({
        temporal,
        encryption: loadEncryptionConfig(env),
        address: temporalAddress(temporal),
      });
      runId = manualReconcileWorkflowId(new Date());
      try {
        await connected.client.workflow.execute<typeof reconcileWorkflow>(WORKFLOW_TYPES.reconcile, {
          workflowId: runId,
          taskQueue: temporal.taskQueue,
          args: [{ timings: loadWorkflowTimings(env), intervalMs }],
          workflowExecutionTimeout: intervalMs,
        });
      } finally {
        await connected.close();
      }
    }
    const read = await report(database.db, runId, json);
    process.stdout.write(json ? `${JSON.stringify(read, null, 2)}\n` : `${formatReconcile(read)}\n`);
    if (findingsCount(read.progress) > 0) process.exitCode = 2;
  } finally {
    await database.close();
  }
}

if (require.main === module) runMain(main, { failurePrefix: 'reconcile failed: ' });
