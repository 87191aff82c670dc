/**
 * Transactions and orders as the profile's operator shows them: the sandbox keeps them in our words
 * (src/domain/vocabulary.ts) and answers, and announces statuses, in the profile's words and field names.
 */
import type { OperatorProfile, TransactionKindName } from '../domain/operator-profile';
import { TRANSACTION_KINDS } from '../domain/vocabulary';
import type { OrderStatus, TransactionStatus } from '../operator/schemas';
import type { OrderRecord, TransactionRecord } from './state';

const kindOf = (type: string, subtype: string | null): TransactionKindName | undefined =>
  (Object.keys(TRANSACTION_KINDS) as TransactionKindName[]).find(
    (kind) => TRANSACTION_KINDS[kind].type === type && TRANSACTION_KINDS[kind].subtype === subtype,
  );

export const transactionStatusWord = (profile: OperatorProfile, status: TransactionStatus): string =>
  profile.vocabulary.transactionStatuses[status];

export const orderStatusWord = (profile: OperatorProfile, status: OrderStatus): string =>
  profile.vocabulary.orderStatuses[status];

export function transactionView(
  profile: OperatorProfile,
  record: TransactionRecord,
): Record<string, unknown> {
  const { id, walletId, relatedTransactionId, orderId, type, subtype, status, ...rest } = record;
  const kind = kindOf(type, subtype);
  const words = kind ? profile.vocabulary.transactionKinds[kind] : { type, subtype };
  const links = profile.links.transaction;
  return {
    id,
    status: transactionStatusWord(profile, status),
    type: words.type,
    subtype: words.subtype,
    [links.walletId]: walletId,
    ...rest,
    [links.relatedTransactionId]: relatedTransactionId,
    [links.orderId]: orderId,
  };
}

export function orderView(profile: OperatorProfile, record: OrderRecord): Record<string, unknown> {
  const { id, orderReference, transactionId, status, direction, ...rest } = record;
  return {
    id,
    orderReference,
    status: orderStatusWord(profile, status),
    direction: profile.vocabulary.orderDirections[direction],
    ...rest,
    [profile.links.order.transactionId]: transactionId,
  };
}
