/** end-user/<endUserId>: inputs, carried state and query answer of the end-user workflow. */
import type { WorkflowTimings } from '../../src/domain/timings';
import type { AddressOnNetwork } from '../../src/domain/vocabulary';
import type { Outbox } from '../outcomes/outbox';
import type {
  OrphanWallet,
  UnconfirmedCreation,
  WalletCreatedSignal,
  WalletCreationRequest,
} from './wallet-journal';
import type { PatchBaseline } from '../shared/patch-baseline';

export interface DepositWallet {
  walletId: string;
  externalUserId: string;
  addresses: AddressOnNetwork[];
  createdAt: string;
}

export interface EndUserInput extends PatchBaseline {
  endUserId: string;
  /**
   * The RampEndUserId value: the end user's pseudonym when payload encryption is on (the typed client computes it,
   * src/temporal/end-user-pseudonym.ts). Absent (older starts): the end user ID.
   */
  endUserSearchValue?: string;
  timings: WorkflowTimings;
  /** History length after which the run continues as new (default 2,000; tests pass a small one). */
  continueAsNewAfterEvents?: number;
  /** Carried over by continue-as-new. */
  carried?: EndUserCarriedState;
}

export interface EndUserCarriedState {
  wallet?: DepositWallet;
  orphanWallets: OrphanWallet[];
  /** Possible orphans without a known wallet ID (see UnconfirmedCreation); never shown, kept visible. */
  unconfirmedCreations?: UnconfirmedCreation[];
  createdAt: string;
  runs: number;
  /** Off-ramp processes (deposit transaction IDs) of this user, as each reported itself. */
  offRamps?: string[];
  /** Every CreateWallet request, journaled before it was sent (workflows/end-user/wallet-journal.ts). */
  creationRequests?: WalletCreationRequest[];
  /** Extra wallets (orphans + unconfirmed creations) already raised as an incident. */
  extraWalletsReported?: number;
  /** The outcome events told to the client's backend; absent in runs started before they existed. */
  outcomes?: Outbox;
}

export interface EndUserState extends EndUserCarriedState {
  endUserId: string;
  walletStatus: 'none' | 'creating' | 'ready' | 'failed';
  /** The operator's answer as journaled by the creation activity, before the activity completed. */
  journaledWallet?: WalletCreatedSignal;
  lastError?: string;
}
