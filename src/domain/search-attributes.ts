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

/**
 * The RampStatus a ramp shows in visibility. Its ordinary steps (`awaiting-*`) all show `in-progress`: the step
 * itself is in the ledger and in the Web UI's current details, and an upsert per step is a billable action per step.
 * What a person searches for (stuck, exception, how it ended) shows as itself.
 */
export function searchedRampStatus(status: string): string {
  return status.startsWith('awaiting-') ? RAMP_IN_PROGRESS : status;
}
export const RAMP_IN_PROGRESS = 'in-progress';

export const ALL_SEARCH_ATTRIBUTES = [
  EndUserId,
  RampDirection,
  RampStatus,
  OrderReference,
  DepositTransactionId,
  WalletId,
  Networks,
] as const;
