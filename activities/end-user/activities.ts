/** The end user's activities: creating the deposit wallet (its addresses: activities/shared/wallets.ts). */
import { depositWalletLabel } from '../../src/domain/ids';
import type { EarlierRequests } from '../../workflows/end-user/wallet-journal';
import type { ActivityDeps } from '../deps';
import { createWalletAddressActivities, type WalletAddressWithBalances } from '../shared/wallets';
import { type CreatedWallet, createWalletJournaled } from './wallet-creation';

export type { CreatedWallet } from './wallet-creation';

export interface CreatedDepositWallet extends CreatedWallet {
  /** Present when asked for (`withAddresses`): the wallet's addresses, read once it was journaled. */
  addresses?: WalletAddressWithBalances[];
}

export function createEndUserActivities(deps: ActivityDeps) {
  const addressActivities = createWalletAddressActivities(deps);
  return {
    /**
     * Creates the end user's deposit wallet, journaling the request into end-user/<id> before it is sent and the
     * answer before returning; a retried attempt returns the journaled answer instead of creating another. With
     * `withAddresses` it also reads the new wallet's addresses, saving the workflow an activity and a task: a failed
     * read retries the attempt, which finds the journaled wallet and creates nothing.
     */
    async createDepositWallet(
      input: { endUserId: string; workflowId: string; withAddresses?: boolean } & EarlierRequests,
    ): Promise<CreatedDepositWallet> {
      const created = await createWalletJournaled(deps, {
        workflowId: input.workflowId,
        externalUserId: depositWalletLabel(input.endUserId),
        logFields: { endUserId: input.endUserId },
        earlierRequestsOpenUntilMs: input.earlierRequestsOpenUntilMs,
      });
      if (!input.withAddresses) return created;
      return {
        ...created,
        addresses: await addressActivities.getWalletAddresses({ walletId: created.walletId }),
      };
    },
  };
}
