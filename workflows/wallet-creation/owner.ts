/**
 * The workflow side of the wallet-creation journal, shared by the wallets' owners (end-user/<id>, account-setup):
 * the journal's signal handlers, one wallet created from the owner's main loop, and the extra-wallet incident.
 * Workflow code; the rules are journal.ts's.
 */
import { log, setHandler } from '@temporalio/workflow';
import { failureReason } from '../../src/domain/errors';
import type { AddressOnNetwork } from '../../src/domain/vocabulary';
import type { AlertInput } from '../operations/alerts/types';
import {
  addressesOf,
  chooseWallet,
  type EarlierRequests,
  earlierRequestsInput,
  journalAnswer,
  journalNotSent,
  journalRequest,
  refreshUnconfirmed,
  settleActivityAnswer,
  type WalletJournal,
} from './journal';
import { walletCreatedSignal, walletCreationNotSentSignal, walletCreationRequestedSignal } from './messages';

/** What an owner lends the journal's handlers. */
export interface JournalOwner {
  /** The journal a signal belongs to (the account setup's by the signal's role); undefined: ignored. */
  journalOf(role: string | undefined): WalletJournal | undefined;
  /** Records a wallet of this journal that is not the one shown. */
  keepOrphan(journal: WalletJournal, walletId: string, reason: string): void;
  /** A request turned out not sent: fewer extra wallets may be known than were reported. */
  requestNotSent(): void;
}

/** A creation activity's answer: the wallet, the journaled request that made it, and its addresses when read. */
export interface CreatedWallet {
  walletId: string;
  externalUserId: string;
  requestId: string;
  addresses?: AddressOnNetwork[];
}

export interface WalletCreation {
  /** The creation activity (it journals its request and the answer into this workflow). */
  create(earlier: EarlierRequests): Promise<CreatedWallet>;
  readAddresses(walletId: string): Promise<AddressOnNetwork[]>;
}

const now = () => new Date().toISOString();

/**
 * Handles the journal's signals for `owner`'s journals, and answers the way to create a journal's wallet once.
 * Call it once per run, before the first await.
 */
export function keepWalletJournals(owner: JournalOwner) {
  /** The journal a creation is in flight for: its newest request still waits for its answer. */
  let creatingFor: WalletJournal | undefined;

  setHandler(walletCreationRequestedSignal, (request) => {
    const journal = owner.journalOf(request.role);
    if (journal) journalRequest(journal, request, creatingFor === journal, now());
  });
  setHandler(walletCreationNotSentSignal, (notSent) => {
    const journal = owner.journalOf(notSent.role);
    if (!journal) return;
    journalNotSent(journal, notSent, creatingFor === journal, now());
    owner.requestNotSent();
  });
  setHandler(walletCreatedSignal, (created) => {
    const journal = owner.journalOf(created.role);
    if (!journal) return;
    const orphanWalletId = journalAnswer(journal, created, creatingFor === journal, now());
    if (orphanWalletId) owner.keepOrphan(journal, orphanWalletId, 'second CreateWallet answer journaled');
  });

  return {
    /**
     * Creates the journal's wallet once: a wallet already journaled (its answer arrived before the activity
     * ended, or in an earlier attempt) is kept, and an activity that answered another one leaves that one as an
     * orphan.
     */
    async createWalletOnce(
      journal: WalletJournal,
      creation: WalletCreation,
    ): Promise<{ wallet: { walletId: string; externalUserId: string }; addresses: AddressOnNetwork[] }> {
      let created: CreatedWallet;
      creatingFor = journal;
      try {
        created = journal.journaled ?? (await creation.create(earlierRequestsInput(journal)));
      } finally {
        creatingFor = undefined;
        refreshUnconfirmed(journal, false);
      }
      settleActivityAnswer(journal, created, now());
      refreshUnconfirmed(journal, false);
      const { chosen, orphanWalletId } = chooseWallet<{ walletId: string; externalUserId: string }>(
        journal.journaled,
        created,
      );
      if (orphanWalletId) owner.keepOrphan(journal, orphanWalletId, 'activity answered a different wallet');
      const addresses =
        addressesOf(created, chosen.walletId) ?? (await creation.readAddresses(chosen.walletId));
      return {
        wallet: { walletId: chosen.walletId, externalUserId: chosen.externalUserId },
        addresses: addresses.map(({ network, address }) => ({ network, address })),
      };
    },
  };
}

/** Raises the extra-wallet incident; a failure is logged (the activity already retried it), not thrown. */
export async function raiseExtraWalletIncident(
  raiseAlert: (alert: AlertInput) => Promise<unknown>,
  alert: AlertInput,
  logFields: Record<string, string> = {},
): Promise<void> {
  try {
    await raiseAlert(alert);
  } catch (error) {
    log.error('Extra wallet incident could not be raised', { ...logFields, error: failureReason(error) });
  }
}
