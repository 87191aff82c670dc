/**
 * The messages of the account setup. The name strings are part of recorded histories: they never change. Its
 * wallet-creation activity journals through workflows/wallet-creation/messages.ts, with the wallet's role.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { AccountSetupResult, AccountSetupState } from './types';

/** Runs (or re-checks) the account setup and answers its result; wallets already recorded are reused. */
export const setupAccountUpdate = defineUpdate<AccountSetupResult, []>('setupAccount');
export const accountStateQuery = defineQuery<AccountSetupState>('accountState');
