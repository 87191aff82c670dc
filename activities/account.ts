import { GAS_WALLET_EXTERNAL_ID, MASTER_WALLET_EXTERNAL_ID } from '../src/operator/assumptions';
import type { AccountWalletRole } from '../workflows/types';
import type { ActivityDeps } from './deps';
import { type CreatedWallet, createWalletJournaled } from './creation-guard';

export const ACCOUNT_WALLET_EXTERNAL_IDS: Record<AccountWalletRole, string> = {
  master: MASTER_WALLET_EXTERNAL_ID,
  gas: GAS_WALLET_EXTERNAL_ID,
};

export function createAccountActivities({ operator, temporal, logger }: ActivityDeps) {
  return {
    /**
     * Creates the account's master or gas wallet (Ethereum and Tron) with the same journal as the end user's deposit
     * wallet: the request is journaled into the account-setup workflow before it is sent, the answer before
     * returning, and a retried attempt returns the journaled answer (activities/creation-guard.ts).
     */
    createAccountWallet(input: { role: AccountWalletRole; workflowId: string }): Promise<CreatedWallet> {
      return createWalletJournaled({
        operator,
        temporal,
        logger,
        workflowId: input.workflowId,
        externalUserId: ACCOUNT_WALLET_EXTERNAL_IDS[input.role],
        role: input.role,
        logFields: { role: input.role },
      });
    },
  };
}
