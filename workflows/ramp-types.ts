/**
 * Types and pure rules of the on-ramp and off-ramp processes (issue 5). Workflow-safe: no I/O, no Node built-ins.
 *
 * A webhook is only a trigger: every state change applied here comes from a snapshot re-read from the operator by
 * ID. Statuses have a rank and a process only ever moves a resource's status forward, so repeated, late or
 * reordered deliveries (and polls racing them) cannot move anything backwards.
 */
import type { WorkflowTimings } from './types';

// ---------------------------------------------------------------------------------------------- snapshots

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
  readAt: string;
}

// ---------------------------------------------------------------------------------------------- status ranks

/** Transaction statuses in the order they can follow each other; every failure status outranks them all. */
const TRANSACTION_RANK: Record<string, number> = {
  created: 1,
  published: 2,
  mined: 3,
  confirmed: 4,
  completed: 5,
};
export const TRANSACTION_FAILURES: readonly string[] = ['failed', 'declined', 'canceled', 'dropped', 'expired'];
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

/** The newer of two snapshots of one resource by status rank; equal ranks keep the current one (dedup). */
export function newerTransaction(current: TransactionSnapshot | undefined, next: TransactionSnapshot): TransactionSnapshot {
  if (!current) return next;
  if (transactionRank(next.status) > transactionRank(current.status)) return next;
  // Same status: keep the status, take links that appeared since (a sweep links its order later).
  return {
    ...current,
    relatedTransactionId: current.relatedTransactionId ?? next.relatedTransactionId,
    orderId: current.orderId ?? next.orderId,
  };
}

export function newerOrder(current: OrderSnapshot | undefined, next: OrderSnapshot): OrderSnapshot {
  if (!current) return next;
  if (orderRank(next.status) > orderRank(current.status)) return next;
  return { ...current, transactionId: current.transactionId ?? next.transactionId };
}

export const isConfirmedOrLater = (snapshot: TransactionSnapshot | undefined) =>
  !!snapshot && transactionRank(snapshot.status) >= TRANSACTION_RANK.confirmed! && transactionRank(snapshot.status) < TERMINAL_RANK;
export const isFailedTransaction = (snapshot: TransactionSnapshot | undefined) =>
  !!snapshot && TRANSACTION_FAILURES.includes(snapshot.status);

// ---------------------------------------------------------------------------------------------- routing

/** ASSUMED kinds (src/operator/assumptions.ts TRANSACTION_KINDS), repeated here because workflows import no Node code. */
export const KINDS = {
  deposit: 'Deposit',
  gasTopUp: 'Internal Transfer',
  sweep: 'AutoSweep',
  orderSettlement: 'AutoSwap',
} as const;

export type TransactionRoute =
  | { kind: 'offramp'; depositTransactionId: string; role: OffRampRole }
  | { kind: 'onramp-order'; orderId: string }
  | { kind: 'unroutable'; reason: string };

export type OffRampRole = 'deposit' | 'gasTopUp' | 'sweep' | 'orderTransaction';

/**
 * Where a transaction belongs, from its re-read details:
 * - a Deposit that carries an orderId is the on-ramp's crypto deposit to the master wallet (the order names its reference);
 * - any other Deposit starts (and keys) an off-ramp;
 * - a gas top-up, a sweep or an AutoSwap order transaction points at its deposit through relatedTransactionId.
 */
export function routeTransaction(tx: TransactionSnapshot): TransactionRoute {
  if (tx.type === KINDS.deposit) {
    if (tx.orderId) return { kind: 'onramp-order', orderId: tx.orderId };
    return { kind: 'offramp', depositTransactionId: tx.id, role: 'deposit' };
  }
  const role: OffRampRole | undefined =
    tx.type === KINDS.gasTopUp ? 'gasTopUp' : tx.type === KINDS.sweep ? 'sweep' : tx.type === KINDS.orderSettlement ? 'orderTransaction' : undefined;
  if (!role) return { kind: 'unroutable', reason: `transaction type ${tx.type} belongs to no ramp process` };
  if (!tx.relatedTransactionId) return { kind: 'unroutable', reason: `${tx.type} transaction has no relatedTransactionId` };
  return { kind: 'offramp', depositTransactionId: tx.relatedTransactionId, role };
}

// ---------------------------------------------------------------------------------------------- webhook router (transaction/<id>, order/<id>)

export type ResourceKind = 'transaction' | 'order';

/** What the receiver hands to Temporal: the event as delivered (a hint only). No secrets, no URL. */
export interface WebhookEventSignal {
  eventType: string;
  resourceId: string;
  newStatus?: string;
  orderReference?: string;
  receivedAt: string;
}

export interface RouterInput {
  kind: ResourceKind;
  resourceId: string;
  timings: WorkflowTimings;
}

/** A forward's answer: the process it reached, or how that process had already ended (it is never run again). */
export interface ForwardOutcome {
  workflowId: string;
  closed?: { executionStatus: string; status: string | null; closedAt: string | null };
}

/** An event whose process had already ended: recorded on the router, changes nothing. */
export interface LateEvent {
  workflowId: string;
  /** The process's own final status (RampStatus), or its Temporal status when it has none. */
  processStatus: string;
  /** The resource's status re-read from the operator when the event came. */
  resourceStatus: string;
  at: string;
}

