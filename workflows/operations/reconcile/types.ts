/** ops/reconcile: the reconciliation's input, findings and result. */
import type { WorkflowTimings } from '../../../src/domain/timings';

export interface ReconcileInput {
  timings: WorkflowTimings;
  /** Start an off-ramp for a deposit no process knows about (default true). */
  startMissing?: boolean;
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
  startedAt: string;
  finishedAt: string;
  processesChecked: number;
  walletsChecked: number;
  /** False when the operator does not serve the (ASSUMED) wallet-transactions list: balances only. */
  transactionListing: boolean;
  /** Closed ramps checked for a booked row, and booked rows read again at the operator (runs from before 1.1: absent). */
  ledger?: { closedChecked: number; bookingsChecked: number };
  findings: ReconcileFinding[];
}
