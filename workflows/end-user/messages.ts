/**
 * The messages of end-user/<endUserId>. The name strings are part of every recorded history and of running
 * workflows: they never change.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type {
  WalletCreatedSignal,
  WalletCreationNotSentSignal,
  WalletCreationRequestSignal,
} from './wallet-journal';
import type { DepositWallet, EndUserState } from './types';

/** Creates the user's deposit wallet if needed and answers its addresses once they exist. */
export const ensureDepositWalletUpdate = defineUpdate<DepositWallet, []>('ensureDepositWallet');
/**
 * Written by the wallet-creation activity before it sends CreateWallet: durable once the server accepts it, so a
 * request whose answer is lost (crash, timeout) is still on record (workflows/end-user/wallet-journal.ts). The account
 * setup handles it too.
 */
export const walletCreationRequestedSignal =
  defineSignal<[WalletCreationRequestSignal]>('walletCreationRequested');
/**
 * Written by the wallet-creation activity as soon as the operator answers: a journal that survives a worker crash.
 * The account setup handles it too (with the wallet's role).
 */
export const walletCreatedSignal = defineSignal<[WalletCreatedSignal]>('walletCreated');
/**
 * Written by the wallet-creation activity when it journaled a request and then did not send it: nobody waits for
 * that request, and it is not reported as a wallet the operator may hold. The account setup handles it too.
 */
export const walletCreationNotSentSignal =
  defineSignal<[WalletCreationNotSentSignal]>('walletCreationNotSent');
/**
 * Reads of the wallet-creation journal through an update. Creation activities now read the journal from the owner's
 * history (activities/end-user/wallet-creation.ts: no worker and no update slot needed); the handlers stay for activities of
 * workers deployed before that, which may still be retrying.
 */
export const depositWalletJournalUpdate = defineUpdate<WalletCreatedSignal | null, []>(
  'depositWalletJournal',
);
export const endUserStateQuery = defineQuery<EndUserState>('endUserState');
/** Sent by an off-ramp to its end user's workflow, which lists the user's deposits. */
export const offRampLinkedSignal = defineSignal<[{ depositTransactionId: string }]>('offRampLinked');
