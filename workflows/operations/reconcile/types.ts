/** ops/reconcile: the reconciliation's input, progress, pages, findings and result. */
import type { WorkflowTimings } from '../../../src/domain/timings';

export interface ReconcileInput {
  timings: WorkflowTimings;
  /** Start an off-ramp for a deposit no process knows about (default true). */
  startMissing?: boolean;
  /**
   * RECONCILE_INTERVAL: the budget of operator calls is counted per interval, and quiet wallets come due a day after
   * their last check less one interval. Absent from the inputs of runs started before paging: an hour.
   */
  intervalMs?: number;
  /** Smaller pages and runs than the defaults (tests that walk several pages and continue-as-new with a few rows). */
  paging?: { pageSize: number; pagesPerRun: number };
  /** Where the run stands, carried over by continue-as-new. */
  carried?: ReconcileProgress;
}

/**
 * The passes of a run, in order: open ramps (oldest first), end users' deposit wallets (most recently active first),
 * ramps Temporal lists lately that the ledger lacks, booked rows read again at the operator.
 */
export type ReconcilePass = 'ramps' | 'wallets' | 'unrecorded' | 'bookings';

/** Where a pass stands: the last ramp or wallet checked, by its page order (a time as PostgreSQL wrote it, an ID). */
export interface PageCursor {
  at: string;
  id: string;
}

export interface ReconcileProgress {
  /** The workflow ID: the run's row and findings in the database. */
  runId: string;
  startedAt: string;
  intervalMs: number;
  /** Operator calls this run may make, and those it made. */
  budget: number;
  operatorCalls: number;
  pass: ReconcilePass | 'done';
  cursor: PageCursor | null;
  checked: { ramps: number; wallets: number; unrecorded: number; bookings: number };
  /** Cleared at the operator's first refusal to list a wallet's transactions: balances only from then on. */
  transactionListing: boolean;
  /** Findings recorded so far, by kind. */
  found: Partial<Record<ReconcileFindingKind, number>>;
  pages: number;
  /** Runs of the chain so far (continue-as-new). */
  runs: number;
  /** The pass the budget ran out in: what it had not reached is left to the next run. */
  stoppedInPass?: ReconcilePass;
}

/** What a page activity is given: the run as it stands (the page's pass, cursor and budget are in it). */
export interface PageInput {
  progress: ReconcileProgress;
  timings: WorkflowTimings;
  startMissing: boolean;
  pageSize?: number;
}

export interface PageResult {
  checked: number;
  /** Where the next page starts; null once the pass has nothing left. */
  cursor: PageCursor | null;
  operatorCalls: number;
  /** Findings this page recorded (a finding recorded again by a retry is not counted twice). */
  found: Partial<Record<ReconcileFindingKind, number>>;
  /** The budget left no room for the next item: the run ends here. */
  budgetReached: boolean;
  /** The wallet pass's: false once the operator refused to list a wallet's transactions. */
  transactionListing?: boolean;
}

export type ReconcileFindingKind =
  | 'status-mismatch'
  | 'unknown-deposit'
  | 'unaccounted-funds'
  | 'unreadable'
  | 'ledger-repaired'
  | 'booking-differs';

export interface ReconcileFinding {
  kind: ReconcileFindingKind;
  /** The process concerned (existing or started), if any. */
  workflowId: string | null;
  /** What was compared: e.g. "deposit 123", "order 77", "wallet w1 networks/tron-mainnet USDT". */
  subject: string;
  /** What our process holds, and what the operator answered. */
  ours: string;
  operator: string;
  /** What reconciliation did about it. */
  action: string;
  endUserId?: string | null;
  walletId?: string;
  network?: string;
  asset?: string;
  amount?: string;
}

export interface ReconcileResult {
  /** The workflow ID its findings are recorded under (absent from a run that returned its findings itself). */
  runId?: string;
  startedAt: string;
  finishedAt: string;
  processesChecked: number;
  walletsChecked: number;
  /** False when the operator does not serve the (ASSUMED) wallet-transactions list: balances only. */
  transactionListing: boolean;
  /**
   * Ramps Temporal listed within the lookback, checked for their ledger row, and booked rows read again at the
   * operator (runs from before 1.1: absent).
   */
  ledger?: { rampsListed: number; bookingsChecked: number };
  /** How many findings of each kind; a paged run's findings are in the database (`npm run reconcile` lists them). */
  found: Partial<Record<ReconcileFindingKind, number>>;
  /** A paged run's operator calls against its budget, its pages and its runs (continue-as-new). */
  operatorCalls?: number;
  budget?: number;
  pages?: number;
  runs?: number;
  /** The pass the budget ran out in: the next run checks first what this one did not reach. */
  stoppedInPass?: ReconcilePass;
  /** A run in one pass (started before paging) returns its findings themselves. */
  findings?: ReconcileFinding[];
}
