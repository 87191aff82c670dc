/**
 * The messages of end-user/<endUserId>. The name strings are part of recorded histories: they never change. The
 * wallet-creation journal's signals are workflows/wallet-creation/messages.ts.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { OffRampQuoteShown } from '../ramps/offramp/types';
import type { DepositWallet, EndUserState } from './types';

/** Creates the user's deposit wallet if needed and answers its addresses once they exist. */
export const ensureDepositWalletUpdate = defineUpdate<DepositWallet, []>('ensureDepositWallet');
export const endUserStateQuery = defineQuery<EndUserState>('endUserState');
/** Version 1.0's link of an off-ramp to its end user; running histories hold it, so the workflow still takes it. */
export const offRampLinkedSignal = defineSignal<[{ depositTransactionId: string }]>('offRampLinked');
/**
 * Sent by an off-ramp's activity to its end user's workflow, which lists the user's deposits; answers the quote the
 * user was shown for this deposit (null when none), in the same round trip.
 */
export const linkOffRampUpdate = defineUpdate<OffRampQuoteShown | null, [{ depositTransactionId: string }]>(
  'linkOffRamp',
);
/** The typed client's showDepositQuote: the quote the user is shown for their next deposit (replaces an earlier one). */
export const depositQuoteShownSignal = defineSignal<[OffRampQuoteShown]>('depositQuoteShown');
