/**
 * `npm run reconcile [-- --json]`: runs the reconciliation workflow once (ops/reconcile-manual-<ISO time>) and prints its
 * findings as a table, or as JSON with --json. A worker must be running. Exit code 0 when there are no findings, 2
 * when there are.
 */
import { commandFlags, defineCommand } from './args';
import { runMain } from './run';
import { loadEncryptionConfig } from '../config/encryption';
import { loadTemporalConfig } from '../config/temporal';
import { loadWorkflowTimings } from '../config/timings';
import { connectTemporal, temporalAddress } from '../temporal/wiring';
import { findingsTable } from '../../workflows/operations/reconcile/findings';
import type { ReconcileResult } from '../../workflows/operations/reconcile/types';
import type { reconcileWorkflow } from '../../workflows/operations/reconcile/workflow';
import { manualReconcileWorkflowId, WORKFLOW_TYPES } from '../domain/ids';

/** The run's execution timeout, so that a reconciliation that cannot finish does not hold the command forever. */
const RECONCILE_TIMEOUT_MS = 10 * 60_000;

export function formatReconcile(result: ReconcileResult): string {
  return [
    `Reconciliation ${result.startedAt} .. ${result.finishedAt}`,
    `  open processes checked: ${result.processesChecked}`,
    `  deposit wallets checked: ${result.walletsChecked}${result.transactionListing ? '' : ' (balances only: the operator does not list wallet transactions)'}`,
    '',
    findingsTable(result.findings),
  ].join('\n');
}

const COMMAND = defineCommand({
  usage: 'npm run reconcile --',
  summary:
    'Runs the reconciliation once: re-reads the operator for every open process and every deposit wallet, starts what was ' +
    'missed, and prints the findings. A worker must be running.',
  flags: { json: { type: 'boolean', description: 'print the result as JSON' } },
  notes: ['The run times out after 10 minutes.', 'Exit status: 0 no findings, 2 findings, 1 failure.'],
});

async function main(): Promise<void> {
  const json = commandFlags(COMMAND).json === true;
  const env = process.env;
  const temporal = loadTemporalConfig(env);
  const timings = loadWorkflowTimings(env);
  const connected = await connectTemporal({
    temporal,
    encryption: loadEncryptionConfig(env),
    address: temporalAddress(temporal),
  });
  try {
    const result = await connected.client.workflow.execute<typeof reconcileWorkflow>(
      WORKFLOW_TYPES.reconcile,
      {
        workflowId: manualReconcileWorkflowId(new Date()),
        taskQueue: temporal.taskQueue,
        args: [{ timings }],
        workflowExecutionTimeout: RECONCILE_TIMEOUT_MS,
      },
    );
    process.stdout.write(json ? `${JSON.stringify(result, null, 2)}\n` : `${formatReconcile(result)}\n`);
    if (result.findings.length > 0) process.exitCode = 2;
  } finally {
    await connected.close();
  }
}

if (require.main === module) runMain(main, { failurePrefix: 'reconcile failed: ' });
