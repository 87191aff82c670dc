/**
 * Reconciliation as it ran before paging, each half one activity over everything, kept for the runs that started
 * so (the recorded 1.0 history replays through it): the open processes, the deposit wallets, then (a run that reached
 * it under `patched('reconcile-ledger')`) the ledger, then one alert per unaccounted balance.
 */
import { patched, proxyActivities, setCurrentDetails, workflowInfo } from '@temporalio/workflow';
import type { RampActivities } from '../../../activities';
import { operatorActivityOptions } from '../../shared/activity-options';
import { countFound, currentDetails, unaccountedFundsAlert } from './findings';
import type { ReconcileInput, ReconcileResult } from './types';

/** The patch that gave reconciliation its ledger pass (closed ramps booked, booked rows read again). */
export const RECONCILE_LEDGER_PATCH = 'reconcile-ledger';

export async function reconcileInOnePass(input: ReconcileInput): Promise<ReconcileResult> {
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
      ? { ledger: { rampsListed: ledger.rampsListed, bookingsChecked: ledger.bookingsChecked } }
      : {}),
    found: countFound(findings),
    findings,
  };
  setCurrentDetails(currentDetails(result));
  return result;
}
