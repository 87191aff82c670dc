/**
 * Custom search attributes: defined once, registered on the dev server by the launcher, set by workflows, and
 * used by the typed client's list queries. They are stored in clear, so they hold identifiers only (no amounts,
 * no addresses).
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const EndUserId = defineSearchAttributeKey('RampEndUserId', SearchAttributeType.KEYWORD);
export const RampDirection = defineSearchAttributeKey('RampDirection', SearchAttributeType.KEYWORD);
export const RampStatus = defineSearchAttributeKey('RampStatus', SearchAttributeType.KEYWORD);
export const OrderReference = defineSearchAttributeKey('RampOrderReference', SearchAttributeType.KEYWORD);
export const DepositTransactionId = defineSearchAttributeKey(
  'RampDepositTransactionId',
  SearchAttributeType.KEYWORD,
);
export const WalletId = defineSearchAttributeKey('RampWalletId', SearchAttributeType.KEYWORD);
export const Networks = defineSearchAttributeKey('RampNetworks', SearchAttributeType.KEYWORD_LIST);

export const ALL_SEARCH_ATTRIBUTES = [
  EndUserId,
  RampDirection,
  RampStatus,
  OrderReference,
  DepositTransactionId,
  WalletId,
  Networks,
] as const;

/** The CLI's `--search-attribute` type names. */
const CLI_TYPE_NAMES: Record<string, string> = {
  [SearchAttributeType.KEYWORD]: 'Keyword',
  [SearchAttributeType.KEYWORD_LIST]: 'KeywordList',
  [SearchAttributeType.TEXT]: 'Text',
  [SearchAttributeType.INT]: 'Int',
  [SearchAttributeType.DOUBLE]: 'Double',
  [SearchAttributeType.BOOL]: 'Bool',
  [SearchAttributeType.DATETIME]: 'Datetime',
};

export function devServerSearchAttributeArgs(): string[] {
  return ALL_SEARCH_ATTRIBUTES.flatMap((key) => [
    '--search-attribute',
    `${key.name}=${CLI_TYPE_NAMES[key.type]}`,
  ]);
}
