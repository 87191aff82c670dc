/**
 * The account setup's activities: creating the account's master and gas wallets, and the webhook recipients
 * (recipients.ts). Wallet addresses: activities/shared/wallets.ts.
 */
import { ACCOUNT_WALLET_LABELS } from '../../src/domain/ids';
import type { AccountWalletRole } from '../../src/domain/vocabulary';
import type { EarlierRequests } from '../../workflows/wallet-creation/journal';
import type { CreatedWallet } from '../../workflows/wallet-creation/owner';
import type { ActivityDeps } from '../deps';
import { createWalletAddressActivities } from '../shared/wallets';
import { createWalletJournaled } from '../wallet-creation/create-wallet';
import { createRecipientActivities } from './recipients';

/** Every activity of the account setup. */
export function createAccountSetupActivities(deps: ActivityDeps) {
  return { ...createAccountWalletActivities(deps), ...createRecipientActivities(deps) };
}

export function createAccountWalletActivities(deps: ActivityDeps) {
  const addressActivities = createWalletAddressActivities(deps);
  return {
    /**
     * Creates the account's master or gas wallet (Ethereum and Tron) with the same journal as the end user's deposit
     * wallet, into the account-setup workflow, then reads its addresses.
     */
    async createAccountWallet(
      input: { role: AccountWalletRole; workflowId: string } & EarlierRequests,
    ): Promise<CreatedWallet> {
      const created = await createWalletJournaled(deps, {
        workflowId: input.workflowId,
        externalUserId: ACCOUNT_WALLET_LABELS[input.role],
        role: input.role,
        logFields: { role: input.role },
        earlierRequestsOpenUntilMs: input.earlierRequestsOpenUntilMs,
      });
      return {
        ...created,
        addresses: await addressActivities.getWalletAddresses({ walletId: created.walletId }),
      };
    },
  };
}
