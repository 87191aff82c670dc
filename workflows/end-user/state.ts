/**
 * Pure rules of the end-user workflow: its state at the start of a run, what it carries to the next run, its search
 * attributes and its outcome event. Workflow-safe: no Temporal calls, no clock (`now` is passed in).
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { compactData, type RaisedOutcome } from '../../src/domain/outcome-events';
import { EndUserId, Networks, RampStatus, WalletId } from '../../src/domain/search-attributes';
import { newOutbox } from '../outcomes/outbox';
import { extraWalletCount, newWalletJournal } from '../wallet-creation/journal';
import type {
  DepositWallet,
  EndUserCarriedState,
  EndUserInput,
  EndUserState,
  RecordedEndUser,
} from './types';

/** The state a run starts from: fresh, or carried over from the previous run. */
export function newEndUserState(input: EndUserInput, now: string): EndUserState {
  const carried = input.carried;
  return {
    endUserId: input.endUserId,
    wallet: carried?.wallet,
    walletJournal: carried?.walletJournal ?? newWalletJournal(),
    orphanWallets: carried?.orphanWallets ?? [],
    extraWalletsReported: carried?.extraWalletsReported ?? 0,
    createdAt: carried?.createdAt ?? now,
    runs: (carried?.runs ?? 0) + 1,
    walletStatus: carried?.wallet ? 'ready' : 'none',
    recentOffRamps: (carried?.recentOffRamps ?? carried?.offRamps ?? []).slice(-OFF_RAMPS_KEPT),
    ...(carried?.depositQuote ? { depositQuote: carried.depositQuote } : {}),
    ...(carried?.quotedDeposits ? { quotedDeposits: carried.quotedDeposits } : {}),
    outcomes: newOutbox(carried?.outcomes),
    ...(carried?.recordedRevision !== undefined ? { recordedRevision: carried.recordedRevision } : {}),
  };
}

/** What the next run needs. */
export function carriedState(state: EndUserState): EndUserCarriedState {
  const {
    wallet,
    walletJournal,
    orphanWallets,
    extraWalletsReported,
    createdAt,
    runs,
    recentOffRamps,
    outcomes,
  } = state;
  return {
    wallet,
    walletJournal,
    orphanWallets,
    extraWalletsReported,
    createdAt,
    runs,
    recentOffRamps,
    outcomes,
    ...(state.depositQuote ? { depositQuote: state.depositQuote } : {}),
    ...(state.quotedDeposits ? { quotedDeposits: state.quotedDeposits } : {}),
    ...(state.recordedRevision !== undefined ? { recordedRevision: state.recordedRevision } : {}),
  };
}

/** The next run's input: the same settings, the state carried. */
export function continuedInput(input: EndUserInput, state: EndUserState): EndUserInput {
  return { ...input, carried: carriedState(state) };
}

/** Every wallet the operator may hold for this user besides the one shown. */
/** The part of the state the ledger keeps (its view's inputs). */
export const recordedEndUser = ({
  endUserId,
  walletStatus,
  wallet,
  createdAt,
}: EndUserState): RecordedEndUser => ({
  endUserId,
  walletStatus,
  wallet,
  createdAt,
});

export const extraWallets = (state: EndUserState): number =>
  extraWalletCount(state.orphanWallets, state.walletJournal.unconfirmed);

/** How many quoted deposits the state keeps: an off-ramp reads its quote moments after it links itself. */
export const QUOTED_DEPOSITS_KEPT = 20;

/**
 * How many linked off-ramps the state keeps: an off-ramp's link is retried within minutes, while a user's deposits
 * come far apart, so the last few answer every retry. The user's off-ramps are listed from the ledger.
 */
export const OFF_RAMPS_KEPT = 20;

/**
 * Each off-ramp of this user's deposits reports itself once; the first to report after a quote was shown takes that
 * quote (one quote, one deposit).
 */
export function linkOffRamp(state: EndUserState, depositTransactionId: string): void {
  if (state.recentOffRamps.includes(depositTransactionId)) return;
  state.recentOffRamps.push(depositTransactionId);
  state.recentOffRamps.splice(0, state.recentOffRamps.length - OFF_RAMPS_KEPT);
  if (!state.depositQuote) return;
  const quoted = state.quotedDeposits ?? [];
  quoted.push({ depositTransactionId, quote: state.depositQuote });
  state.quotedDeposits = quoted.slice(-QUOTED_DEPOSITS_KEPT);
  delete state.depositQuote;
}

/** The quote a deposit took, if it took one. */
export const quoteOfDeposit = (state: EndUserState, depositTransactionId: string) =>
  state.quotedDeposits?.find((entry) => entry.depositTransactionId === depositTransactionId)?.quote;

/** The wallet as shown to the user: its ID and addresses (balances stay with the operator). */
export function depositWallet(
  chosen: { walletId: string; externalUserId: string },
  addresses: readonly { network: string; address: string }[],
  now: string,
): DepositWallet {
  return {
    walletId: chosen.walletId,
    externalUserId: chosen.externalUserId,
    addresses: addresses.map(({ network, address }) => ({ network, address })),
    createdAt: now,
  };
}

/**
 * The Web UI's columns. `searchValue` is the RampEndUserId value (a pseudonym when payloads are encrypted: only
 * the workflow ID names the user in clear).
 */
export function searchAttributes(state: EndUserState, searchValue: string): SearchAttributeUpdatePair[] {
  const status = state.wallet
    ? 'wallet-ready'
    : state.walletStatus === 'failed'
      ? 'wallet-failed'
      : 'wallet-pending';
  return [
    { key: EndUserId, value: searchValue },
    { key: RampStatus, value: status },
    ...(state.wallet
      ? [
          { key: WalletId, value: state.wallet.walletId },
          { key: Networks, value: state.wallet.addresses.map((entry) => entry.network) },
        ]
      : []),
  ];
}

/** `deposit_wallet.created`: the wallet just recorded, with its address on each network. */
export function depositWalletCreated(state: EndUserState, workflowId: string): RaisedOutcome | undefined {
  const wallet = state.wallet;
  if (!wallet) return undefined;
  return {
    type: 'deposit_wallet.created',
    data: compactData({
      workflowId,
      endUserId: state.endUserId,
      status: 'wallet-ready',
      step: 'Deposit wallet created',
      walletId: wallet.walletId,
      addresses: wallet.addresses.map(({ network, address }) => ({ network, address })),
    }),
  };
}
