/**
 * `npm run reconcile [-- --json]`: runs the reconciliation workflow once (ops/reconcile-manual-<ISO time>) and prints its
 * findings as a table, or as JSON with --json. A worker must be running. RECONCILE_TIMEOUT (default 10m) bounds
 * the wait. Exit code 0 when there are no findings, 2 when there are.
 */
import { z } from 'zod';
import { commandFlags, defineCommand } from './args';
import { runMain } from './run';
import { durationMs } from '../config/duration';
import { parseSection } from '../config/env';
import { loadEncryptionConfig } from '../config/encryption';
import { loadTemporalConfig } from '../config/temporal';
import { loadWorkflowTimings } from '../config/timings';
import { connectTemporal, temporalAddress } from '../temporal/wiring';
import { findingsTable } from '../../workflows/operations/reconcile/findings';
import type { ReconcileResult } from '../../workflows/operations/reconcile/types';
import type { reconcileWorkflow } from '../../workflows/operations/reconcile/workflow';
import { manualReconcileWorkflowId, WORKFLOW_TYPES } from '../domain/ids';

const commandEnv = z.object({ RECONCILE_TIMEOUT: durationMs('10m') });

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
  notes: [
    'RECONCILE_TIMEOUT (default 10m) bounds the wait.',
    'Exit status: 0 no findings, 2 findings, 1 failure.',
  ],
});

async function main(): Promise<void> {
  const json = commandFlags(COMMAND).json === true;
  const env = process.env;
  const { RECONCILE_TIMEOUT: timeoutMs } = parseSection('reconcile', commandEnv, env);
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
        workflowExecutionTimeout: timeoutMs,
      },
    );
    process.stdout.write(json ? `${JSON.stringify(result, null, 2)}\n` : `${formatReconcile(result)}\n`);
    if (result.findings.length > 0) process.exitCode = 2;
  } finally {
    await connected.close();
  }
}

if (require.main === module) runMain(main, { failurePrefix: 'reconcile failed: ' });
