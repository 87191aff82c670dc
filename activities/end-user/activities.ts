/** The end user's activities: creating the deposit wallet (its addresses: activities/shared/wallets.ts). */
import { depositWalletLabel } from '../../src/domain/ids';
import type { EarlierRequests } from '../../workflows/wallet-creation/journal';
import type { CreatedWallet } from '../../workflows/wallet-creation/owner';
import type { ActivityDeps } from '../deps';
import { createWalletAddressActivities } from '../shared/wallets';
import { createWalletJournaled } from '../wallet-creation/create-wallet';

export function createEndUserActivities(deps: ActivityDeps) {
  const addressActivities = createWalletAddressActivities(deps);
  return {
    /**
     * Creates the end user's deposit wallet, journaling the request into end-user/<id> before it is sent and the
     * answer before returning (a retried attempt returns the journaled answer instead of creating another), then
     * reads its addresses: a failed read retries the attempt, which finds the journaled wallet and creates nothing.
     */
    async createDepositWallet(
      input: { endUserId: string; workflowId: string } & EarlierRequests,
    ): Promise<CreatedWallet> {
      const created = await createWalletJournaled(deps, {
        workflowId: input.workflowId,
        externalUserId: depositWalletLabel(input.endUserId),
        logFields: { endUserId: input.endUserId },
        earlierRequestsOpenUntilMs: input.earlierRequestsOpenUntilMs,
      });
      return {
        ...created,
        addresses: await addressActivities.getWalletAddresses({ walletId: created.walletId }),
      };
    },
  };
}
