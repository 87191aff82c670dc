/**
 * Reconciliation's first pass, one open ramp at a time: its operator resources read again (Get Transaction / Get
 * Order) and compared with what the ledger holds of them. A ramp the operator is not ahead of is done without asking
 * its process. One it is ahead of is asked for its state: what the process lacks is handed to it through the router's
 * own forward (a `status-mismatch`), and its ledger row is written again as the process holds it.
 */
import type { WorkflowTimings } from '../../../src/domain/timings';
import type { OpenRampRow } from '../../../src/ledger/reconcile-pages';
import type { OffRampView } from '../../../src/ledger/views';
import type { Hop, HopPlace } from '../../../src/routing/hop';
import type { ReconcileFinding } from '../../../workflows/operations/reconcile/types';
import { offRampStateQuery } from '../../../workflows/ramps/offramp/messages';
import { onRampStateQuery } from '../../../workflows/ramps/onramp/messages';
import { orderRank, transactionRank } from '../../../workflows/ramps/shared/snapshots';
import type { ActivityDeps } from '../../deps';
import * as snapshots from '../../shared/snapshots';
import {
  handOverAction,
  heldOfRow,
  operatorAhead,
  ORDER_REPORTED,
  statusMismatch,
  transactionsAhead,
} from './checks';
import { repairRampRow } from './ledger';

/**
 * The most operator calls one ramp takes: an off-ramp's deposit, sweep, gas top-up, order transaction and order, and
 * the order the forward of a sweep and of an order transaction reads each.
 */
export const RAMP_CALLS_AT_MOST = 7;

export interface RampCheck {
  deps: Pick<ActivityDeps, 'operator' | 'temporal' | 'ledger'>;
  hop: Hop;
  place: HopPlace;
  /** Given to a process the forward would start (never one that ran). */
  timings: WorkflowTimings;
}

export async function checkOpenRamp(check: RampCheck, ramp: OpenRampRow): Promise<ReconcileFinding[]> {
  return ramp.direction === 'off-ramp' ? checkOffRamp(check, ramp) : checkOnRamp(check, ramp);
}

/** An off-ramp's four transactions and its order; fresher transactions are handed over, the order reported. */
async function checkOffRamp(check: RampCheck, ramp: OpenRampRow): Promise<ReconcileFinding[]> {
  const read = (id: string) => snapshots.readTransaction(check.deps.operator, id);
  const held = heldOfRow(ramp);
  const deposit = await read((ramp.view as OffRampView).depositTransactionId);
  const sweepId = held.sweep?.id ?? deposit.relatedTransactionId;
  const sweep = sweepId ? await read(sweepId) : undefined;
  const gasTopUp = held.gasTopUp ? await read(held.gasTopUp.id) : undefined;
  const orderTransaction = held.orderTransaction ? await read(held.orderTransaction.id) : undefined;
  const orderId = held.order?.id ?? sweep?.orderId;
  const order = orderId ? await snapshots.readOrder(check.deps.operator, orderId) : undefined;
  if (!operatorAhead(held, { deposit, sweep, gasTopUp, orderTransaction, order })) return [];

  const state = await check.deps.temporal.workflow.getHandle(ramp.workflowId).query(offRampStateQuery);
  await repairRampRow(check.deps, { direction: 'off-ramp', workflowId: ramp.workflowId, state });
  const process = { workflowId: ramp.workflowId, endUserId: state.endUserId };
  const findings: ReconcileFinding[] = [];
  const reads = [
    ['deposit', deposit],
    ['sweep', sweep],
    ['gasTopUp', gasTopUp],
    ['orderTransaction', orderTransaction],
  ] as const;
  for (const { role, fresh } of transactionsAhead(state, reads)) {
    const outcome = await check.hop.forwardToOffRamp(
      {
        depositTransactionId: state.depositTransactionId,
        signal: { role, transaction: fresh },
        timings: check.timings,
      },
      check.place,
    );
    findings.push(
      statusMismatch(
        process,
        `${role} ${fresh.id}`,
        state[role]?.status,
        fresh.status,
        handOverAction(outcome),
      ),
    );
  }
  if (order && orderRank(order.status) > orderRank(state.order?.status))
    findings.push(
      statusMismatch(process, `order ${order.id}`, state.order?.status, order.status, ORDER_REPORTED),
    );
  return findings;
}

/** An on-ramp's order and its deposit; fresher snapshots are handed over. */
async function checkOnRamp(check: RampCheck, ramp: OpenRampRow): Promise<ReconcileFinding[]> {
  const held = heldOfRow(ramp);
  // An on-ramp that has not heard of its order yet has nothing to read: its reference names no operator resource.
  if (!held.order) return [];
  const order = await snapshots.readOrder(check.deps.operator, held.order.id);
  const depositId = held.deposit?.id ?? order.transactionId;
  const deposit = depositId ? await snapshots.readTransaction(check.deps.operator, depositId) : undefined;
  if (!operatorAhead(held, { order, deposit })) return [];

  const state = await check.deps.temporal.workflow.getHandle(ramp.workflowId).query(onRampStateQuery);
  await repairRampRow(check.deps, { direction: 'on-ramp', workflowId: ramp.workflowId, state });
  const process = { workflowId: ramp.workflowId, endUserId: state.endUserId };
  const orderAhead = orderRank(order.status) > orderRank(state.order?.status);
  const depositAhead = deposit && transactionRank(deposit.status) > transactionRank(state.deposit?.status);
  if (!orderAhead && !depositAhead) return [];
  const outcome = await check.hop.forwardToOnRamp(
    {
      orderReference: state.orderReference,
      ...(orderAhead ? { order } : {}),
      ...(depositAhead ? { transaction: deposit } : {}),
      timings: check.timings,
    },
    check.place,
  );
  const action = handOverAction(outcome);
  return [
    ...(orderAhead
      ? [statusMismatch(process, `order ${order.id}`, state.order?.status, order.status, action)]
      : []),
    ...(depositAhead
      ? [statusMismatch(process, `deposit ${deposit.id}`, state.deposit?.status, deposit.status, action)]
      : []),
  ];
}
