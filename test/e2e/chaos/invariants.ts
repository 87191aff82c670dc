/**
 * The invariants the chaos suite asserts, as pure functions over what it reads from the outside (Temporal
 * visibility, the product's HTTP API and typed client, the sandbox operator's own records). Kept apart from the
 * traffic so each rule can be checked against hand-made inputs (invariants.test.ts): a rule that cannot fail
 * proves nothing.
 */
import {
  DEFAULT_ACCOUNT_SETUP_WORKFLOW_ID,
  depositTransactionIdFromWorkflowId,
  endUserIdFromWorkflowId,
  orderReferenceFromWorkflowId,
} from '../../../src/domain/ids';

/** One execution of a workflow ID, as Temporal visibility lists it. */
export interface RunInfo {
  workflowId: string;
  runId: string;
  type: string;
  /** WorkflowExecutionStatus name: RUNNING, COMPLETED, CONTINUED_AS_NEW, FAILED, TIMED_OUT, TERMINATED... */
  status: string;
  startTime: Date;
  closeTime: Date | undefined;
  /** The RampStatus search attribute (each process publishes its status there). */
  rampStatus: string | undefined;
}

/** Workflow IDs that name one business process and must have exactly one run (a continue-as-new chain is one). */
export const isProcessId = (workflowId: string): boolean =>
  depositTransactionIdFromWorkflowId(workflowId) !== undefined ||
  orderReferenceFromWorkflowId(workflowId) !== undefined ||
  endUserIdFromWorkflowId(workflowId) !== undefined ||
  workflowId === DEFAULT_ACCOUNT_SETUP_WORKFLOW_ID;

export function groupRuns(runs: readonly RunInfo[]): Map<string, RunInfo[]> {
  const byId = new Map<string, RunInfo[]>();
  for (const run of runs) {
    const list = byId.get(run.workflowId) ?? [];
    list.push(run);
    byId.set(run.workflowId, list);
  }
  for (const list of byId.values()) list.sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
  return byId;
}

/**
 * How many separate processes ran under one workflow ID. A run that continued as new hands over to the next run of
 * the same chain, so only the runs that did not continue as new are counted: one chain, however long, counts one.
 */
export function processCount(runs: readonly RunInfo[]): number {
  return runs.filter((run) => run.status !== 'CONTINUED_AS_NEW').length;
}

export interface DuplicateFinding {
  workflowId: string;
  runs: RunInfo[];
}

/** Process IDs (not the routers) with more than one process run. */
export function findDuplicateRuns(byId: ReadonlyMap<string, RunInfo[]>): DuplicateFinding[] {
  const found: DuplicateFinding[] = [];
  for (const [workflowId, runs] of byId) {
    if (isProcessId(workflowId) && processCount(runs) > 1) found.push({ workflowId, runs });
  }
  return found.sort((a, b) => a.workflowId.localeCompare(b.workflowId));
}

/** Extra runs in total (a process with 3 runs counts 2). */
export const duplicateRunCount = (findings: readonly DuplicateFinding[]): number =>
  findings.reduce((sum, finding) => sum + processCount(finding.runs) - 1, 0);

export type ExpectedEnd =
  /** An on-ramp or off-ramp: some run completed with this RampStatus. */
  | { kind: 'closed'; status: string }
  /** A long-lived process (end-user/<id>): its current run is running and shows this RampStatus. */
  | { kind: 'running'; status: string };

/** Whether the process reached its expected end, in any of its runs. */
export function reachedEnd(expected: ExpectedEnd, runs: readonly RunInfo[] | undefined): boolean {
  if (!runs || runs.length === 0) return false;
  if (expected.kind === 'closed')
    return runs.some((run) => run.status === 'COMPLETED' && run.rampStatus === expected.status);
  return runs.some((run) => run.status === 'RUNNING' && run.rampStatus === expected.status);
}

/** A one-line account of a process's runs, for findings. */
export function describeRuns(runs: readonly RunInfo[] | undefined): string {
  if (!runs || runs.length === 0) return 'no run at all';
  return runs
    .map(
      (run) =>
        `${run.status.toLowerCase()}${run.rampStatus ? `/${run.rampStatus}` : ''} started ${run.startTime.toISOString()}${run.closeTime ? ` closed ${run.closeTime.toISOString()}` : ''}`,
    )
    .join('; ');
}

/**
 * The extra operator wallets an end user's state accounts for: the orphans whose IDs it learned and the creation
 * requests its wallet journal knows were sent without a usable answer. This is the one place to adapt when the end
 * user's state gains another way of recording them: add the field's path here.
 */
export const RECORDED_EXTRA_WALLET_FIELDS: readonly (readonly string[])[] = [
  ['orphanWallets'],
  ['walletJournal', 'unconfirmed'],
];

export function recordedExtraWallets(state: unknown): number {
  return RECORDED_EXTRA_WALLET_FIELDS.reduce((sum, path) => {
    const value = path.reduce<unknown>(
      (at, name) =>
        typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[name] : undefined,
      state,
    );
    return sum + (Array.isArray(value) ? value.length : 0);
  }, 0);
}

/** Operator wallets of one end user beyond the first that its state does not account for (never negative). */
export function unrecordedWallets(operatorWalletCount: number, state: unknown): number {
  return Math.max(0, operatorWalletCount - 1 - recordedExtraWallets(state));
}

/** The end user a process's state names, or null (an unattributed process). */
export function stateEndUserId(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const value = (state as Record<string, unknown>).endUserId;
  return typeof value === 'string' ? value : null;
}

/** The end user an operator wallet belongs to, from its label (`end-user:<id>`), or null for any other wallet. */
export function ownerOfLabel(externalUserId: string | undefined): string | null {
  return externalUserId?.startsWith('end-user:') ? externalUserId.slice('end-user:'.length) : null;
}

// ------------------------------------------------------------------------------------------------ deliveries

/** An event as the sandbox operator lists it (GET /sandbox/v1/events). */
export interface SandboxEventRecord {
  id: string;
  eventType: string;
  resourceId: string;
  time: string;
}
/** One delivery attempt as the sandbox operator lists it (GET /sandbox/v1/deliveries). */
export interface SandboxDeliveryRecord {
  deliveryId: string;
  eventId: string;
  eventType: string;
  resourceId: string;
  attempt: number;
  time: string;
  outcome: 'delivered' | 'failed' | 'gave-up' | 'dropped' | 'canceled';
  final: boolean;
  duplicateOf?: string;
  fault?: string;
}

/**
 * Deliveries not over yet: events with no delivery record at all (held by the delay or reorder fault, or queued)
 * and deliveries whose last record is not final (a retry is due). Each event goes to one recipient of its kind.
 */
export function countPendingDeliveries(
  events: readonly SandboxEventRecord[],
  deliveries: readonly SandboxDeliveryRecord[],
): number {
  const finals = new Set(deliveries.filter((record) => record.final).map((record) => record.deliveryId));
  const byEvent = new Map<string, Set<string>>();
  for (const record of deliveries)
    byEvent.set(record.eventId, (byEvent.get(record.eventId) ?? new Set()).add(record.deliveryId));
  let pending = 0;
  for (const event of events) {
    const ids = byEvent.get(event.id);
    if (!ids) pending += 1;
    else for (const id of ids) if (!finals.has(id)) pending += 1;
  }
  return pending;
}
