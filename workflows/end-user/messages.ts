/**
 * The messages of end-user/<endUserId>. The name strings are part of recorded histories: they never change. The
 * wallet-creation journal's signals are workflows/wallet-creation/messages.ts.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { DepositWallet, EndUserState } from './types';

/** Creates the user's deposit wallet if needed and answers its addresses once they exist. */
export const ensureDepositWalletUpdate = defineUpdate<DepositWallet, []>('ensureDepositWallet');
export const endUserStateQuery = defineQuery<EndUserState>('endUserState');
/** Sent by an off-ramp's activity to its end user's workflow, which lists the user's deposits. */
export const offRampLinkedSignal = defineSignal<[{ depositTransactionId: string }]>('offRampLinked');
