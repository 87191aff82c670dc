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
  patched,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { RampActivities } from '../activities';
import { EndUserId, Networks, RampStatus, WalletId } from '../src/temporal/search-attributes';
import { endUserStateQuery, ensureDepositWalletUpdate, offRampLinkedSignal, walletCreatedSignal, depositWalletJournalUpdate, walletCreationRequestedSignal } from './messages';
import { operatorActivityOptions } from './activity-options';
import type { DepositWallet, EndUserInput, EndUserState } from './types';
import { extraWalletCount, unconfirmedCreations, withAnswer, withRequest } from './wallet-journal';

/** Continue as new well before Temporal's history limits; the server's suggestion wins if it comes first. */
const MAX_HISTORY_EVENTS = 2_000;

export async function endUserWorkflow(input: EndUserInput): Promise<void> {
  const { endUserId, timings } = input;
  // Only the workflow ID (end-user/<id>) names the user in clear; the search attribute may be a pseudonym.
  const endUserSearchValue = input.endUserSearchValue ?? endUserId;
  const activities = proxyActivities<RampActivities>(operatorActivityOptions(timings, { heartbeat: true }));
  const alerts = proxyActivities<RampActivities>(operatorActivityOptions(timings));

  const state: EndUserState = {
    endUserId,
    wallet: input.carried?.wallet,
    orphanWallets: input.carried?.orphanWallets ?? [],
    createdAt: input.carried?.createdAt ?? new Date().toISOString(),
    runs: (input.carried?.runs ?? 0) + 1,
    walletStatus: input.carried?.wallet ? 'ready' : 'none',
    offRamps: input.carried?.offRamps ?? [],
    ...(input.carried?.unconfirmedCreations ? { unconfirmedCreations: input.carried.unconfirmedCreations } : {}),
    ...(input.carried?.creationRequests ? { creationRequests: input.carried.creationRequests } : {}),
    ...(input.carried?.extraWalletsReported ? { extraWalletsReported: input.carried.extraWalletsReported } : {}),
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
  setHandler(walletCreationRequestedSignal, (request) => {
    state.creationRequests = withRequest(state.creationRequests ?? [], request, new Date().toISOString());
    refreshUnconfirmed();
  });
  setHandler(walletCreatedSignal, (created) => {
    if (created.requestId) state.creationRequests = withAnswer(state.creationRequests ?? [], created, new Date().toISOString());
    // Answers of the older heartbeat-based journal name the attempts that got no answer.
    for (const attempt of created.unconfirmedAttempts ?? []) {
      const unconfirmed = (state.unconfirmedCreations ??= []);
      if (!unconfirmed.some((entry) => entry.attempt === attempt)) {
        unconfirmed.push({ attempt, recordedAt: new Date().toISOString() });
        log.warn('CreateWallet attempt without a usable answer: the operator may hold an orphan wallet', { endUserId, attempt });
      }
    }
    if (!state.journaledWallet) state.journaledWallet = created;
    else if (state.journaledWallet.walletId !== created.walletId) recordOrphan(created.walletId, 'second CreateWallet answer journaled');
    refreshUnconfirmed();
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

  /** Requests sent without an answer are possible orphans whose ID cannot be known: list them. */
  function refreshUnconfirmed() {
    if (!state.creationRequests?.length) return;
    state.unconfirmedCreations = unconfirmedCreations(state.unconfirmedCreations, state.creationRequests, state.walletStatus === 'creating');
  }

  const extraWallets = () => extraWalletCount(state.orphanWallets, state.unconfirmedCreations);

  /** Every wallet the operator may hold for this user besides the one shown is an incident for the operations team. */
  async function raiseExtraWallets(): Promise<void> {
    const count = extraWallets();
    if (patched('extra-wallet-incident')) {
      try {
        await alerts.raiseAlert({
          kind: 'extra-wallet',
          message: `The operator may hold ${count} deposit wallet(s) for end user ${endUserId} besides the one shown (${state.orphanWallets.length} with a known ID, ${state.unconfirmedCreations?.length ?? 0} requested without an answer): close them with the operator by label end-user:${endUserId}`,
          workflowId: workflowInfo().workflowId,
          details: { walletOwner: workflowInfo().workflowId, endUserId, shownWalletId: state.wallet?.walletId ?? null, orphanWallets: state.orphanWallets.length, unconfirmedCreations: state.unconfirmedCreations?.length ?? 0 },
        });
      } catch (error) {
        log.error('Extra wallet incident could not be raised', { endUserId, error: error instanceof Error ? error.message : String(error) });
      }
    }
    state.extraWalletsReported = count;
  }

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
      // The activity's answer settles its request even when its journal signal was lost.
      if (created.requestId) state.creationRequests = withAnswer(state.creationRequests ?? [], { ...created, attempt: 0 }, new Date().toISOString());
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
    refreshUnconfirmed();
    publishSearchAttributes();
  }

  for (;;) {
    await condition(
      () =>
        (walletRequested && !state.wallet) ||
        (state.walletStatus !== 'creating' && extraWallets() > (state.extraWalletsReported ?? 0)) ||
        workflowInfo().continueAsNewSuggested ||
        workflowInfo().historyLength > (input.continueAsNewAfterEvents ?? MAX_HISTORY_EVENTS),
    );
    if (walletRequested && !state.wallet) {
      await createWallet();
      continue;
    }
    if (state.walletStatus !== 'creating' && extraWallets() > (state.extraWalletsReported ?? 0)) {
      await raiseExtraWallets();
      continue;
    }
    // Time to continue as new: let running handlers finish, then carry the state over.
    await condition(allHandlersFinished);
    await continueAsNew<typeof endUserWorkflow>({
      endUserId,
      ...(input.endUserSearchValue ? { endUserSearchValue: input.endUserSearchValue } : {}),
      timings,
      ...(input.continueAsNewAfterEvents ? { continueAsNewAfterEvents: input.continueAsNewAfterEvents } : {}),
      carried: {
        wallet: state.wallet,
        orphanWallets: state.orphanWallets,
        createdAt: state.createdAt,
        runs: state.runs,
        offRamps: state.offRamps,
        ...(state.unconfirmedCreations ? { unconfirmedCreations: state.unconfirmedCreations } : {}),
        ...(state.creationRequests ? { creationRequests: state.creationRequests } : {}),
        ...(state.extraWalletsReported ? { extraWalletsReported: state.extraWalletsReported } : {}),
      },
    });
  }
}
