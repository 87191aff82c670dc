/**
 * reconcile: run by the `reconcile` schedule and by `npm run reconcile`, in pages, each an activity.
 *
 * 1. Open ramps, oldest first, from the ledger: each is re-read at the operator (Get Transaction / Get Order) and
 *    compared with what the ledger holds of it; a ramp the operator is ahead of is asked for its state, handed what
 *    it missed (the router's forward) and its ledger row repaired (`status-mismatch`).
 * 2. End users' deposit wallets due a check, most recently active first: a deposit no process knows gets its off-ramp
 *    started (`unknown-deposit`), a balance no open off-ramp accounts for raises an alert (`unaccounted-funds`).
 * 3. Ramps Temporal lists lately that the ledger lacks are written back (booked from their result when closed);
 *    booked rows are read again at the operator.
 *
 * The pass and its cursor are the workflow's, so a worker killed mid-run resumes at the page it was on (an activity
 * retried resumes within its page from its heartbeat); the run continues as new every PAGES_PER_RUN pages. Operator
 * calls are held to a budget per interval. Findings and progress go to the database and the current details; the
 * result counts them.
 */
import {
  continueAsNew,
  patched,
  proxyActivities,
  setCurrentDetails,
  workflowInfo,
} from '@temporalio/workflow';
import type { RampActivities } from '../../../activities';
import { operatorActivityOptions } from '../../shared/activity-options';
import { declareReleaseBehaviour } from '../../shared/versioning';
import { reconcileInOnePass } from './one-pass';
import {
  advance,
  INTERVAL_BEFORE_PAGING_MS,
  newProgress,
  PAGES_PER_RUN,
  progressDetails,
  resultOf,
} from './progress';
import type { ReconcileInput, ReconcileResult } from './types';

/** The patch that made reconciliation paged: a run without it (a 1.0 history) runs in one pass. */
export const RECONCILE_PAGES_PATCH = 'reconcile-pages';

export async function reconcileWorkflow(input: ReconcileInput): Promise<ReconcileResult> {
  if (!patched(RECONCILE_PAGES_PATCH)) return await reconcileInOnePass(input);
  const activities = proxyActivities<RampActivities>(
    operatorActivityOptions(input.timings, { heartbeat: true }),
  );
  const pages = {
    ramps: activities.reconcileRampsPage,
    wallets: activities.reconcileWalletsPage,
    unrecorded: activities.reconcileUnrecordedRamps,
    bookings: activities.reconcileBookingsPage,
  };
  const pagesPerRun = input.paging?.pagesPerRun ?? PAGES_PER_RUN;
  let progress = input.carried;
  if (!progress) {
    const runId = workflowInfo().workflowId;
    const startedAt = new Date().toISOString();
    const intervalMs = input.intervalMs ?? INTERVAL_BEFORE_PAGING_MS;
    const { budget } = await activities.beginReconcile({ runId, startedAt, intervalMs });
    progress = newProgress(runId, startedAt, intervalMs, budget);
  }
  for (let page = 0; progress.pass !== 'done'; page += 1) {
    setCurrentDetails(progressDetails(progress));
    if (page === pagesPerRun)
      await continueAsNew<typeof reconcileWorkflow>({
        ...input,
        carried: { ...progress, runs: progress.runs + 1 },
      });
    const result = await pages[progress.pass]({
      progress,
      timings: input.timings,
      startMissing: input.startMissing ?? true,
      ...(input.paging ? { pageSize: input.paging.pageSize } : {}),
    });
    progress = advance(progress, result);
  }
  await activities.finishReconcile(progress);
  setCurrentDetails(progressDetails(progress));
  return resultOf(progress, new Date().toISOString());
}

declareReleaseBehaviour(reconcileWorkflow, 'pinned');
