/** The end user's activities: creating the deposit wallet (its addresses: activities/shared/wallets.ts). */
import { depositWalletLabel } from '../../src/domain/ids';
import type { EarlierRequests } from '../../workflows/wallet-creation/journal';
import type { CreatedWallet } from '../../workflows/wallet-creation/owner';
import type { ActivityDeps } from '../deps';
import { createWalletWithAddresses } from '../wallet-creation/with-addresses';

export function createEndUserActivities(deps: ActivityDeps) {
  return {
    /**
     * Creates the end user's deposit wallet, journaling the request into end-user/<id> before it is sent and the
     * answer before returning (a retried attempt returns the journaled answer instead of creating another).
     */
    createDepositWallet(
      input: { endUserId: string; workflowId: string } & EarlierRequests,
    ): Promise<CreatedWallet> {
      return createWalletWithAddresses(deps, {
        workflowId: input.workflowId,
        externalUserId: depositWalletLabel(input.endUserId),
        logFields: { endUserId: input.endUserId },
        earlierRequestsOpenUntilMs: input.earlierRequestsOpenUntilMs,
      });
    },
  };
}
