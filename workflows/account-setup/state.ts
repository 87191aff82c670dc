/**
 * Pure rules of the account setup: its state at the start of a run and what it carries on, its wallet journals by
 * role, the recipient bookkeeping, the result and its whitelist, and what the Web UI shows. Workflow-safe: no
 * Temporal calls, no clock (`now` is passed in).
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { ACCOUNT_WALLET_ROLES, type AccountWalletRole, type ResourceKind } from '../../src/domain/vocabulary';
import { Networks, RampStatus } from '../../src/domain/search-attributes';
import { extraWalletCount, newWalletJournal, type WalletJournal } from '../wallet-creation/journal';
import type {
  AccountRecipient,
  AccountSetupCarriedState,
  AccountSetupResult,
  AccountSetupState,
  AccountWallet,
} from './types';

/** The state a run starts from: fresh, or carried over from the previous run. */
export function newAccountSetupState(
  carried: AccountSetupCarriedState | undefined,
  now: string,
): AccountSetupState {
  return {
    status: carried?.result ? 'ready' : 'none',
    wallets: carried?.wallets ?? {},
    journals: carried?.journals ?? { master: newWalletJournal(), gas: newWalletJournal() },
    recipients: carried?.recipients ?? [],
    orphanWallets: carried?.orphanWallets ?? [],
    extraWalletsReported: carried?.extraWalletsReported ?? 0,
    ...(carried?.result ? { result: carried.result } : {}),
    setupRuns: carried?.setupRuns ?? 0,
    createdAt: carried?.createdAt ?? now,
  };
}

/** What the next run needs. */
export function carriedState(state: AccountSetupState): AccountSetupCarriedState {
  const { wallets, journals, recipients, orphanWallets, extraWalletsReported, result, setupRuns, createdAt } =
    state;
  return {
    wallets,
    journals,
    recipients,
    orphanWallets,
    extraWalletsReported,
    ...(result ? { result } : {}),
    setupRuns,
    createdAt,
  };
}

/** The journal a signal's role names; another role (an end user's signal sent here by mistake) has none. */
export function roleJournal(state: AccountSetupState, role: string | undefined): WalletJournal | undefined {
  return ACCOUNT_WALLET_ROLES.find((known) => known === role)
    ? state.journals[role as AccountWalletRole]
    : undefined;
}

/** The role a journal of this setup belongs to. */
export function roleOfJournal(
  state: AccountSetupState,
  journal: WalletJournal,
): AccountWalletRole | undefined {
  return ACCOUNT_WALLET_ROLES.find((role) => state.journals[role] === journal);
}

/** CreateWallet requests of every role sent without an answer. */
export function unconfirmedCreationCount(state: AccountSetupState): number {
  return ACCOUNT_WALLET_ROLES.reduce((sum, role) => sum + state.journals[role].unconfirmed.length, 0);
}

/** Every account wallet the operator may hold besides the ones recorded. */
export function extraAccountWallets(state: AccountSetupState): number {
  return extraWalletCount(
    state.orphanWallets,
    ACCOUNT_WALLET_ROLES.flatMap((role) => state.journals[role].unconfirmed),
  );
}

/** A wallet as recorded: its ID and addresses (balances stay with the operator). */
export function accountWallet(
  role: AccountWalletRole,
  chosen: { walletId: string; externalUserId: string },
  addresses: readonly { network: string; address: string }[],
  now: string,
): AccountWallet {
  return {
    role,
    walletId: chosen.walletId,
    externalUserId: chosen.externalUserId,
    addresses: addresses.map(({ network, address }) => ({ network, address })),
    createdAt: now,
  };
}

/**
 * The recipient of a kind as ensured now. It counts as ours when this call created it or when we recorded
 * creating it earlier, and keeps the time it was first recorded.
 */
