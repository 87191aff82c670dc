/**
 * Signals, updates and queries: defined once here and imported by both the workflows and the typed client.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { DepositWallet, EndUserState, WalletCreatedSignal } from './types';

// ---- end-user/<endUserId>
/** Creates the user's deposit wallet if needed and answers its addresses once they exist. */
export const ensureDepositWalletUpdate = defineUpdate<DepositWallet, []>('ensureDepositWallet');
/** Written by the wallet-creation activity as soon as the operator answers: a journal that survives a worker crash. */
export const walletCreatedSignal = defineSignal<[WalletCreatedSignal]>('walletCreated');
export const endUserStateQuery = defineQuery<EndUserState>('endUserState');
