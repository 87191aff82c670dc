/**
 * The wallet-creation journal's signals. The creation activity (activities/wallet-creation) sends them to the
 * workflow that owns the wallet: end-user/<id> for a deposit wallet, account-setup for the master and gas wallets
 * (with the wallet's role). The name strings are part of recorded histories: they never change.
 */
import { defineSignal } from '@temporalio/workflow';
import type {
  WalletCreatedSignal,
  WalletCreationNotSentSignal,
  WalletCreationRequestSignal,
} from './journal';

/**
 * Sent before CreateWallet: durable once the server accepts it, so a request whose answer is lost (crash, timeout)
 * is still on record.
 */
export const walletCreationRequestedSignal =
  defineSignal<[WalletCreationRequestSignal]>('walletCreationRequested');
/** Sent as soon as the operator answers: a journal that survives a worker crash. */
export const walletCreatedSignal = defineSignal<[WalletCreatedSignal]>('walletCreated');
/**
 * Sent when a journaled request was then not sent: nobody waits for it, and it is not reported as a wallet the
 * operator may hold.
 */
export const walletCreationNotSentSignal =
  defineSignal<[WalletCreationNotSentSignal]>('walletCreationNotSent');
