/**
 * reconcile: run by the `reconcile` schedule and by `npm run reconcile`.
 *
 * 1. Every open process (running on-ramp and off-ramp workflows of this task queue): re-read what the operator
 *    says (Get Transaction / Get Order) and compare with what the process holds; a process behind the operator is
 *    a `status-mismatch`, and it is handed the fresh snapshot (its handlers only ever move forward).
 * 2. Every end user's deposit wallet: list its transactions (ASSUMED route) and start the off-ramp of any deposit
 *    no process knows about (every webhook of it lost), with signal-with-start so it settles by polling; then read
 *    its balances (GetWalletAddresses): a token balance that no open off-ramp of that wallet accounts for is
 *    `unaccounted-funds` and raises an alert.
 * 3. The ledger: ramps closed lately without a booked row are booked from their result, and booked rows are read
 *    again at the operator (the statement's `reconciled`). Open ramps' views are repaired in step 1.
 */
import { patched, proxyActivities, setCurrentDetails, workflowInfo } from '@temporalio/workflow';
import type { RampActivities } from '../../../activities';
import { operatorActivityOptions } from '../../shared/activity-options';
import { currentDetails, unaccountedFundsAlert } from './findings';
import type { ReconcileInput, ReconcileResult } from './types';
import { declareReleaseBehaviour } from '../../shared/versioning';

/** The patch that gave reconciliation its ledger pass (closed ramps booked, booked rows read again). */
export const RECONCILE_LEDGER_PATCH = 'reconcile-ledger';

export async function reconcileWorkflow(input: ReconcileInput): Promise<ReconcileResult> {
  const activities = proxyActivities<RampActivities>(
    operatorActivityOptions(input.timings, { heartbeat: true }),
  );
  const startedAt = new Date().toISOString();
  const processes = await activities.reconcileOpenProcesses({ timings: input.timings });
  const wallets = await activities.reconcileDepositWallets({
    timings: input.timings,
    startMissing: input.startMissing ?? true,
  });
  // A run from a 1.0 history has no ledger pass.
  const ledger = patched(RECONCILE_LEDGER_PATCH)
    ? await activities.reconcileLedger({ timings: input.timings })
    : undefined;
  const findings = [...processes.findings, ...wallets.findings, ...(ledger?.findings ?? [])];
  // One alert per unaccounted balance, in the order found.
  for (const finding of findings) {
    if (finding.kind !== 'unaccounted-funds') continue;
    await activities.raiseAlert(unaccountedFundsAlert(finding, workflowInfo().workflowId));
  }
  const result: ReconcileResult = {
    startedAt,
    finishedAt: new Date().toISOString(),
    processesChecked: processes.checked,
    walletsChecked: wallets.checked,
    transactionListing: wallets.transactionListing,
    ...(ledger
      ? { ledger: { closedChecked: ledger.closedChecked, bookingsChecked: ledger.bookingsChecked } }
      : {}),
    findings,
  };
  setCurrentDetails(currentDetails(result));
  return result;
}

declareReleaseBehaviour(reconcileWorkflow, 'pinned');
