import { Context } from '@temporalio/activity';
import { NETWORKS } from '../src/operator/assumptions';
import { depositWalletJournalUpdate, walletCreatedSignal } from '../workflows/messages';
import type { AddressOnNetwork } from '../workflows/types';
import type { ActivityDeps } from './deps';
import { assertTimeToCreate, readJournalInTime } from './creation-guard';
import { callOperator } from './operator-failure';
import { cancellable } from './cancellable';

export interface CreatedWallet {
  walletId: string;
  externalUserId: string;
}

export interface WalletAddressWithBalances extends AddressOnNetwork {
  balances: { asset: string; amount: string }[];
}

/** The operator label of an end user's deposit wallet. */
export const depositWalletExternalId = (endUserId: string) => `end-user:${endUserId}`;

export function createWalletActivities({ operator, temporal, logger }: ActivityDeps) {
  return {
    /**
     * Creates the end user's deposit wallet and journals the answer into the owning workflow before returning.
     * A retried attempt first asks the workflow for a journaled wallet, so a worker that died after the
     * operator answered does not create a second one.
     */
    async createDepositWallet(input: { endUserId: string; workflowId: string }): Promise<CreatedWallet> {
      const startedAtMs = Date.now();
      const { attempt } = Context.current().info;
      const owner = temporal.workflow.getHandle(input.workflowId);
      if (attempt > 1) {
        const journaled = await readJournalInTime(cancellable(temporal, () => owner.executeUpdate(depositWalletJournalUpdate)), startedAtMs);
        if (journaled) {
          logger.info({ endUserId: input.endUserId, walletId: journaled.walletId, attempt }, 'Wallet already journaled; not creating another');
          return { walletId: journaled.walletId, externalUserId: journaled.externalUserId };
        }
      }
      assertTimeToCreate(startedAtMs);
      const externalUserId = depositWalletExternalId(input.endUserId);
      const unconfirmedAttempts = unconfirmedAttemptsSoFar();
      // Recorded before the request: a later attempt learns that this one sent CreateWallet (see below).
      Context.current().heartbeat({ phase: 'creating', attempt, unconfirmed: unconfirmedAttempts } satisfies CreationHeartbeat);
      const wallet = await callOperator(() =>
        operator.createWallet({ networks: [NETWORKS.ethereum, NETWORKS.tron], externalUserId }),
      );
      Context.current().heartbeat({ phase: 'created', attempt, walletId: wallet.id, unconfirmed: unconfirmedAttempts } satisfies CreationHeartbeat);
      if (unconfirmedAttempts.length > 0) {
        logger.warn({ endUserId: input.endUserId, unconfirmedAttempts }, 'Earlier CreateWallet attempts got no usable answer: possible orphan wallet');
      }
      try {
        await owner.signal(walletCreatedSignal, { walletId: wallet.id, externalUserId, attempt, ...(unconfirmedAttempts.length > 0 ? { unconfirmedAttempts } : {}) });
      } catch (error) {
        // The activity result still carries the wallet; the journal only narrows the crash window.
        logger.warn({ endUserId: input.endUserId, walletId: wallet.id, err: error }, 'Could not journal the new wallet');
      }
      logger.info({ endUserId: input.endUserId, walletId: wallet.id, attempt }, 'Deposit wallet created');
      return { walletId: wallet.id, externalUserId };
    },

    /** Every address of a wallet (all pages), with balances. */
    async getWalletAddresses(input: { walletId: string }): Promise<WalletAddressWithBalances[]> {
      const entries = await callOperator(() => operator.getWalletAddresses(input.walletId));
      return entries.map((entry) => ({
        network: entry.network.name,
        address: entry.address,
        balances: entry.balances.map(({ asset, amount }) => ({ asset, amount })),
      }));
    },
  };
}

/** Heartbeat details of createDepositWallet; the server keeps the last ones for the next attempt. */
interface CreationHeartbeat {
  phase: 'creating' | 'created';
  attempt: number;
  walletId?: string;
  unconfirmed: number[];
}

/**
 * Attempts before this one that sent CreateWallet and whose answer was never journaled (worker crash, timeout,
 * 5xx): the previous attempt's heartbeat says "creating" and the journal is empty, so the operator may hold a
 * wallet for this label that we never saw. Its ID cannot be known (no lookup by externalUserId in the spec).
 */
function unconfirmedAttemptsSoFar(): number[] {
  const previous = Context.current().info.heartbeatDetails as Partial<CreationHeartbeat> | undefined;
  if (!previous || typeof previous.attempt !== 'number') return [];
  const earlier = Array.isArray(previous.unconfirmed) ? previous.unconfirmed.filter((value): value is number => typeof value === 'number') : [];
  return previous.phase === 'creating' ? [...earlier, previous.attempt] : earlier;
}
