/**
 * The account setup's activities: creating the account's master and gas wallets, and the webhook recipients
 * (recipients.ts). Wallet addresses: activities/shared/wallets.ts.
 */
import { ACCOUNT_WALLET_LABELS } from '../../src/domain/ids';
import type { AccountWalletRole } from '../../src/domain/vocabulary';
import type { EarlierRequests } from '../../workflows/wallet-creation/journal';
import type { CreatedWallet } from '../../workflows/wallet-creation/owner';
import type { ActivityDeps } from '../deps';
import { createWalletWithAddresses } from '../wallet-creation/with-addresses';
import { createRecipientActivities } from './recipients';

/** Every activity of the account setup. */
export function createAccountSetupActivities(deps: ActivityDeps) {
  return { ...createAccountWalletActivities(deps), ...createRecipientActivities(deps) };
}

export function createAccountWalletActivities(deps: ActivityDeps) {
  return {
    /**
     * Creates the account's master or gas wallet (Ethereum and Tron) with the same journal as the end user's deposit
     * wallet, into the account-setup workflow, with its role.
     */
    createAccountWallet(
      input: { role: AccountWalletRole; workflowId: string } & EarlierRequests,
    ): Promise<CreatedWallet> {
      return createWalletWithAddresses(deps, {
        workflowId: input.workflowId,
        externalUserId: ACCOUNT_WALLET_LABELS[input.role],
        role: input.role,
        logFields: { role: input.role },
        earlierRequestsOpenUntilMs: input.earlierRequestsOpenUntilMs,
      });
    },
  };
}
