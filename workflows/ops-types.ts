/**
 * Types and pure rules of the operations workflows (issue 6): the alerts incident store, the gas-wallet monitor and
 * reconciliation. Workflow-safe: no I/O, no Node built-ins.
 */
import type { AlertInput, GasCheck } from './ramp-types';
import type { WorkflowTimings } from './types';

export const ALERTS_WORKFLOW_ID = 'ops/alerts';

// ---------------------------------------------------------------------------------------------- incidents

/**
 * One incident per key: kind + deposit (a stranded deposit), kind + wallet + network (funds nobody accounts for),
 * or kind + network (the gas wallet). A second raise with the same key only updates `lastSeen`.
 */
export function incidentKey(kind: string, details: AlertInput['details']): string {
  const text = (name: string) => (typeof details[name] === 'string' && details[name] !== '' ? (details[name]) : null);
  const deposit = text('depositTransactionId');
  if (deposit) return `${kind}/deposit/${deposit}`;
  const wallet = text('walletId');
  const network = text('network');
  if (wallet) return `${kind}/wallet/${wallet}${network ? `/${network}` : ''}`;
  if (network) return `${kind}/${network}`;
  // A wallet's owner (end-user/<id>, account-setup) or a closed process: one incident each.
  const owner = text('walletOwner') ?? text('process');
  if (owner) return `${kind}/${owner}`;
  return kind;
}

export interface Incident {
  key: string;
  kind: AlertInput['kind'];
  network: string | null;
  depositTransactionId: string | null;
  message: string;
  /** The workflow that raised it first, and the one that raised it last. */
  workflowId: string;
  lastWorkflowId: string;
  details: AlertInput['details'];
  firstSeen: string;
  lastSeen: string;
  occurrences: number;
  /** The raise that opened it: its retries notify again (the webhook may have failed), nobody else does. */
  openedBy: string;
}

export interface ResolvedIncident extends Incident {
  resolvedAt: string;
  resolution: string;
  resolvedBy: string;
}

export interface AlertsState {
  open: Incident[];
  /** The last RESOLVED_KEPT resolved incidents, newest first. */
  recentlyResolved: ResolvedIncident[];
  raisedTotal: number;
  resolvedTotal: number;
  runs: number;
  since: string;
}

export const RESOLVED_KEPT = 50;

export interface AlertsInput {
  carried?: Omit<AlertsState, 'runs'> & { runs: number };
}

export interface RaiseAlertRequest extends AlertInput {
  key: string;
  /** workflowId/runId/activityId of the raising activity: the same across its retries. */
  requestId: string;
}

export interface RaiseAlertAnswer {
  key: string;
  isNew: boolean;
  /** True for the raise that opened the incident (and its retries): only it notifies the sinks. */
  notify: boolean;
  occurrences: number;
}

export interface ResolveAlertRequest {
  key: string;
  requestId: string;
  resolution: string;
}

export interface ResolveAlertAnswer {
  key: string;
  wasOpen: boolean;
  notify: boolean;
  incident?: Incident;
}

// ---------------------------------------------------------------------------------------------- gas monitor

export interface GasMonitorInput {
  timings: WorkflowTimings;
  /** Networks whose native balance is checked; default Ethereum and Tron. */
  networks?: string[];
  /** The gas wallet must cover this many Autoswaps at `autoswapCosts` (0: the minimum only). */
  autoswapsAhead: number;
  /** Native asset -> what one Autoswap costs the gas wallet (decimal string). */
  autoswapCosts: Record<string, string>;
}

export interface GasAssessment extends GasCheck {
  costPerAutoswap: string | null;
  autoswapsAhead: number;
  /** max(minimum, costPerAutoswap x autoswapsAhead). */
  required: string;
  low: boolean;
  reason: 'below-minimum' | 'below-autoswaps-ahead' | 'no-address' | null;
}

export interface GasMonitorResult {
  checkedAt: string;
  networks: Array<GasAssessment & { alert: 'raised' | 'already-open' | 'resolved' | 'none' | 'skipped' }>;
}

export const DEFAULT_GAS_NETWORKS = ['networks/ethereum-mainnet', 'networks/tron-mainnet'];

// ---------------------------------------------------------------------------------------------- reconciliation

export interface ReconcileInput {
  timings: WorkflowTimings;
  /** Start an off-ramp for a deposit no process knows about (default true). */
  startMissing?: boolean;
}

export type ReconcileFindingKind = 'status-mismatch' | 'unknown-deposit' | 'unaccounted-funds' | 'unreadable';

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
  findings: ReconcileFinding[];
}

/** Plain-text table of findings, for the CLI and the Web UI's current details. */
export function findingsTable(findings: ReconcileFinding[]): string {
  if (findings.length === 0) return 'No findings: every open process matches the operator, no unaccounted funds.';
  const rows = [['kind', 'subject', 'ours', 'operator', 'action', 'workflow'], ...findings.map((f) => [f.kind, f.subject, f.ours, f.operator, f.action, f.workflowId ?? '-'])];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}
