/**
 * Reconciliation activities: a run's start (its budget) and end, and one page of each pass (open ramps, deposit
 * wallets, ramps the ledger lacks, booked rows), each recording its findings in the ledger as it finds them and raising the
 * alert of funds no open off-ramp accounts for. The three activities of a run in one pass (started before paging)
 * remain for such runs, each walking its whole pass.
 */
import { Context } from '@temporalio/activity';
import type { WorkflowTimings } from '../../../src/domain/timings';
import { beginRun, recordFindings, recordProgress } from '../../../src/ledger/reconcile-runs';
import { visibilityLiteral } from '../../../src/temporal/visibility';
import { countFound, unaccountedFundsAlert } from '../../../workflows/operations/reconcile/findings';
import {
  advance,
  INTERVAL_BEFORE_PAGING_MS,
  newProgress,
} from '../../../workflows/operations/reconcile/progress';
import type {
  PageInput,
  PageResult,
  ReconcileFinding,
  ReconcilePass,
  ReconcileProgress,
} from '../../../workflows/operations/reconcile/types';
import type { ActivityDeps } from '../../deps';
import { createAlertActivities } from '../alerts/activities';
import { callBudget } from './checks';
import { recordMissing } from './ledger';
import type { PageHeartbeat } from './pages';
import { createPassPages, type PassPage, type RecordFindings } from './pass-pages';

/** The worker's task queue, checked to stand in a visibility query. */
const taskQueueLiteral = () => visibilityLiteral(Context.current().info.taskQueue, 'task queue name');

/** Where an earlier attempt of this page got to (its last heartbeat). */
const resumed = () => Context.current().info.heartbeatDetails as PageHeartbeat | undefined;

/** A run in one pass (started before paging): every page of a pass in this one activity, its findings answered. */
async function wholePass(
  pass: ReconcilePass,
  input: { timings: WorkflowTimings; startMissing?: boolean },
  page: PassPage,
): Promise<{ checked: number; transactionListing: boolean; findings: ReconcileFinding[] }> {
  const findings: ReconcileFinding[] = [];
  const record: RecordFindings = (more) => {
    findings.push(...more);
    return Promise.resolve(countFound(more));
  };
  const started = new Date().toISOString();
  let progress: ReconcileProgress = {
    ...newProgress('one-pass', started, INTERVAL_BEFORE_PAGING_MS, Number.MAX_SAFE_INTEGER),
    pass,
  };
  let checked = 0;
  do {
    const pageInput = { progress, timings: input.timings, startMissing: input.startMissing ?? true };
    const result = await page(pageInput, record);
    checked += result.checked;
    progress = advance(progress, result);
  } while (progress.pass === pass);
  return { checked, transactionListing: progress.transactionListing, findings };
}

export function createReconcileActivities(deps: ActivityDeps) {
  const pages = createPassPages(deps);

  /** Findings go to the ledger; funds no open off-ramp accounts for raise their alert (the store deduplicates). */
  const recordIn =
    (runId: string): RecordFindings =>
    async (findings) => {
      const found = await recordFindings(deps.ledger, runId, findings);
      for (const finding of findings) {
        if (finding.kind !== 'unaccounted-funds') continue;
        await createAlertActivities(deps, () => `${runId}/${finding.subject}`).raiseAlert(
          unaccountedFundsAlert(finding, runId),
        );
      }
      return found;
    };

  return {
    /** Records a run's start; answers its budget of operator calls (its interval's, less what other runs spent). */
    async beginReconcile(input: { runId: string; startedAt: string; intervalMs: number }) {
      const { budget: _budget, ...progress } = newProgress(input.runId, input.startedAt, input.intervalMs, 0);
      return { budget: await beginRun(deps.ledger, progress, callBudget(input.intervalMs)) };
    },

    /** A page of open ramps, oldest first: each re-read at the operator and compared with the ledger. */
    async reconcileRampsPage(input: PageInput): Promise<PageResult> {
      await recordProgress(deps.ledger, input.progress);
      return pages.ramps(input, recordIn(input.progress.runId), resumed());
    },

    /** A page of the deposit wallets due a check, most recently active first. */
    async reconcileWalletsPage(input: PageInput): Promise<PageResult> {
      await recordProgress(deps.ledger, input.progress);
      return pages.wallets(input, recordIn(input.progress.runId), resumed());
    },

    /** Ramps Temporal lists within the lookback that the ledger lacks, written back (no operator call). */
    async reconcileUnrecordedRamps(input: PageInput): Promise<PageResult> {
      await recordProgress(deps.ledger, input.progress);
      const missing = await recordMissing(deps, taskQueueLiteral());
      const found = await recordIn(input.progress.runId)(missing.findings);
      return { checked: missing.checked, cursor: null, operatorCalls: 0, found, budgetReached: false };
    },

    /** A page of booked rows read again at the operator, their verdicts recorded for the statement. */
    async reconcileBookingsPage(input: PageInput): Promise<PageResult> {
      await recordProgress(deps.ledger, input.progress);
      return pages.bookings(input, recordIn(input.progress.runId), resumed());
    },

    /** Records the run's end and where it stood. */
    async finishReconcile(progress: ReconcileProgress): Promise<void> {
      await recordProgress(deps.ledger, progress, true);
    },

    // ---- a run in one pass (started before paging)

    async reconcileOpenProcesses(input: { timings: WorkflowTimings }) {
      const { checked, findings } = await wholePass('ramps', input, pages.ramps);
      return { checked, findings };
    },

    async reconcileDepositWallets(input: { timings: WorkflowTimings; startMissing: boolean }) {
      return await wholePass('wallets', input, pages.wallets);
    },

    async reconcileLedger(input: { timings: WorkflowTimings }) {
      const missing = await recordMissing(deps, taskQueueLiteral());
      const checked = await wholePass('bookings', input, pages.bookings);
      return {
        rampsListed: missing.checked,
        bookingsChecked: checked.checked,
        findings: [...missing.findings, ...checked.findings],
      };
    },
  };
}
