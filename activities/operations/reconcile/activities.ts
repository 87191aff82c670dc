/**
 * Reconciliation activities: a run's start (its budget) and end, and one page of each pass (open ramps, deposit
 * wallets, ramps the ledger lacks, booked rows), each recording its findings in the ledger as it finds them and raising the
 * alert of funds no open off-ramp accounts for. The three activities of a run in one pass (started before paging)
 * remain for such runs, each walking its whole pass.
 */
import { Context } from '@temporalio/activity';
import { errorMessage } from '../../../src/domain/errors';
import type { WorkflowTimings } from '../../../src/domain/timings';
import { bookingsToCheck } from '../../../src/ledger/reconciliation';
import { beginRun, recordFindings, recordProgress } from '../../../src/ledger/reconcile-runs';
import { openRampsAfter, walletsDueAfter } from '../../../src/ledger/reconcile-pages';
import { visibilityLiteral } from '../../../src/temporal/visibility';
import {
  countFound,
  unaccountedFundsAlert,
  unreadableProcess,
} from '../../../workflows/operations/reconcile/findings';
import {
  advance,
  INTERVAL_BEFORE_PAGING_MS,
  newProgress,
} from '../../../workflows/operations/reconcile/progress';
import type {
  PageCursor,
  PageInput,
  PageResult,
  ReconcileFinding,
  ReconcilePass,
  ReconcileProgress,
} from '../../../workflows/operations/reconcile/types';
import type { ActivityDeps } from '../../deps';
import { createAlertActivities } from '../alerts/activities';
import { createHop } from '../../../src/routing/hop';
import { snapshotReads } from '../../shared/snapshots';
import { callBudget, walletsDue } from './checks';
import { checkWallet, WALLET_CALLS_AT_MOST, type WalletCheck } from './deposit-wallets';
import {
  BOOKING_CALLS_AT_MOST,
  BOOKINGS_PER_RUN,
  recordMissing,
  checkBooking,
  LEDGER_LOOKBACK_MS,
} from './ledger';
import { checkOpenRamp, RAMP_CALLS_AT_MOST, type RampCheck } from './open-ramps';
import { PAGE_SIZE, type PageHeartbeat, type PageWork, runPage } from './pages';

/** The worker's task queue, checked to stand in a visibility query. */
const taskQueueLiteral = () => visibilityLiteral(Context.current().info.taskQueue, 'task queue name');

/** Where an earlier attempt of this page got to (its last heartbeat). */
const resumed = () => Context.current().info.heartbeatDetails as PageHeartbeat | undefined;

type RecordFindings = PageWork<unknown>['record'];

