/**
 * Custom search attributes: defined once, registered on the dev server by its launcher (src/temporal), set by
 * workflows, and used by the typed client's list queries. They are stored in clear, so they hold identifiers only
 * (no amounts, no addresses). Workflow-safe: @temporalio/common only.
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
