/**
 * reconcile: run by the `reconcile` schedule and by `npm run reconcile` (issue 6).
 *
 * 1. Every open process (running on-ramp and off-ramp workflows of this task queue): re-read what the operator
 *    says (Get Transaction / Get Order) and compare with what the process holds; a process behind the operator is
 *    a `status-mismatch`, and it is handed the fresh snapshot (its handlers only ever move forward).
 * 2. Every end user's deposit wallet: list its transactions (ASSUMED route) and start the off-ramp of any deposit
 *    no process knows about (every webhook of it lost), with signal-with-start so it settles by polling; then read
 *    its balances (GetWalletAddresses): a token balance that no open off-ramp of that wallet accounts for is
 *    `unaccounted-funds` and raises an alert.
 */
import { proxyActivities, setCurrentDetails, workflowInfo } from '@temporalio/workflow';
import type { RampActivities } from '../activities';
import { operatorActivityOptions } from './activity-options';
import { findingsTable, type ReconcileInput, type ReconcileResult } from './ops-types';

export async function reconcileWorkflow(input: ReconcileInput): Promise<ReconcileResult> {
  const activities = proxyActivities<RampActivities>(operatorActivityOptions(input.timings, { heartbeat: true }));
  const startedAt = new Date().toISOString();
  const processes = await activities.reconcileOpenProcesses({ timings: input.timings });
  const wallets = await activities.reconcileDepositWallets({ timings: input.timings, startMissing: input.startMissing ?? true });
  const findings = [...processes.findings, ...wallets.findings];
  for (const finding of findings) {
    if (finding.kind !== 'unaccounted-funds') continue;
    await activities.raiseAlert({
      kind: 'unaccounted-funds',
      message: `Deposit wallet ${finding.walletId ?? '?'} holds ${finding.amount ?? '?'} ${finding.asset ?? ''} on ${finding.network ?? '?'} that no open off-ramp accounts for`,
      workflowId: workflowInfo().workflowId,
      details: {
        walletId: finding.walletId ?? null,
        network: finding.network ?? null,
        asset: finding.asset ?? null,
        amount: finding.amount ?? null,
        endUserId: finding.endUserId ?? null,
      },
    });
  }
  const result: ReconcileResult = {
    startedAt,
    finishedAt: new Date().toISOString(),
    processesChecked: processes.checked,
    walletsChecked: wallets.checked,
    transactionListing: wallets.transactionListing,
    findings,
  };
  setCurrentDetails(`${result.processesChecked} processes, ${result.walletsChecked} deposit wallets checked\n${findingsTable(findings)}`);
  return result;
}
