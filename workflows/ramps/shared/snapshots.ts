/**
 * What the on-ramp and off-ramp processes know of the operator's resources: snapshots re-read by ID, and the rank
 * of each status. Workflow-safe: no I/O, no Node built-ins.
 *
 * A webhook is only a trigger: every state change applied comes from a snapshot re-read from the operator by ID.
 * Statuses have a rank and a process only ever moves a resource's status forward, so repeated, late or reordered
 * deliveries (and polls racing them) cannot move anything backwards.
 */
/** The fields of a transaction the processes use (re-read with Get Transaction). Amounts are decimal strings. */
export interface TransactionSnapshot {
  id: string;
  status: string;
  type: string;
  subtype: string | null;
  walletId: string;
  network: string | null;
  asset: string | null;
  amount: string | null;
  relatedTransactionId: string | null;
  orderId: string | null;
  /** The gas the operator reports for it (ASSUMED field); absent from snapshots taken by version 1.0. */
  fee?: { asset: string; amount: string } | null;
  readAt: string;
}

/** The fields of an order the processes use (re-read with Get Order). */
export interface OrderSnapshot {
  id: string;
  orderReference: string;
  status: string;
  direction: string | null;
  coinFrom: string | null;
  coinTo: string | null;
  chainTo: string | null;
  amountFrom: string | null;
  amountTo: string | null;
  transactionId: string | null;
  /**
   * When the operator last changed it (ASSUMED field): its execution time once executed. Absent from snapshots taken
   * by version 1.0.
   */
  updatedAt?: string | null;
  readAt: string;
}

/** Transaction statuses in the order they can follow each other; every failure status outranks them all. */
const TRANSACTION_RANK: Record<string, number> = {
  created: 1,
  published: 2,
  mined: 3,
  confirmed: 4,
  completed: 5,
};
export const TRANSACTION_FAILURES: readonly string[] = [
  'failed',
  'declined',
  'canceled',
  'dropped',
  'expired',
];
const ORDER_RANK: Record<string, number> = { awaiting_funds: 1, executed: 2 };
export const ORDER_FAILURES: readonly string[] = ['expired', 'failed'];
const TERMINAL_RANK = 100;

export function transactionRank(status: string | undefined): number {
  if (status === undefined) return 0;
  if (TRANSACTION_FAILURES.includes(status)) return TERMINAL_RANK;
  return TRANSACTION_RANK[status] ?? 0;
}

export function orderRank(status: string | undefined): number {
  if (status === undefined) return 0;
  if (ORDER_FAILURES.includes(status)) return TERMINAL_RANK;
  return ORDER_RANK[status] ?? 0;
}

export const isConfirmedOrLater = (snapshot: TransactionSnapshot | undefined) =>
  !!snapshot &&
  transactionRank(snapshot.status) >= TRANSACTION_RANK.confirmed! &&
  transactionRank(snapshot.status) < TERMINAL_RANK;
export const isFailedTransaction = (snapshot: TransactionSnapshot | undefined) =>
  !!snapshot && TRANSACTION_FAILURES.includes(snapshot.status);