export interface RouterState {
  /** The last operator read that failed (the process keeps going and tries again), for people looking in. */
  lastFailure?: { what: string; message: string; at: string };
  kind: ResourceKind;
  resourceId: string;
  eventsReceived: number;
  /** Deliveries that changed nothing (same status as already forwarded). */
  duplicates: number;
  lastStatus?: string;
  forwardedTo: string[];
  unroutable?: string;
  events: WebhookEventSignal[];
  /** Events for processes that had already ended (the process is not started again). */
  lateEvents?: LateEvent[];
  /** The operator answered 404 for this resource: since when, how many reads, and when the router gave up. */
  unknownResource?: { firstNotFoundAt: string; reads: number; gaveUpAt?: string; eventsDropped?: number };
}

/** RampStatus of a router that gave up on a resource the operator does not know (counted in metrics). */
export const UNKNOWN_RESOURCE_STATUS = 'unknown-resource';

// ---------------------------------------------------------------------------------------------- ramp processes

export interface RampProcessSettings {
  timings: WorkflowTimings;
}

export type OffRampStatus =
  | 'awaiting-deposit-confirmation'
  | 'awaiting-sweep'
  | 'awaiting-sweep-confirmation'
  | 'awaiting-settlement'
  | 'stuck'
  | 'settled'
  | 'failed'
  | 'timed-out';

export interface OffRampInput extends RampProcessSettings {
  depositTransactionId: string;
}

export interface GasCheck {
  gasWalletId: string | null;
  network: string;
  asset: string;
  balance: string | null;
  minimum: string;
  shortfall: boolean;
  checkedAt: string;
  error?: string;
}

export interface OffRampState {
  /** The last operator read that failed (the process keeps going and tries again), for people looking in. */
  lastFailure?: { what: string; message: string; at: string };
  depositTransactionId: string;
  status: OffRampStatus;
  /** Human-readable step, also the Web UI's current details. */
  step: string;
  endUserId: string | null;
  /** True when no end-user workflow owns the deposit wallet. */
  unattributed: boolean;
  deposit?: TransactionSnapshot;
  gasTopUp?: TransactionSnapshot;
  sweep?: TransactionSnapshot;
  orderTransaction?: TransactionSnapshot;
  order?: OrderSnapshot;
  fiatAmount?: string;
  fiatCurrency?: string;
  orderId?: string;
  failure?: { transactionId: string; role: OffRampRole | 'order'; status: string };
  gasCheck?: GasCheck;
  alertsRaised: number;
  stuckSince?: string;
  eventsApplied: number;
  duplicates: number;
  polls: number;
  startedAt: string;
  endedAt?: string;
}

export interface OffRampTransactionSignal {
  role: OffRampRole;
  transaction: TransactionSnapshot;
}

export type OnRampStatus =
  | 'awaiting-order'
  | 'awaiting-execution'
  | 'awaiting-deposit'
  | 'awaiting-confirmation'
  | 'settled'
  | 'expired'
  | 'failed'
  | 'timed-out';

export interface OnRampQuoteShown {
  targetAmount: string;
  expiresAt: string;
  amountFrom?: string;
  coinTo?: string;
  chainTo?: string;
}

export interface OnRampInput extends RampProcessSettings {
  orderReference: string;
  endUserId?: string;
  /** RampEndUserId: the end user's pseudonym with payload encryption (typed client); absent: endUserId. */
  endUserSearchValue?: string;
  quote?: OnRampQuoteShown;
}

export interface OnRampState {
  /** The last operator read that failed (the process keeps going and tries again), for people looking in. */
  lastFailure?: { what: string; message: string; at: string };
  orderReference: string;
  status: OnRampStatus;
  step: string;
  endUserId: string | null;
  /** True when the process was started by an order event for a reference no client call announced. */
  unattributed: boolean;
  quote?: OnRampQuoteShown;
  order?: OrderSnapshot;
  deposit?: TransactionSnapshot;
  cryptoAmount?: string;
  asset?: string;
  failure?: { resource: 'order' | 'transaction'; id: string; status: string };
  eventsApplied: number;
  duplicates: number;
  polls: number;
  startedAt: string;
  endedAt?: string;
}

export interface OnRampAttribution {
  endUserId: string;
  /** RampEndUserId: the end user's pseudonym with payload encryption (typed client); absent: endUserId. */
  endUserSearchValue?: string;
  quote?: OnRampQuoteShown;
}

export interface UnknownEventRecord {
  eventType: string;
  resourceId: string | null;
  kindPath: ResourceKind;
  receivedAt: string;
  /** The payload's keys only: an unknown payload is not trusted into history whole. */
  payloadKeys: string[];
}

export interface AlertInput {
  /**
   * Stranded deposits and timeouts (ramp processes), the gas monitor's `gas-low`, reconciliation's
   * `unaccounted-funds`, wallets the operator may hold besides the one shown (`extra-wallet`), and money that moved
   * after its process gave up (`late-event-after-timeout`).
   */
  kind: 'gas-shortfall' | 'sweep-not-started' | 'process-timed-out' | 'gas-low' | 'unaccounted-funds' | 'extra-wallet' | 'late-event-after-timeout';
  message: string;
  workflowId: string;
  details: Record<string, string | number | boolean | null>;
}

/** Workflow IDs (readable in the Web UI). */
export const offRampWorkflowId = (depositTransactionId: string) => `offramp/${depositTransactionId}`;
export const onRampWorkflowId = (orderReference: string) => `onramp/${orderReference}`;
export const routerWorkflowId = (kind: ResourceKind, resourceId: string) => `${kind}/${resourceId}`;
export const UNKNOWN_EVENTS_WORKFLOW_ID = 'webhooks/unknown-events';
