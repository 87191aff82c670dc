/**
 * The account setup's activities: creating the account's master and gas wallets, and the webhook recipients
 * (recipients.ts). Wallet addresses: activities/shared/wallets.ts.
 */
import { ACCOUNT_WALLET_LABELS } from '../../src/domain/ids';
import type { AccountWalletRole } from '../../src/domain/vocabulary';
import type { EarlierRequests } from '../../workflows/end-user/wallet-journal';
import type { ActivityDeps } from '../deps';
import { type CreatedWallet, createWalletJournaled } from '../end-user/wallet-creation';
import { createRecipientActivities } from './recipients';

/** Every activity of the account setup. */
export function createAccountSetupActivities(deps: ActivityDeps) {
  return { ...createAccountWalletActivities(deps), ...createRecipientActivities(deps) };
}

export function createAccountWalletActivities(deps: ActivityDeps) {
  return {
    /**
     * Creates the account's master or gas wallet (Ethereum and Tron) with the same journal as the end user's deposit
     * wallet: the request is journaled into the account-setup workflow before it is sent, the answer before
     * returning, and a retried attempt returns the journaled answer.
     */
    createAccountWallet(
      input: { role: AccountWalletRole; workflowId: string } & EarlierRequests,
    ): Promise<CreatedWallet> {
      return createWalletJournaled(deps, {
        workflowId: input.workflowId,
        externalUserId: ACCOUNT_WALLET_LABELS[input.role],
        role: input.role,
        logFields: { role: input.role },
        earlierRequestsOpenUntilMs: input.earlierRequestsOpenUntilMs,
      });
    },
  };
}
