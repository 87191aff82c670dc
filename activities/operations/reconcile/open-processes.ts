/**
 * Reconciliation's first half: every running on-ramp and off-ramp of the worker's task queue, its state (query)
 * against the operator's (Get Transaction / Get Order). A process behind the operator is a mismatch and gets the
 * fresh snapshot.
 */
import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import { WORKFLOW_TYPES } from '../../../src/domain/ids';
import { unreadableProcess } from '../../../workflows/operations/reconcile/findings';
import type { ReconcileFinding } from '../../../workflows/operations/reconcile/types';
import { offRampStateQuery, offRampTransactionSignal } from '../../../workflows/ramps/offramp/messages';
import type { OffRampRole } from '../../../workflows/ramps/offramp/types';
import {
  onRampOrderSignal,
  onRampStateQuery,
  onRampTransactionSignal,
} from '../../../workflows/ramps/onramp/messages';
import {
  orderRank,
  type TransactionSnapshot,
  transactionRank,
} from '../../../workflows/ramps/shared/snapshots';
import type { ActivityDeps } from '../../deps';
import * as snapshots from '../../shared/snapshots';
import { HANDED_OVER, openRampsQuery, ORDER_REPORTED, statusMismatch, transactionsAhead } from './checks';
import { repairRampRow } from './ledger';

type Deps = Pick<ActivityDeps, 'operator' | 'temporal' | 'ledger'>;

export async function reconcileOpenProcesses(
  deps: Deps,
  taskQueue: string,
): Promise<{ checked: number; findings: ReconcileFinding[] }> {
  const findings: ReconcileFinding[] = [];
  let checked = 0;
  for await (const execution of deps.temporal.workflow.list({
    query: openRampsQuery(taskQueue),
    pageSize: 100,
  })) {
    Context.current().heartbeat(checked);
    checked += 1;
    const handle = deps.temporal.workflow.getHandle(execution.workflowId);
    try {
      if (execution.type === WORKFLOW_TYPES.offRamp) await reconcileOffRamp(deps, handle, findings);
      else if (execution.type === WORKFLOW_TYPES.onRamp) await reconcileOnRamp(deps, handle, findings);
    } catch (error) {
      findings.push(
        unreadableProcess(execution.workflowId, error instanceof Error ? error.message : String(error)),
      );
    }
  }
  return { checked, findings };
}

/** An off-ramp's four transactions and its order against the operator's; fresher transactions are handed over. */
async function reconcileOffRamp(
  deps: Deps,
  handle: WorkflowHandle,
  findings: ReconcileFinding[],
): Promise<void> {
  const readTransaction = (id: string) => snapshots.readTransaction(deps.operator, id);
  const state = await handle.query(offRampStateQuery);
  await repairRampRow(deps, { direction: 'off-ramp', workflowId: handle.workflowId, state });
  const process = { workflowId: handle.workflowId, endUserId: state.endUserId };
  const deposit = await readTransaction(state.depositTransactionId);
  const sweepId = state.sweep?.id ?? deposit.relatedTransactionId;
  const sweep = sweepId ? await readTransaction(sweepId) : undefined;
  const reads: Array<[OffRampRole, TransactionSnapshot | undefined]> = [
    ['deposit', deposit],
    ['sweep', sweep],
    ['gasTopUp', state.gasTopUp ? await readTransaction(state.gasTopUp.id) : undefined],
    [
      'orderTransaction',
      state.orderTransaction ? await readTransaction(state.orderTransaction.id) : undefined,
    ],
  ];
  for (const { role, fresh } of transactionsAhead(state, reads)) {
    await handle.signal(offRampTransactionSignal, { role, transaction: fresh });
    findings.push(
      statusMismatch(process, `${role} ${fresh.id}`, state[role]?.status, fresh.status, HANDED_OVER),
    );
  }
  const orderId = state.order?.id ?? sweep?.orderId;
  if (!orderId) return;
  const order = await snapshots.readOrder(deps.operator, orderId);
  if (orderRank(order.status) > orderRank(state.order?.status))
    findings.push(
      statusMismatch(process, `order ${order.id}`, state.order?.status, order.status, ORDER_REPORTED),
    );
}

/** An on-ramp's order and its deposit against the operator's; fresher snapshots are handed over. */
async function reconcileOnRamp(
  deps: Deps,
  handle: WorkflowHandle,
  findings: ReconcileFinding[],
): Promise<void> {
  const state = await handle.query(onRampStateQuery);
  await repairRampRow(deps, { direction: 'on-ramp', workflowId: handle.workflowId, state });
  if (!state.order) return;
  const process = { workflowId: handle.workflowId, endUserId: state.endUserId };
  const order = await snapshots.readOrder(deps.operator, state.order.id);
  if (orderRank(order.status) > orderRank(state.order.status)) {
    await handle.signal(onRampOrderSignal, order);
    findings.push(
      statusMismatch(process, `order ${order.id}`, state.order.status, order.status, HANDED_OVER),
    );
  }
  const depositId = state.deposit?.id ?? order.transactionId;
  if (!depositId) return;
  const fresh = await snapshots.readTransaction(deps.operator, depositId);
  if (transactionRank(fresh.status) > transactionRank(state.deposit?.status)) {
    await handle.signal(onRampTransactionSignal, fresh);
    findings.push(
      statusMismatch(process, `deposit ${fresh.id}`, state.deposit?.status, fresh.status, HANDED_OVER),
    );
  }
}
