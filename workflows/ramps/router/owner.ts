/**
 * The owner rule: which process a re-read operator resource belongs to, and what a forward to it carries along.
 * Every hop takes it (src/routing/hop.ts: the receiver's own, a router's lane, reconciliation). Workflow-safe: no
 * I/O, no Temporal calls.
 */
import { TRANSACTION_KINDS } from '../../../src/domain/vocabulary';
import type { OffRampRole, OffRampTransactionSignal } from '../offramp/types';
import type { OrderSnapshot, TransactionSnapshot } from '../shared/snapshots';

/** ASSUMED not sent: the off-ramp reads its AutoSwap order itself (through its sweep), so nothing to forward. */
export const OFF_RAMP_ORDER_UNROUTABLE = 'off-ramp order: read by its off-ramp process';

export type TransactionRoute =
  | { kind: 'offramp'; depositTransactionId: string; role: OffRampRole }
  | { kind: 'onramp-order'; orderId: string }
  | { kind: 'unroutable'; reason: string };

export type OrderRoute = { kind: 'onramp'; orderReference: string } | { kind: 'unroutable'; reason: string };

/**
 * Where a transaction belongs, from its re-read details:
 * - a Deposit that carries an orderId is the on-ramp's crypto deposit to the master wallet (the order names its reference);
 * - any other Deposit starts (and keys) an off-ramp;
 * - a gas top-up, a sweep or an AutoSwap order transaction points at its deposit through relatedTransactionId.
 */
export function routeTransaction(tx: TransactionSnapshot): TransactionRoute {
  if (tx.type === TRANSACTION_KINDS.deposit.type) {
    if (tx.orderId) return { kind: 'onramp-order', orderId: tx.orderId };
    return { kind: 'offramp', depositTransactionId: tx.id, role: 'deposit' };
  }
  const role: OffRampRole | undefined =
    tx.type === TRANSACTION_KINDS.gasTopUp.type
      ? 'gasTopUp'
      : tx.type === TRANSACTION_KINDS.sweep.type
        ? 'sweep'
        : tx.type === TRANSACTION_KINDS.orderSettlement.type
          ? 'orderTransaction'
          : undefined;
  if (!role) return { kind: 'unroutable', reason: `transaction type ${tx.type} belongs to no ramp process` };
  if (!tx.relatedTransactionId)
    return { kind: 'unroutable', reason: `${tx.type} transaction has no relatedTransactionId` };
  return { kind: 'offramp', depositTransactionId: tx.relatedTransactionId, role };
}

/** Where an order belongs: an on-ramp's to onramp/<reference>; an off-ramp's to no process. */
export function routeOrder(order: OrderSnapshot): OrderRoute {
  if (order.direction === 'off-ramp') return { kind: 'unroutable', reason: OFF_RAMP_ORDER_UNROUTABLE };
  return { kind: 'onramp', orderReference: order.orderReference };
}

/**
 * The order a forward carries along with its transaction: the one a sweep or an order transaction names. The
 * off-ramp reads that order as soon as a transaction names it (orderToRead); carried along, it needs no read.
 */
export function orderToSettleFrom(signal: OffRampTransactionSignal): string | undefined {
  if (signal.role !== 'sweep' && signal.role !== 'orderTransaction') return undefined;
  return signal.transaction.orderId ?? undefined;
}
