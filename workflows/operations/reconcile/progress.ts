/**
 * Pure rules of a paged reconciliation run: where it stands after each page, when a pass gives way to the next, what
 * the Web UI shows of it and what it answers. Workflow-safe: no I/O, no Temporal calls.
 */
import type {
  PageResult,
  ReconcileFindingKind,
  ReconcilePass,
  ReconcileProgress,
  ReconcileResult,
} from './types';

/**
 * Pages a run makes before it continues as new. A page is about six history events, so a run stays near three
 * hundred: a worker that restarts mid-run replays it in a moment, and the progress carried over is a few hundred
 * bytes whatever the installed base.
 */
export const PAGES_PER_RUN = 50;

/** The interval of a run whose input names none (started before paging): the schedule's default, an hour. */
export const INTERVAL_BEFORE_PAGING_MS = 60 * 60 * 1000;

const PASSES: readonly ReconcilePass[] = ['ramps', 'wallets', 'unrecorded', 'bookings'];

const CHECKED_OF_PASS = {
  ramps: 'ramps',
  wallets: 'wallets',
  unrecorded: 'unrecorded',
  bookings: 'bookings',
} as const satisfies Record<ReconcilePass, keyof ReconcileProgress['checked']>;

export function newProgress(
  runId: string,
  startedAt: string,
  intervalMs: number,
  budget: number,
): ReconcileProgress {
  return {
    runId,
    startedAt,
    intervalMs,
    budget,
    operatorCalls: 0,
    pass: 'ramps',
    cursor: null,
    checked: { ramps: 0, wallets: 0, unrecorded: 0, bookings: 0 },
    transactionListing: true,
    found: {},
    pages: 0,
    runs: 1,
  };
}

export function addFound(
  into: Partial<Record<ReconcileFindingKind, number>>,
  more: Partial<Record<ReconcileFindingKind, number>>,
): Partial<Record<ReconcileFindingKind, number>> {
  const sum = { ...into };
  for (const [kind, count] of Object.entries(more) as Array<[ReconcileFindingKind, number]>)
    sum[kind] = (sum[kind] ?? 0) + count;
  return sum;
}

/** The run after one page of its current pass: the same pass further on, the next pass, or done. */
export function advance(progress: ReconcileProgress, page: PageResult): ReconcileProgress {
  if (progress.pass === 'done') return progress;
  const pass = progress.pass;
  const checked = { ...progress.checked };
  checked[CHECKED_OF_PASS[pass]] += page.checked;
  const next: ReconcileProgress = {
    ...progress,
    checked,
    operatorCalls: progress.operatorCalls + page.operatorCalls,
    found: addFound(progress.found, page.found),
    pages: progress.pages + 1,
    transactionListing: page.transactionListing ?? progress.transactionListing,
  };
  if (page.budgetReached) return { ...next, pass: 'done', cursor: null, stoppedInPass: pass };
  if (page.cursor) return { ...next, cursor: page.cursor };
  return { ...next, pass: PASSES[PASSES.indexOf(pass) + 1] ?? 'done', cursor: null };
}

const foundText = (found: ReconcileProgress['found']): string => {
  const parts = Object.entries(found)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${count} ${kind}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
};

/** The Web UI's current details of a run: where it stands, what it has checked and found, its budget. */
export function progressDetails(progress: ReconcileProgress): string {
  const state =
    progress.pass === 'done'
      ? progress.stoppedInPass
        ? `stopped in the ${progress.stoppedInPass} pass: operator budget spent`
        : 'done'
      : `checking ${progress.pass}`;
  const { checked } = progress;
  return [
    `Reconciliation since ${progress.startedAt}: ${state} (${progress.pages} pages, run ${progress.runs})`,
    `open ramps ${checked.ramps}, deposit wallets ${checked.wallets}${progress.transactionListing ? '' : ' (balances only)'}, ` +
      `ramps listed for a ledger row ${checked.unrecorded}, booked rows ${checked.bookings}`,
    `operator calls ${progress.operatorCalls} of ${progress.budget}`,
    `findings: ${foundText(progress.found)}${Object.keys(progress.found).length > 0 ? ' (npm run reconcile -- --last lists them)' : ''}`,
  ].join('\n');
}

/** What a paged run answers once done: counts only, its findings being in the database under its run ID. */
export function resultOf(progress: ReconcileProgress, finishedAt: string): ReconcileResult {
  return {
    runId: progress.runId,
    startedAt: progress.startedAt,
    finishedAt,
    processesChecked: progress.checked.ramps,
    walletsChecked: progress.checked.wallets,
    transactionListing: progress.transactionListing,
    ledger: { rampsListed: progress.checked.unrecorded, bookingsChecked: progress.checked.bookings },
    found: progress.found,
    operatorCalls: progress.operatorCalls,
    budget: progress.budget,
    pages: progress.pages,
    runs: progress.runs,
    ...(progress.stoppedInPass ? { stoppedInPass: progress.stoppedInPass } : {}),
  };
}
