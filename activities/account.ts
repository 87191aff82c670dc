import { Context } from '@temporalio/activity';
import { GAS_WALLET_EXTERNAL_ID, MASTER_WALLET_EXTERNAL_ID, NETWORKS } from '../src/operator/assumptions';
import { accountWalletJournalUpdate, walletCreatedSignal } from '../workflows/messages';
import type { AccountWalletRole } from '../workflows/types';
import type { ActivityDeps } from './deps';
import { assertTimeToCreate, readJournalInTime } from './creation-guard';
import { callOperator } from './operator-failure';
import type { CreatedWallet } from './wallets';
import { cancellable } from './cancellable';

export const ACCOUNT_WALLET_EXTERNAL_IDS: Record<AccountWalletRole, string> = {
  master: MASTER_WALLET_EXTERNAL_ID,
  gas: GAS_WALLET_EXTERNAL_ID,
};

export function createAccountActivities({ operator, temporal, logger }: ActivityDeps) {
  return {
    /**
     * Creates the account's master or gas wallet (Ethereum and Tron) and journals the operator's answer into the
     * account-setup workflow before returning; a retried attempt first reads that journal (same scheme as the
     * end user's deposit wallet, docs/architecture-wallets.md).
     */
    async createAccountWallet(input: { role: AccountWalletRole; workflowId: string }): Promise<CreatedWallet> {
      const startedAtMs = Date.now();
      const { attempt } = Context.current().info;
      const owner = temporal.workflow.getHandle(input.workflowId);
      if (attempt > 1) {
        const journaled = await readJournalInTime(cancellable(temporal, () => owner.executeUpdate(accountWalletJournalUpdate, { args: [input.role] })), startedAtMs);
        if (journaled) {
          logger.info({ role: input.role, walletId: journaled.walletId, attempt }, 'Account wallet already journaled; not creating another');
          return { walletId: journaled.walletId, externalUserId: journaled.externalUserId };
        }
      }
      assertTimeToCreate(startedAtMs);
      const externalUserId = ACCOUNT_WALLET_EXTERNAL_IDS[input.role];
      const wallet = await callOperator(() => operator.createWallet({ networks: [NETWORKS.ethereum, NETWORKS.tron], externalUserId }));
      Context.current().heartbeat({ walletId: wallet.id });
      try {
        await owner.signal(walletCreatedSignal, { walletId: wallet.id, externalUserId, attempt, role: input.role });
      } catch (error) {
        logger.warn({ role: input.role, walletId: wallet.id, err: error }, 'Could not journal the new account wallet');
      }
      logger.info({ role: input.role, walletId: wallet.id, attempt }, 'Account wallet created');
      return { walletId: wallet.id, externalUserId };
    },
  };
}
