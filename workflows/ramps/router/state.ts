/** Pure rules of the webhook router. Workflow-safe: no I/O, no Temporal calls. */
import { TRANSACTION_KINDS } from '../../../src/domain/vocabulary';
import type { OffRampRole } from '../offramp/types';
import type { TransactionSnapshot } from '../shared/snapshots';

export type TransactionRoute =
  | { kind: 'offramp'; depositTransactionId: string; role: OffRampRole }
  | { kind: 'onramp-order'; orderId: string }
  | { kind: 'unroutable'; reason: string };

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