export function createReconcileActivities(deps: ActivityDeps) {
  const hop = createHop({
    reads: snapshotReads(deps.operator),
    temporal: deps.temporal,
    logger: deps.logger,
  });
  const place = () => ({ taskQueue: Context.current().info.taskQueue });
  const rampCheck = (timings: WorkflowTimings): RampCheck => ({ deps, hop, place: place(), timings });
  const walletCheck = (input: { timings: WorkflowTimings; startMissing: boolean }, transactions: boolean) =>
    ({
      deps,
      hop,
      place: place(),
      timings: input.timings,
      startMissing: input.startMissing,
      listing: { transactions },
    }) satisfies WalletCheck;

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

  /** A page of a pass: `resume` is where an earlier attempt of it got to. */
  type Page = (input: PageInput, record: RecordFindings, resume?: PageHeartbeat) => Promise<PageResult>;
  const common = (input: PageInput, record: RecordFindings, resume: PageHeartbeat | undefined) => ({
    after: input.progress.cursor,
    pageSize: input.pageSize ?? PAGE_SIZE,
    budgetLeft: input.progress.budget - input.progress.operatorCalls,
    record,
    resume,
  });

  const rampsPage: Page = (input, record, resume) => {
    const check = rampCheck(input.timings);
    return runPage({
      ...common(input, record, resume),
      callsAtMost: RAMP_CALLS_AT_MOST,
      load: (after, limit) => openRampsAfter(deps.ledger, after, limit),
      cursorOf: (ramp) => ramp.cursor,
      check: (ramp) => checkOpenRamp(check, ramp),
      unreadable: (ramp, error) => unreadableProcess(ramp.workflowId, errorMessage(error)),
    });
  };

  const walletsPage: Page = async (input, record, resume) => {
    const check = walletCheck(input, input.progress.transactionListing);
    const due = walletsDue(input.progress.startedAt, input.progress.intervalMs);
    const page = await runPage({
      ...common(input, record, resume),
      callsAtMost: WALLET_CALLS_AT_MOST,
      load: (after, limit) => walletsDueAfter(deps.ledger, due, after, limit),
      cursorOf: (wallet) => wallet.cursor,
      check: (wallet) => checkWallet(check, wallet),
      unreadable: (wallet, error) => unreadableProcess(wallet.workflowId, errorMessage(error)),
    });
    return { ...page, transactionListing: check.listing.transactions };
  };

  const bookingsPage: Page = async (input, record, resume) => {
    const left = BOOKINGS_PER_RUN - input.progress.checked.bookings;
    const page = await runPage({
      ...common(input, record, resume),
      pageSize: Math.min(input.pageSize ?? PAGE_SIZE, left),
      callsAtMost: BOOKING_CALLS_AT_MOST,
      // A row this run checked leaves the selection: the cursor only marks how far the page got.
      load: (_after, limit) =>
        bookingsToCheck(deps.ledger, LEDGER_LOOKBACK_MS, input.progress.startedAt, limit),
      cursorOf: (booking): PageCursor => ({ at: booking.closedAt, id: booking.workflowId }),
      check: (booking) => checkBooking(deps, booking),
      unreadable: (booking, error) => unreadableProcess(booking.workflowId, errorMessage(error)),
    });
    return page.checked >= left ? { ...page, cursor: null } : page;
  };

  /** A run in one pass (started before paging): every page of a pass in this one activity, its findings answered. */
  async function wholePass(
    pass: ReconcilePass,
    input: { timings: WorkflowTimings; startMissing?: boolean },
    page: Page,
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

  return {
    /** Records a run's start; answers its budget of operator calls (its interval's, less what other runs spent). */
    async beginReconcile(input: { runId: string; startedAt: string; intervalMs: number }) {
      const { budget: _budget, ...progress } = newProgress(input.runId, input.startedAt, input.intervalMs, 0);
      return { budget: await beginRun(deps.ledger, progress, callBudget(input.intervalMs)) };
    },

    /** A page of open ramps, oldest first: each re-read at the operator and compared with the ledger. */
    async reconcileRampsPage(input: PageInput): Promise<PageResult> {
      await recordProgress(deps.ledger, input.progress);
      return rampsPage(input, recordIn(input.progress.runId), resumed());
    },

    /** A page of the deposit wallets due a check, most recently active first. */
    async reconcileWalletsPage(input: PageInput): Promise<PageResult> {
      await recordProgress(deps.ledger, input.progress);
      return walletsPage(input, recordIn(input.progress.runId), resumed());
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
      return bookingsPage(input, recordIn(input.progress.runId), resumed());
    },

    /** Records the run's end and where it stood. */
    async finishReconcile(progress: ReconcileProgress): Promise<void> {
      await recordProgress(deps.ledger, progress, true);
    },

    // ---- a run in one pass (started before paging)

    async reconcileOpenProcesses(input: { timings: WorkflowTimings }) {
      const { checked, findings } = await wholePass('ramps', input, rampsPage);
      return { checked, findings };
    },

    async reconcileDepositWallets(input: { timings: WorkflowTimings; startMissing: boolean }) {
      return await wholePass('wallets', input, walletsPage);
    },

    async reconcileLedger(input: { timings: WorkflowTimings }) {
      const missing = await recordMissing(deps, taskQueueLiteral());
      const checked = await wholePass('bookings', input, bookingsPage);
      return {
        rampsListed: missing.checked,
        bookingsChecked: checked.checked,
        findings: [...missing.findings, ...checked.findings],
      };
    },
  };
}
