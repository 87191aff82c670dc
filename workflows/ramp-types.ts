/**
 * Moved: the ramp processes' types and pure rules live in ramps/ (shared/snapshots.ts, router/, offramp/, onramp/,
 * unknown-events/), the gas check in operations/gas-monitor/, alerts in operations/alerts/, workflow IDs in
 * src/domain/ids.ts. Re-exported for the importers not yet moved.
 */
export type { ResourceKind } from '../src/domain/vocabulary';
export {
  offRampWorkflowId,
  onRampWorkflowId,
  routerWorkflowId,
  UNKNOWN_EVENTS_WORKFLOW_ID,
} from '../src/domain/ids';
export {
  isConfirmedOrLater,
  isFailedTransaction,
  ORDER_FAILURES,
  orderRank,
  type OrderSnapshot,
  TRANSACTION_FAILURES,
  transactionRank,
  type TransactionSnapshot,
} from './ramps/shared/snapshots';
export { routeTransaction, type TransactionRoute } from './ramps/router/state';
export {
  type ForwardOutcome,
  type LateEvent,
  type RouterInput,
  type RouterState,
  UNKNOWN_RESOURCE_STATUS,
  type WebhookEventSignal,
} from './ramps/router/types';
export type {
  OffRampInput,
  OffRampRole,
  OffRampState,
  OffRampStatus,
  OffRampTransactionSignal,
} from './ramps/offramp/types';
export type {
  OnRampAttribution,
  OnRampInput,
  OnRampQuoteShown,
  OnRampState,
  OnRampStatus,
} from './ramps/onramp/types';
export type { UnknownEventRecord } from './ramps/unknown-events/types';
export type { GasCheck } from './operations/gas-monitor/types';
export type { AlertInput } from './operations/alerts/types';
