/**
 * Reconciliation's ledger half: ramps that closed lately without a booked row are booked from their run's result
 * (the database was restored from a backup, say), and booked rows are read again at the operator, their verdict
 * recorded for the statement. Bounded per run: what it does not reach now, the next run does.
 */
import { Context } from '@temporalio/activity';
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { WORKFLOW_TYPES } from '../../../src/domain/ids';
import { errorMessage } from '../../../src/domain/errors';
import type { RampState } from '../../../src/ledger/ramp-views';
import { writeRamp } from '../../../src/ledger/ramps';
import {
  bookingsToCheck,
  compareBooked,
  recordReconciliation,
  resourceKey,
  type ResourceRead,
  unbooked,
} from '../../../src/ledger/reconciliation';
import type { ReconcileFinding } from '../../../workflows/operations/reconcile/types';
import type { OffRampState } from '../../../workflows/ramps/offramp/types';
import type { OnRampState } from '../../../workflows/ramps/onramp/types';
import type { ActivityDeps } from '../../deps';
import * as snapshots from '../../shared/snapshots';

type Deps = Pick<ActivityDeps, 'operator' | 'temporal' | 'ledger'>;

/** How far back reconciliation looks for closed ramps and booked rows: a day covers any outage it should repair. */
export const LEDGER_LOOKBACK_MS = 24 * 60 * 60 * 1000;
/** The largest revision a row can hold (PostgreSQL integer). */
const FINAL_REVISION = 2 ** 31 - 1;
/** Booked rows read again per run: one operator read or two each. */
export const BOOKINGS_PER_RUN = 200;

const closedRampsQuery = (taskQueue: string, since: string) =>
  `TaskQueue = '${taskQueue}' AND WorkflowType IN ('${WORKFLOW_TYPES.onRamp}', '${WORKFLOW_TYPES.offRamp}') ` +
  `AND ExecutionStatus = 'Completed' AND CloseTime > '${since}'`;

/** Writes an open ramp's view as its process holds it now, when the ledger's is missing or older. */
export async function repairRampRow(deps: Deps, ramp: RampState): Promise<void> {
  await writeRamp(deps.ledger, {
    ramp,
    revision: ramp.state.recordedRevision ?? 0,
    raised: [],
    retryForMs: 0,
    at: new Date().toISOString(),
  });
}

async function bookFromResult(deps: Deps, execution: WorkflowExecutionInfo): Promise<void> {
  const handle = deps.temporal.workflow.getHandle(execution.workflowId, execution.runId, {
    followRuns: false,
  });
  const workflowId = execution.workflowId;
  const ramp: RampState =
    execution.type === WORKFLOW_TYPES.onRamp
      ? { direction: 'on-ramp', workflowId, state: (await handle.result()) as OnRampState }
      : { direction: 'off-ramp', workflowId, state: (await handle.result()) as OffRampState };
  const closedAt = (execution.closeTime ?? new Date()).toISOString();
  await writeRamp(deps.ledger, {
    ramp,
    // The run has ended: nothing writes after this, whatever revision it reached.
    revision: FINAL_REVISION,
    raised: [],
    retryForMs: 0,
    at: closedAt,
    closedAt,
  });
}

/** Books the ramps that closed within the lookback without a booked row. */
export async function bookMissing(
  deps: Deps,
  taskQueue: string,
): Promise<{ checked: number; findings: ReconcileFinding[] }> {
  const since = new Date(Date.now() - LEDGER_LOOKBACK_MS).toISOString();
  const findings: ReconcileFinding[] = [];
  let checked = 0;
  let page: WorkflowExecutionInfo[] = [];
  const flush = async () => {
    for (const workflowId of await unbooked(
      deps.ledger,
      page.map((execution) => execution.workflowId),
    )) {
      const execution = page.find((candidate) => candidate.workflowId === workflowId)!;
      await bookFromResult(deps, execution);
      findings.push({
        kind: 'ledger-repaired',
        workflowId,
        subject: `booked row of ${workflowId}`,
        ours: 'absent from the ledger',
        operator: 'closed in Temporal',
        action: "booked from the run's result",
      });
    }
    page = [];
  };
  for await (const execution of deps.temporal.workflow.list({
    query: closedRampsQuery(taskQueue, since),
    pageSize: 100,
  })) {
    Context.current().heartbeat(checked);
    checked += 1;
    page.push(execution);
    if (page.length >= 100) await flush();
  }
  await flush();
  return { checked, findings };
}

async function readAgain(
  deps: Deps,
  resource: { kind: 'order' | 'transaction'; id: string },
): Promise<ResourceRead> {
  try {
    if (resource.kind === 'order') {
      const order = await snapshots.readOrder(deps.operator, resource.id);
      return {
        kind: 'order',
        id: order.id,
        status: order.status,
        amountFrom: order.amountFrom,
        amountTo: order.amountTo,
      };
    }
    const transaction = await snapshots.readTransaction(deps.operator, resource.id);
    return {
      kind: 'transaction',
      id: transaction.id,
      status: transaction.status,
      amount: transaction.amount,
    };
  } catch (error) {
    return { ...resource, error: errorMessage(error) };
  }
}

/** Reads booked rows' resources again at the operator and records each verdict; a difference is a finding. */
export async function checkBookings(deps: Deps): Promise<{ checked: number; findings: ReconcileFinding[] }> {
  const findings: ReconcileFinding[] = [];
  const bookings = await bookingsToCheck(deps.ledger, LEDGER_LOOKBACK_MS, BOOKINGS_PER_RUN);
  for (const [index, booking] of bookings.entries()) {
    Context.current().heartbeat(index);
    const reads = new Map<string, ResourceRead>();
    for (const resource of booking.resources)
      reads.set(resourceKey(resource), await readAgain(deps, resource));
    const verdict = compareBooked(booking.resources, reads);
    await recordReconciliation(deps.ledger, booking.workflowId, verdict);
    if (verdict.reconciled === 'differs')
      findings.push({
        kind: 'booking-differs',
        workflowId: booking.workflowId,
        subject: `booked row of ${booking.workflowId}`,
        ours: 'as booked',
        operator: verdict.reconciliation,
        action: 'recorded in the statement (reconciled: differs)',
      });
  }
  return { checked: bookings.length, findings };
}
