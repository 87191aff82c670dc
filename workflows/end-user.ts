/**
 * end-user/<endUserId>: one long-lived workflow per end user. It owns the user's single deposit wallet.
 *
 * Exactly one wallet: Temporal serialises everything for one workflow ID, and this workflow creates the wallet
 * from its main loop only, once, however many `ensureDepositWallet` updates arrive. The creation activity
 * journals the operator's answer into this workflow (walletCreated signal) before it returns, so a worker that dies
 * after the operator answered does not lead to a second wallet; see docs/architecture.md for the full argument.
 */
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { RampActivities } from '../activities';
import { EndUserId, Networks, RampStatus, WalletId } from '../src/temporal/search-attributes';
import { endUserStateQuery, ensureDepositWalletUpdate, offRampLinkedSignal, walletCreatedSignal, depositWalletJournalUpdate } from './messages';
import { operatorActivityOptions } from './activity-options';
import type { DepositWallet, EndUserInput, EndUserState } from './types';

/** Continue as new well before Temporal's history limits; the server's suggestion wins if it comes first. */
const MAX_HISTORY_EVENTS = 2_000;

export async function endUserWorkflow(input: EndUserInput): Promise<void> {
  const { endUserId, timings } = input;
  // Only the workflow ID (end-user/<id>) names the user in clear; the search attribute may be a pseudonym.
  const endUserSearchValue = input.endUserSearchValue ?? endUserId;
  const activities = proxyActivities<RampActivities>(operatorActivityOptions(timings, { heartbeat: true }));

  const state: EndUserState = {
    endUserId,
    wallet: input.carried?.wallet,
    orphanWallets: input.carried?.orphanWallets ?? [],
    createdAt: input.carried?.createdAt ?? new Date().toISOString(),
    runs: (input.carried?.runs ?? 0) + 1,
    walletStatus: input.carried?.wallet ? 'ready' : 'none',
    offRamps: input.carried?.offRamps ?? [],
    ...(input.carried?.unconfirmedCreations ? { unconfirmedCreations: input.carried.unconfirmedCreations } : {}),
  };
  let walletRequested = false;

  setHandler(endUserStateQuery, () => state);
  // Handlers register no command, so adding one keeps old histories replaying.
  setHandler(depositWalletJournalUpdate, () => state.journaledWallet ?? null);
  // Issue 5: each off-ramp of this user's deposits reports itself (no command, so no patch needed for old histories).
  setHandler(offRampLinkedSignal, ({ depositTransactionId }) => {
    const offRamps = (state.offRamps ??= []);
    if (!offRamps.includes(depositTransactionId)) offRamps.push(depositTransactionId);
  });
  setHandler(walletCreatedSignal, (created) => {
    for (const attempt of created.unconfirmedAttempts ?? []) {
      const unconfirmed = (state.unconfirmedCreations ??= []);
      if (!unconfirmed.some((entry) => entry.attempt === attempt)) {
        unconfirmed.push({ attempt, recordedAt: new Date().toISOString() });
        log.warn('CreateWallet attempt without a usable answer: the operator may hold an orphan wallet', { endUserId, attempt });
      }
    }
    if (!state.journaledWallet) state.journaledWallet = created;
    else if (state.journaledWallet.walletId !== created.walletId) recordOrphan(created.walletId, 'second CreateWallet answer journaled');
  });
  setHandler(ensureDepositWalletUpdate, async (): Promise<DepositWallet> => {
    if (state.wallet) return state.wallet;
    walletRequested = true;
    const failedBefore = state.walletStatus === 'failed';
    if (failedBefore) state.walletStatus = 'none';
    await condition(() => state.wallet !== undefined || state.walletStatus === 'failed');
    if (state.wallet) return state.wallet;
    throw ApplicationFailure.create({
      type: 'DepositWalletUnavailable',
      message: `The deposit wallet of end user ${endUserId} could not be created: ${state.lastError ?? 'unknown error'}`,
    });
  });

  function recordOrphan(walletId: string, reason: string) {
    if (state.wallet?.walletId === walletId || state.orphanWallets.some((orphan) => orphan.walletId === walletId)) return;
    state.orphanWallets.push({ walletId, reason, recordedAt: new Date().toISOString() });
    log.warn('Orphan deposit wallet recorded (never shown to the user)', { endUserId, walletId, reason });
  }

  publishSearchAttributes();

  function publishSearchAttributes() {
    const status = state.wallet ? 'wallet-ready' : state.walletStatus === 'failed' ? 'wallet-failed' : 'wallet-pending';
    upsertSearchAttributes([
      { key: EndUserId, value: endUserSearchValue },
      { key: RampStatus, value: status },
      ...(state.wallet
        ? [
            { key: WalletId, value: state.wallet.walletId },
            { key: Networks, value: state.wallet.addresses.map((entry) => entry.network) },
          ]
        : []),
    ]);
  }

  async function createWallet(): Promise<void> {
    state.walletStatus = 'creating';
    try {
      const created = state.journaledWallet ?? (await activities.createDepositWallet({ endUserId, workflowId: workflowInfo().workflowId }));
      // The journal may have arrived while the activity ran; the journaled wallet is the one the operator created first.
      const chosen = state.journaledWallet ?? created;
      if (created.walletId !== chosen.walletId) recordOrphan(created.walletId, 'activity answered a different wallet');
      const addresses = await activities.getWalletAddresses({ walletId: chosen.walletId });
      state.wallet = {
        walletId: chosen.walletId,
        externalUserId: chosen.externalUserId,
        addresses: addresses.map(({ network, address }) => ({ network, address })),
        createdAt: new Date().toISOString(),
      };
      state.walletStatus = 'ready';
      state.lastError = undefined;
    } catch (error) {
      state.walletStatus = 'failed';
      state.lastError = error instanceof Error ? error.message : String(error);
      log.error('Deposit wallet creation failed', { endUserId, error: state.lastError });
    }
    walletRequested = false;
    publishSearchAttributes();
  }

  for (;;) {
    await condition(
      () =>
        (walletRequested && !state.wallet) ||
        workflowInfo().continueAsNewSuggested ||
        workflowInfo().historyLength > (input.continueAsNewAfterEvents ?? MAX_HISTORY_EVENTS),
    );
    if (walletRequested && !state.wallet) {
      await createWallet();
      continue;
    }
    // Time to continue as new: let running handlers finish, then carry the state over.
    await condition(allHandlersFinished);
    await continueAsNew<typeof endUserWorkflow>({
      endUserId,
      ...(input.endUserSearchValue ? { endUserSearchValue: input.endUserSearchValue } : {}),
      timings,
      ...(input.continueAsNewAfterEvents ? { continueAsNewAfterEvents: input.continueAsNewAfterEvents } : {}),
      carried: { wallet: state.wallet, orphanWallets: state.orphanWallets, createdAt: state.createdAt, runs: state.runs, offRamps: state.offRamps, ...(state.unconfirmedCreations ? { unconfirmedCreations: state.unconfirmedCreations } : {}) },
    });
  }
}
