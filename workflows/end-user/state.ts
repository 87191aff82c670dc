/**
 * Pure rules of the end-user workflow: its state at the start of a run, what it carries to the next run, its search
 * attributes, and the view of its state the wallet journal's rules work on. Workflow-safe: no Temporal calls, no
 * clock (`now` is passed in).
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { compactData, type RaisedOutcome } from '../../src/domain/outcome-events';
import { EndUserId, Networks, RampStatus, WalletId } from '../../src/temporal/search-attributes';
import type { DepositWallet, EndUserCarriedState, EndUserInput, EndUserState } from './types';
import type { JournalView } from './wallet-journal';
import { PATCH_BASELINE } from '../shared/patch-baseline';

/** The state a run starts from: fresh, or carried over from the previous run. */
export function newEndUserState(input: EndUserInput, now: string): EndUserState {
  const carried = input.carried;
  return {
    endUserId: input.endUserId,
    wallet: carried?.wallet,
    orphanWallets: carried?.orphanWallets ?? [],
    createdAt: carried?.createdAt ?? now,
    runs: (carried?.runs ?? 0) + 1,
    walletStatus: carried?.wallet ? 'ready' : 'none',
    offRamps: carried?.offRamps ?? [],
    ...(carried?.unconfirmedCreations ? { unconfirmedCreations: carried.unconfirmedCreations } : {}),
    ...(carried?.creationRequests ? { creationRequests: carried.creationRequests } : {}),
    ...(carried?.extraWalletsReported ? { extraWalletsReported: carried.extraWalletsReported } : {}),
    ...(carried?.outcomes ? { outcomes: carried.outcomes } : {}),
  };
}

/** What the next run needs. */
export function carriedState(state: EndUserState): EndUserCarriedState {
  return {
    wallet: state.wallet,
    orphanWallets: state.orphanWallets,
    createdAt: state.createdAt,
    runs: state.runs,
    offRamps: state.offRamps,
    ...(state.unconfirmedCreations ? { unconfirmedCreations: state.unconfirmedCreations } : {}),
    ...(state.creationRequests ? { creationRequests: state.creationRequests } : {}),
    ...(state.extraWalletsReported ? { extraWalletsReported: state.extraWalletsReported } : {}),
    ...(state.outcomes ? { outcomes: state.outcomes } : {}),
  };
}

/** The next run's input: the same settings, the state carried. */
export function continuedInput(input: EndUserInput, state: EndUserState): EndUserInput {
  return {
    endUserId: input.endUserId,
    ...(input.endUserSearchValue ? { endUserSearchValue: input.endUserSearchValue } : {}),
    timings: input.timings,
    // The next run starts on this code, which has every patch of its baseline.
    patchBaseline: PATCH_BASELINE,
    ...(input.continueAsNewAfterEvents ? { continueAsNewAfterEvents: input.continueAsNewAfterEvents } : {}),
    carried: carriedState(state),
  };
}

/** Each off-ramp of this user's deposits reports itself once. */
export function linkOffRamp(state: EndUserState, depositTransactionId: string): void {
  const offRamps = (state.offRamps ??= []);
  if (!offRamps.includes(depositTransactionId)) offRamps.push(depositTransactionId);
}

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

/** The deposit wallet's journal, as the journal rules see it. */
export function depositWalletJournal(state: EndUserState): JournalView {
  return {
    get requests() {
      return state.creationRequests;
    },
    set requests(requests) {
      state.creationRequests = requests;
    },
    get unconfirmed() {
      return state.unconfirmedCreations;
    },
    set unconfirmed(unconfirmed) {
      state.unconfirmedCreations = unconfirmed;
    },
    get journaled() {
      return state.journaledWallet;
    },
    set journaled(created) {
      state.journaledWallet = created;
    },
  };
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
