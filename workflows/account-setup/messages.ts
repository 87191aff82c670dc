/**
 * The messages of the account setup. The name strings are part of every recorded history and of running
 * workflows: they never change. The account's wallet-creation activity journals through the end user's
 * `walletCreationRequested`, `walletCreated` and `walletCreationNotSent` signals as well (with its role):
 * workflows/end-user/messages.ts.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { AccountWalletRole } from '../../src/domain/vocabulary';
import type { WalletCreatedSignal } from '../end-user/wallet-journal';
import type { AccountSetupResult, AccountSetupState } from './types';

/**
 * One role's wallet-creation journal read through an update: kept for the creation activities of older workers
 * (see depositWalletJournal in workflows/end-user/messages.ts).
 */
export const accountWalletJournalUpdate = defineUpdate<WalletCreatedSignal | null, [AccountWalletRole]>(
  'accountWalletJournal',
);
/** Runs (or re-checks) the account setup and answers its result; wallets already recorded are reused. */
export const setupAccountUpdate = defineUpdate<AccountSetupResult, []>('setupAccount');
export const accountStateQuery = defineQuery<AccountSetupState>('accountState');
