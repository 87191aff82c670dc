/**
 * Moved: each process's signals, updates and queries live in its folder's messages.ts. Re-exported for the
 * importers not yet moved.
 */
export {
  depositWalletJournalUpdate,
  endUserStateQuery,
  ensureDepositWalletUpdate,
  offRampLinkedSignal,
  walletCreatedSignal,
  walletCreationRequestedSignal,
} from './end-user/messages';
export { accountStateQuery, accountWalletJournalUpdate, setupAccountUpdate } from './account-setup/messages';
export { routerStateQuery, webhookEventSignal } from './ramps/router/messages';
export { offRampStateQuery, offRampTransactionSignal } from './ramps/offramp/messages';
export {
  onRampAttributionSignal,
  onRampOrderSignal,
  onRampStateQuery,
  onRampTransactionSignal,
} from './ramps/onramp/messages';
export { unknownEventSignal, unknownEventsQuery } from './ramps/unknown-events/messages';
export { alertsStateQuery, raiseAlertUpdate, resolveAlertUpdate } from './operations/alerts/messages';
