import type { ActivityDeps } from './deps';
import { type CreatedWallet, createWalletJournaled } from './creation-guard';

export type { CreatedWallet } from './creation-guard';

/** The operator label of an end user's deposit wallet. */
export const depositWalletExternalId = (endUserId: string) => `end-user:${endUserId}`;

export function createWalletActivities({ operator, temporal, logger }: ActivityDeps) {
  return {
    /**
     * Creates the end user's deposit wallet, journaling the request into end-user/<id> before it is sent and the
     * answer before returning; a retried attempt returns the journaled answer instead of creating another
     * (activities/creation-guard.ts).
     */
    createDepositWallet(input: { endUserId: string; workflowId: string }): Promise<CreatedWallet> {
      return createWalletJournaled({
        operator,
        temporal,
        logger,
        workflowId: input.workflowId,
        externalUserId: depositWalletExternalId(input.endUserId),
        logFields: { endUserId: input.endUserId },
      });
    },
  };
}
