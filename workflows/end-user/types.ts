/** end-user/<endUserId>: inputs, carried state and query answer of the end-user workflow. */
import type { WorkflowTimings } from '../../src/domain/timings';
import type { AddressOnNetwork } from '../../src/domain/vocabulary';
import type { Outbox } from '../outcomes/outbox';
import type { OffRampQuoteShown } from '../ramps/offramp/types';
import type { OrphanWallet, WalletJournal } from '../wallet-creation/journal';

export interface DepositWallet {
  walletId: string;
  externalUserId: string;
  addresses: AddressOnNetwork[];
  createdAt: string;
}

export interface EndUserInput {
  endUserId: string;
  /**
   * The RampEndUserId value: the end user ID, or its pseudonym when payload encryption is on (the typed client
   * computes it, src/temporal/end-user-pseudonym.ts).
   */
  endUserSearchValue: string;
  timings: WorkflowTimings;
  /** History length after which the run continues as new (default 2,000; tests pass a small one). */
  continueAsNewAfterEvents?: number;
  /** Carried over by continue-as-new. */
  carried?: EndUserCarriedState;
}

export interface EndUserCarriedState {
  wallet?: DepositWallet;
  /** The deposit wallet's creation journal (workflows/wallet-creation). */
  walletJournal: WalletJournal;
  orphanWallets: OrphanWallet[];
  /** Extra wallets (orphans + unconfirmed creations) already raised as an incident. */
  extraWalletsReported: number;
  createdAt: string;
  runs: number;
  /**
   * The last OFF_RAMPS_KEPT off-ramps (deposit transaction IDs) that linked themselves to this user, oldest first: a
   * link retried moments later is known again. Every off-ramp of the user is in the ledger (ramps.end_user_id).
   */
  recentOffRamps: string[];
  /** A run from before the ledger carried every off-ramp here; the next run keeps the last OFF_RAMPS_KEPT. */
  offRamps?: string[];
  /** The quote shown to the user for their next deposit, until a deposit takes it. */
  depositQuote?: OffRampQuoteShown;
  /** The last deposits that took a quote, newest last (their off-ramps read theirs from here). */
  quotedDeposits?: QuotedDeposit[];
  /** The outcome events told to the client's backend (a run that records into the ledger keeps only their count). */
  outcomes: Outbox;
  /** How many times the workflow wrote its view to the ledger, across runs. */
  recordedRevision?: number;
}

export interface EndUserState extends EndUserCarriedState {
  endUserId: string;
  walletStatus: 'none' | 'creating' | 'ready' | 'failed';
  lastError?: string;
}

/**
 * What the ledger keeps of an end user's state: its view's inputs only, so that the record activity's input (in the
 * history at every write) carries no wallet journal, outbox or off-ramp list.
 */
export type RecordedEndUser = Pick<EndUserState, 'endUserId' | 'walletStatus' | 'wallet' | 'createdAt'>;

/** A deposit and the quote its end user had been shown for it. */
export interface QuotedDeposit {
  depositTransactionId: string;
  quote: OffRampQuoteShown;
}