export function ensuredRecipient(
  recipients: readonly AccountRecipient[],
  kind: ResourceKind,
  answer: { recipient: { id: string; redactedUrl: string }; created: boolean },
  now: string,
): AccountRecipient {
  const { recipient, created } = answer;
  const before = recipients.find((entry) => entry.kind === kind && entry.id === recipient.id);
  return {
    kind,
    id: recipient.id,
    redactedUrl: recipient.redactedUrl,
    createdByUs: created || (before?.createdByUs ?? false),
    recordedAt: before?.recordedAt ?? now,
  };
}

/** Stale: recipients of this kind this workflow created earlier for a receiver URL that is no longer ours. */
export function staleRecipients(
  recipients: readonly AccountRecipient[],
  kind: ResourceKind,
  currentId: string,
): AccountRecipient[] {
  return recipients.filter((entry) => entry.kind === kind && entry.createdByUs && entry.id !== currentId);
}

/** The recipient list with `current` as the one recipient of its kind. */
export function withRecipient(
  recipients: readonly AccountRecipient[],
  current: AccountRecipient,
): AccountRecipient[] {
  return [...recipients.filter((entry) => entry.kind !== current.kind), current];
}

/** What the operator still needs before it enables each product (spec section 1), with our addresses filled in. */
export function nextSteps(master: AccountWallet, gas: AccountWallet): string[] {
  const list = (wallet: AccountWallet) =>
    wallet.addresses.map((entry) => `${entry.network} ${entry.address}`).join(', ');
  return [
    `Whitelisting: hand the master wallet addresses (${list(master)}) and the gas wallet addresses (${list(gas)}) to the account contact at the operator.`,
    'On Ramp: tell the account contact the markets (currency corridors, e.g. MXN -> USDT on TRX) and the master wallet on the network of each corridor.',
    'Autoswap (off ramp): tell the account contact the markets, the bank accounts to settle to (the operator verifies them before going live), and the gas wallet.',
    'Gas: fund the gas wallet with the native token of every supported chain (ETH, TRX); without it Autoswap fails and deposits stay unsettled.',
  ];
}

/** The result of a finished pass: the two wallets, the recipients, what to whitelist and what is left to do. */
export function setupResult(
  state: AccountSetupState,
  master: AccountWallet,
  gas: AccountWallet,
  changes: { added: AccountRecipient[]; removed: AccountRecipient[] },
  now: string,
): AccountSetupResult {
  const recipientOf = (kind: ResourceKind) => state.recipients.find((entry) => entry.kind === kind)!;
  return {
    status: 'ready',
    masterWallet: master,
    gasWallet: gas,
    recipients: { transaction: recipientOf('transaction'), order: recipientOf('order') },
    addedRecipients: changes.added,
    removedRecipients: changes.removed,
    whitelist: [master, gas].flatMap((wallet) =>
      wallet.addresses.map(({ network, address }) => ({ role: wallet.role, network, address })),
    ),
    nextSteps: nextSteps(master, gas),
    setupRuns: state.setupRuns,
    completedAt: now,
  };
}

/** What the Web UI shows: RampStatus and the networks as search attributes, the setup's summary as memo. */
export function publishedValues(state: AccountSetupState): {
  searchAttributes: SearchAttributeUpdatePair[];
  memo: Record<string, unknown>;
} {
  const status =
    state.status === 'ready'
      ? 'account-ready'
      : state.status === 'failed'
        ? 'account-failed'
        : 'account-pending';
  const networks = [
    ...new Set(
      Object.values(state.wallets).flatMap((wallet) => wallet?.addresses.map((entry) => entry.network) ?? []),
    ),
  ];
  return {
    searchAttributes: [
      { key: RampStatus, value: status },
      ...(networks.length > 0 ? [{ key: Networks, value: networks }] : []),
    ],
    memo: {
      accountSetup: {
        status: state.status,
        whitelist: state.result?.whitelist ?? [],
        recipients: state.recipients.map(({ kind, id, redactedUrl, createdByUs }) => ({
          kind,
          id,
          redactedUrl,
          createdByUs,
        })),
        orphanWallets: state.orphanWallets,
        setupRuns: state.setupRuns,
        completedAt: state.result?.completedAt ?? null,
        lastError: state.lastError ?? null,
      },
    },
  };
}
