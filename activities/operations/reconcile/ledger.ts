/**
 * Reconciliation's ledger passes: ramps Temporal lists lately that the ledger lacks (the database was restored from a
 * backup, say) are written back, and booked rows are read again at the operator, one at a time of a page, their
 * verdict recorded for the statement. Bounded per run: what it does not reach now, the next run does.
 */
import { Context } from '@temporalio/activity';
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { WORKFLOW_TYPES } from '../../../src/domain/ids';
import { errorMessage } from '../../../src/domain/errors';
import type { BookedResource, RampState } from '../../../src/ledger/ramp-views';
import { writeRamp } from '../../../src/ledger/ramps';
import {
  compareBooked,
  recordReconciliation,
  resourceKey,
  type ResourceRead,
  unbooked,
} from '../../../src/ledger/reconciliation';
import { unrecorded } from '../../../src/ledger/reconcile-pages';
import type { ReconcileFinding } from '../../../workflows/operations/reconcile/types';
import { offRampStateQuery } from '../../../workflows/ramps/offramp/messages';
import type { OffRampState } from '../../../workflows/ramps/offramp/types';
import { onRampStateQuery } from '../../../workflows/ramps/onramp/messages';
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
/** The operator reads of one booked row: its order and its deposit. */
export const BOOKING_CALLS_AT_MOST = 2;

/** Ramps of the task queue that Temporal lists as closed, or running, since an instant (a checked literal each). */
const rampsQuery = (taskQueue: string, since: string, running: boolean) =>
  `TaskQueue = '${taskQueue}' AND WorkflowType IN ('${WORKFLOW_TYPES.onRamp}', '${WORKFLOW_TYPES.offRamp}') AND ` +
  (running
    ? `ExecutionStatus = 'Running' AND StartTime > '${since}'`
    : `ExecutionStatus = 'Completed' AND CloseTime > '${since}'`);

/** Writes an open ramp's view as its process holds it now, unless the ledger's is as new. */
export async function repairRampRow(deps: Pick<Deps, 'ledger'>, ramp: RampState): Promise<void> {
  await writeRamp(deps.ledger, {
    ramp,
    revision: ramp.state.recordedRevision ?? 0,
    raised: [],
    retryForMs: 0,
    at: new Date().toISOString(),
  });
}

async function bookFromResult(deps: Deps, execution: WorkflowExecutionInfo): Promise<ReconcileFinding> {
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
  return {
    kind: 'ledger-repaired',
    workflowId,
    subject: `booked row of ${workflowId}`,
    ours: 'absent from the ledger',
    operator: 'closed in Temporal',
    action: "booked from the run's result",
  };
}

async function writeFromState(deps: Deps, execution: WorkflowExecutionInfo): Promise<ReconcileFinding> {
  const handle = deps.temporal.workflow.getHandle(execution.workflowId);
  const workflowId = execution.workflowId;
  const ramp: RampState =
    execution.type === WORKFLOW_TYPES.onRamp
      ? { direction: 'on-ramp', workflowId, state: await handle.query(onRampStateQuery) }
      : { direction: 'off-ramp', workflowId, state: await handle.query(offRampStateQuery) };
  await repairRampRow(deps, ramp);
  return {
    kind: 'ledger-repaired',
    workflowId,
    subject: `view of ${workflowId}`,
    ours: 'absent from the ledger',
    operator: 'running in Temporal',
    action: "written from the process's state",
  };
}

/**
 * The ramps Temporal lists within the lookback that the ledger lacks (its database restored from a backup, say):
 * those closed are booked from their result, those running written from their state (the pages of open ramps list the
 * ledger's, so they would not be found otherwise). A hundred at a time, one read of the ledger each.
 */
export async function recordMissing(
  deps: Deps,
  taskQueue: string,
): Promise<{ checked: number; findings: ReconcileFinding[] }> {
  const since = new Date(Date.now() - LEDGER_LOOKBACK_MS).toISOString();
  const findings: ReconcileFinding[] = [];
  let checked = 0;
  const pass = async (
    running: boolean,
    missing: (ids: string[]) => Promise<string[]>,
    repair: (execution: WorkflowExecutionInfo) => Promise<ReconcileFinding>,
  ) => {
    let page: WorkflowExecutionInfo[] = [];
    const flush = async () => {
      const lacking = new Set(await missing(page.map((execution) => execution.workflowId)));
      for (const execution of page)
        if (lacking.has(execution.workflowId)) findings.push(await repair(execution));
      page = [];
    };
    for await (const execution of deps.temporal.workflow.list({
      query: rampsQuery(taskQueue, since, running),
      pageSize: 100,
    })) {
      Context.current().heartbeat(checked);
      checked += 1;
      page.push(execution);
      if (page.length >= 100) await flush();
    }
    await flush();
  };
  await pass(
    false,
    (ids) => unbooked(deps.ledger, ids),
    (execution) => bookFromResult(deps, execution),
  );
  await pass(
    true,
    (ids) => unrecorded(deps.ledger, ids),
    (execution) => writeFromState(deps, execution),
  );
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

/** A booked row's resources read again at the operator, its verdict recorded; a difference is a finding. */
export async function checkBooking(
  deps: Deps,
  booking: { workflowId: string; resources: BookedResource[] },
): Promise<ReconcileFinding[]> {
  const reads = new Map<string, ResourceRead>();
  for (const resource of booking.resources) reads.set(resourceKey(resource), await readAgain(deps, resource));
  const verdict = compareBooked(booking.resources, reads);
  await recordReconciliation(deps.ledger, booking.workflowId, verdict);
  if (verdict.reconciled !== 'differs') return [];
  return [
    {
      kind: 'booking-differs',
      workflowId: booking.workflowId,
      subject: `booked row of ${booking.workflowId}`,
      ours: 'as booked',
      operator: verdict.reconciliation,
      action: 'recorded in the statement (reconciled: differs)',
    },
  ];
}
