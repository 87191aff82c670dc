/**
 * Signals, updates and queries: defined once here and imported by both the workflows and the typed client.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type {
  OffRampState,
  OffRampTransactionSignal,
  OnRampAttribution,
  OnRampState,
  OrderSnapshot,
  RouterState,
  TransactionSnapshot,
  UnknownEventRecord,
  WebhookEventSignal,
} from './ramp-types';
import type {
  AccountSetupResult,
  AccountSetupState,
  AccountWalletRole,
  DepositWallet,
  EndUserState,
  WalletCreatedSignal,
} from './types';
import type { WalletCreationRequestSignal } from './wallet-journal';

// ---- end-user/<endUserId>
/** Creates the user's deposit wallet if needed and answers its addresses once they exist. */
export const ensureDepositWalletUpdate = defineUpdate<DepositWallet, []>('ensureDepositWallet');
/**
 * Written by the wallet-creation activity before it sends CreateWallet: durable once the server accepts it, so a
 * request whose answer is lost (crash, timeout) is still on record (workflows/wallet-journal.ts).
 */
export const walletCreationRequestedSignal =
  defineSignal<[WalletCreationRequestSignal]>('walletCreationRequested');
/** Written by the wallet-creation activity as soon as the operator answers: a journal that survives a worker crash. */
export const walletCreatedSignal = defineSignal<[WalletCreatedSignal]>('walletCreated');
/**
 * Reads of the wallet-creation journal through an update. Creation activities now read the journal from the owner's
 * history (activities/creation-guard.ts: no worker and no update slot needed); the handlers stay for activities of
 * workers deployed before that, which may still be retrying.
 */
export const depositWalletJournalUpdate = defineUpdate<WalletCreatedSignal | null, []>(
  'depositWalletJournal',
);
export const accountWalletJournalUpdate = defineUpdate<WalletCreatedSignal | null, [AccountWalletRole]>(
  'accountWalletJournal',
);
export const endUserStateQuery = defineQuery<EndUserState>('endUserState');

// ---- account-setup (issue 4)
/** Runs (or re-checks) the account setup and answers its result; wallets already recorded are reused. */
export const setupAccountUpdate = defineUpdate<AccountSetupResult, []>('setupAccount');
export const accountStateQuery = defineQuery<AccountSetupState>('accountState');
// The account's wallet-creation activity journals through `walletCreatedSignal` as well (with its role).

// ---- ramps (issue 5): webhook routing, off-ramp, on-ramp
export const webhookEventSignal = defineSignal<[WebhookEventSignal]>('webhookEvent');
export const routerStateQuery = defineQuery<RouterState>('routerState');
export const offRampTransactionSignal = defineSignal<[OffRampTransactionSignal]>('offRampTransaction');
export const offRampStateQuery = defineQuery<OffRampState>('offRampState');
export const onRampOrderSignal = defineSignal<[OrderSnapshot]>('onRampOrder');
export const onRampTransactionSignal = defineSignal<[TransactionSnapshot]>('onRampTransaction');
/** The client's startOnRamp: names the end user (and the quote shown) of a reference, before or after its first event. */
export const onRampAttributionSignal = defineSignal<[OnRampAttribution]>('onRampAttribution');
export const onRampStateQuery = defineQuery<OnRampState>('onRampState');
export const unknownEventSignal = defineSignal<[UnknownEventRecord]>('unknownEvent');
export const unknownEventsQuery = defineQuery<UnknownEventRecord[]>('unknownEvents');
/** Sent by an off-ramp to its end user's workflow, which lists the user's deposits. */
export const offRampLinkedSignal = defineSignal<[{ depositTransactionId: string }]>('offRampLinked');

// ---- operations (issue 6): the alerts incident store (ops/alerts)
import type {
  AlertsState,
  RaiseAlertAnswer,
  RaiseAlertRequest,
  ResolveAlertAnswer,
  ResolveAlertRequest,
} from './ops-types';
/** Opens an incident (or counts one more occurrence of an open one); answers whether this raise notifies. */
export const raiseAlertUpdate = defineUpdate<RaiseAlertAnswer, [RaiseAlertRequest]>('raiseAlert');
/** Closes an open incident; answers whether it was open (then the caller sends the resolved notice). */
export const resolveAlertUpdate = defineUpdate<ResolveAlertAnswer, [ResolveAlertRequest]>('resolveAlert');
export const alertsStateQuery = defineQuery<AlertsState>('alertsState');
