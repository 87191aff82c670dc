/**
 * Plain data types shared by workflows, activities and the typed client. Workflow-safe: no imports with side effects.
 */
import type { WorkflowTimings } from '../src/domain/timings';
import type { WalletCreationRequest } from './wallet-journal';

export type { WorkflowTimings };

export interface AddressOnNetwork {
  network: string;
  address: string;
}

export interface DepositWallet {
  walletId: string;
  externalUserId: string;
  addresses: AddressOnNetwork[];
  createdAt: string;
}

/** A wallet the operator created for this user that is not the one shown (see docs/architecture.md). */
export interface OrphanWallet {
  walletId: string;
  recordedAt: string;
  reason: string;
}

export interface EndUserInput {
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
  /** Off-ramp processes (deposit transaction IDs) of this user, as each reported itself (issue 5). */
  offRamps?: string[];
  /** Every CreateWallet request, journaled before it was sent (workflows/wallet-journal.ts). */
  creationRequests?: WalletCreationRequest[];
  /** Extra wallets (orphans + unconfirmed creations) already raised as an incident. */
  extraWalletsReported?: number;
}

export interface EndUserState extends EndUserCarriedState {
  endUserId: string;
  walletStatus: 'none' | 'creating' | 'ready' | 'failed';
  /** The operator's answer as journaled by the creation activity, before the activity completed. */
  journaledWallet?: WalletCreatedSignal;
  lastError?: string;
}

export interface WalletCreatedSignal {
  walletId: string;
  externalUserId: string;
  attempt: number;
  /** Set by the account setup's wallet creation: which account wallet this is. */
  role?: AccountWalletRole;
  /** Earlier attempts that sent CreateWallet and never got a usable answer: the operator may hold a wallet we never saw. */
  unconfirmedAttempts?: number[];
  /** The journaled request this answers (workflows/wallet-journal.ts); absent in older journals. */
  requestId?: string;
}

/** A CreateWallet request whose answer never arrived (crash, timeout, 5xx): a possible orphan whose ID we cannot know. */
export interface UnconfirmedCreation {
  attempt: number;
  recordedAt: string;
  /** The journaled CreateWallet request without an answer; absent for entries of the older heartbeat-based journal. */
  requestId?: string;
}

// ---- account-setup (issue 4)

export type AccountWalletRole = 'master' | 'gas';
export type RecipientKindName = 'transaction' | 'order';

export interface AccountWallet {
  role: AccountWalletRole;
  walletId: string;
  externalUserId: string;
  addresses: AddressOnNetwork[];
  createdAt: string;
}

/** A webhook recipient as the workflow keeps it: its URL with the secret segment redacted (never the secret). */
export interface AccountRecipient {
  kind: RecipientKindName;
  id: string;
  redactedUrl: string;
  /** True when this workflow registered it (only those may ever be removed by it). */
  createdByUs: boolean;
  recordedAt: string;
}

/** What the account setup answers: durable, readable later through the query, the memo and the Web UI. */
export interface AccountSetupResult {
  status: 'ready';
  masterWallet: AccountWallet;
  gasWallet: AccountWallet;
  recipients: { transaction: AccountRecipient; order: AccountRecipient };
  /** Recipients this run added (empty on a re-run that found everything in place). */
  addedRecipients: AccountRecipient[];
  /** Stale recipients this workflow had created earlier and removed now. */
  removedRecipients: AccountRecipient[];
  /** Addresses to hand to the account contact for whitelisting. */
  whitelist: { role: AccountWalletRole; network: string; address: string }[];
  /** What the operator still needs before On Ramp and Autoswap go live. */
  nextSteps: string[];
  /** How many times the setup ran (1 on the first run). */
  setupRuns: number;
  completedAt: string;
}

export interface AccountSetupInput {
  timings: WorkflowTimings;
  carried?: AccountSetupCarriedState;
}

export interface AccountSetupCarriedState {
  wallets: Partial<Record<AccountWalletRole, AccountWallet>>;
  journal: Partial<Record<AccountWalletRole, WalletCreatedSignal>>;
  recipients: AccountRecipient[];
  orphanWallets: (OrphanWallet & { role: AccountWalletRole })[];
  /** Every CreateWallet request, per role, journaled before it was sent (workflows/wallet-journal.ts). */
  creationRequests?: Partial<Record<AccountWalletRole, WalletCreationRequest[]>>;
  /** CreateWallet requests per role that were sent without an answer: possible orphans whose ID cannot be known. */
  unconfirmedCreations?: Partial<Record<AccountWalletRole, UnconfirmedCreation[]>>;
  /** Extra wallets (orphans + unconfirmed creations) already raised as an incident. */
  extraWalletsReported?: number;
  result?: AccountSetupResult;
  setupRuns: number;
  createdAt: string;
}

export interface AccountSetupState extends AccountSetupCarriedState {
  status: 'none' | 'running' | 'ready' | 'failed';
  lastError?: string;
}

// ---- quote/<uuid> (issue 4)

export type QuoteDirection = 'on-ramp' | 'off-ramp';

/** A validated quote request: on ramp names chainTo, off ramp names chainFrom. Amounts are decimal strings. */
export interface QuoteRequestInput {
  direction: QuoteDirection;
  coinFrom: string;
  coinTo: string;
  chainFrom?: string;
  chainTo?: string;
  amountFrom: string;
}

export interface QuoteResult {
  direction: QuoteDirection;
  coinFrom: string;
  coinTo: string;
  chainFrom?: string;
  chainTo?: string;
  amountFrom: string;
  /** Decimal string in coinTo. */
  targetAmount: string;
  /** ISO 8601 UTC; the quote is invalid from this moment on. */
  expiresAt: string;
  /** The operator's quote ID when it gives one. */
  quoteId?: string;
  quotedAt: string;
}

export interface QuoteWorkflowInput {
  request: QuoteRequestInput;
  timings: WorkflowTimings;
}
