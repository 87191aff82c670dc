/** Creating and moving orders and transactions, publishing the matching events. */
import { CHAINS, type ChainCode } from '../../domain/vocabulary';
import type { OrderStatus, TransactionStatus } from '../../operator/schemas';
import { transactionHash } from '../addresses';
import type { SandboxContext } from '../context';
import { orderStatusWord, transactionStatusWord } from '../operator-words';
import type { OrderRecord, TransactionRecord } from '../state';

export type NewTransaction = Omit<TransactionRecord, 'id' | 'hash' | 'createdAt' | 'updatedAt'> & {
  id?: string;
};

/** Stores a transaction and publishes `transaction-created` (unless `silent`). */
export function createTransaction(
  ctx: SandboxContext,
  fields: NewTransaction,
  silent = false,
): TransactionRecord {
  const now = ctx.clock.iso();
  const record: TransactionRecord = {
    ...fields,
    fee: fields.fee ?? null,
    id: fields.id ?? ctx.random.uuid(),
    hash: transactionHash(fields.network, ctx.random),
    createdAt: now,
    updatedAt: now,
  };
  ctx.state.transactions.set(record.id, record);
  if (!silent) ctx.delivery.publish('transaction-created', { id: record.id });
  return record;
}

/** Moves a transaction to a status and publishes `transaction-updated` in the profile's word (unless `silent`). */
export function updateTransaction(
  ctx: SandboxContext,
  record: TransactionRecord,
  status: TransactionStatus,
  silent = false,
): void {
  record.status = status;
  record.updatedAt = ctx.clock.iso();
  if (!silent)
    ctx.delivery.publish('transaction-updated', {
      id: record.id,
      newStatus: transactionStatusWord(ctx.config.profile, status),
    });
}

export type NewOrder = Omit<OrderRecord, 'id' | 'createdAt' | 'updatedAt'>;

export function createOrder(ctx: SandboxContext, fields: NewOrder, silent = false): OrderRecord {
  const now = ctx.clock.iso();
  const record: OrderRecord = { ...fields, id: ctx.random.uuid(), createdAt: now, updatedAt: now };
  ctx.state.orders.set(record.id, record);
  ctx.state.orderReferences.add(record.orderReference);
  if (!silent)
    ctx.delivery.publish('order-created', { id: record.id, orderReference: record.orderReference });
  return record;
}

export function updateOrder(
  ctx: SandboxContext,
  record: OrderRecord,
  status: OrderStatus,
  silent = false,
): void {
  record.status = status;
  record.updatedAt = ctx.clock.iso();
  if (!silent)
    ctx.delivery.publish('order-updated', {
      id: record.id,
      newStatus: orderStatusWord(ctx.config.profile, status),
      orderReference: record.orderReference,
    });
}

/** The chain code (ETH, TRX) of a network name. */
export function chainOf(network: string): ChainCode | null {
  for (const [code, chain] of Object.entries(CHAINS) as Array<[ChainCode, (typeof CHAINS)[ChainCode]]>) {
    if (chain.network === network) return code;
  }
  return null;
}

export const isChainCode = (code: string): code is ChainCode =>
  Object.prototype.hasOwnProperty.call(CHAINS, code);
