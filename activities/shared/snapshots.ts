/**
 * Operator resources as the processes see them: a transaction or an order re-read by ID, reduced to the fields the
 * workflows use (workflows/ramps/shared/snapshots.ts). Read by every hop (src/routing), the ramp processes' polls
 * and reconciliation.
 */
import type { OperatorClient } from '../../src/operator/client';
import type { Order, Transaction } from '../../src/operator/schemas';
import type { SnapshotReads } from '../../src/routing/hop';
import type { OrderSnapshot, TransactionSnapshot } from '../../workflows/ramps/shared/snapshots';
import { callOperator } from './operator-failure';

export function toTransactionSnapshot(
  tx: Transaction,
  readAt = new Date().toISOString(),
): TransactionSnapshot {
  return {
    id: tx.id,
    status: tx.status,
    type: tx.type,
    subtype: tx.subtype ?? null,
    walletId: tx.walletId,
    network: tx.network ?? null,
    asset: tx.asset ?? null,
    amount: tx.amount ?? null,
    relatedTransactionId: tx.relatedTransactionId ?? null,
    orderId: tx.orderId ?? null,
    fee: tx.fee ? { asset: tx.fee.asset, amount: tx.fee.amount } : null,
    readAt,
  };
}

export function toOrderSnapshot(order: Order, readAt = new Date().toISOString()): OrderSnapshot {
  return {
    id: order.id,
    orderReference: order.orderReference,
    status: order.status,
    direction: order.direction ?? null,
    coinFrom: order.coinFrom ?? null,
    coinTo: order.coinTo ?? null,
    chainTo: order.chainTo ?? null,
    amountFrom: order.amountFrom ?? null,
    amountTo: order.amountTo ?? null,
    transactionId: order.transactionId ?? null,
    updatedAt: order.updatedAt ?? null,
    readAt,
  };
}

/**
 * Get Transaction by ID, as a snapshot; operator errors become the failures the retry policy understands.
 * `deadlineMs` (deadline clock) bounds the read.
 */
export async function readTransaction(
  operator: OperatorClient,
  id: string,
  options: { deadlineMs?: number } = {},
): Promise<TransactionSnapshot> {
  return toTransactionSnapshot(await callOperator(() => operator.getTransaction(id, options)));
}

/** Get Order by ID, as a snapshot. */
export async function readOrder(
  operator: OperatorClient,
  id: string,
  options: { deadlineMs?: number } = {},
): Promise<OrderSnapshot> {
  return toOrderSnapshot(await callOperator(() => operator.getOrder(id, options)));
}

/** The reads a hop makes (src/routing/hop.ts), failing as these do. */
export function snapshotReads(operator: OperatorClient): SnapshotReads {
  return {
    transaction: (id, options) => readTransaction(operator, id, options),
    order: (id, options) => readOrder(operator, id, options),
  };
}
