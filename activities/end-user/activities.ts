/** The end user's activities: creating the deposit wallet (its addresses: activities/shared/wallets.ts). */
import { depositWalletLabel } from '../../src/domain/ids';
import type { ActivityDeps } from '../deps';
import { type CreatedWallet, createWalletJournaled } from './wallet-creation';

export type { CreatedWallet } from './wallet-creation';

export function createEndUserActivities(deps: ActivityDeps) {
  return {
    /**
     * Creates the end user's deposit wallet, journaling the request into end-user/<id> before it is sent and the
     * answer before returning; a retried attempt returns the journaled answer instead of creating another.
     */
    createDepositWallet(input: { endUserId: string; workflowId: string }): Promise<CreatedWallet> {
      return createWalletJournaled(deps, {
        workflowId: input.workflowId,
        externalUserId: depositWalletLabel(input.endUserId),
        logFields: { endUserId: input.endUserId },
      });
    },
  };
}
