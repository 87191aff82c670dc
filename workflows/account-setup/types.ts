/** account-setup: inputs, carried state, result and query answer of the account setup. */
import type { WorkflowTimings } from '../../src/domain/timings';
import type { AccountWalletRole, AddressOnNetwork, ResourceKind } from '../../src/domain/vocabulary';
import type { OrphanWallet, WalletJournal } from '../wallet-creation/journal';

export interface AccountWallet {
  role: AccountWalletRole;
  walletId: string;
  externalUserId: string;
  addresses: AddressOnNetwork[];
  createdAt: string;
}

/** A webhook recipient as the workflow keeps it: its URL with the secret segment redacted (never the secret). */
export interface AccountRecipient {
  kind: ResourceKind;
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
  /** Each wallet's creation journal (workflows/wallet-creation). */
  journals: Record<AccountWalletRole, WalletJournal>;
  recipients: AccountRecipient[];
  orphanWallets: (OrphanWallet & { role: AccountWalletRole })[];
  /** Extra wallets (orphans + unconfirmed creations) already raised as an incident. */
  extraWalletsReported: number;
  result?: AccountSetupResult;
  setupRuns: number;
  createdAt: string;
}

export interface AccountSetupState extends AccountSetupCarriedState {
  status: 'none' | 'running' | 'ready' | 'failed';
  lastError?: string;
}
