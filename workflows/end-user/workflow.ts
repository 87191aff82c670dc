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
import type { RampActivities } from '../../activities';
import { failureReason } from '../../src/domain/errors';
import { newOutbox } from '../outcomes/outbox';
import { startOutcomeSender } from '../outcomes/sender';
import { operatorActivityOptions } from '../shared/activity-options';
import { MAX_HISTORY_EVENTS, shouldContinueAsNew } from '../shared/continue-as-new';
import { notSentHandled, raiseExtraWalletIncident } from './extra-wallet-incident';
import {
  depositWalletJournalUpdate,
  endUserStateQuery,
  ensureDepositWalletUpdate,
  offRampLinkedSignal,
  walletCreatedSignal,
  walletCreationNotSentSignal,
  walletCreationRequestedSignal,
} from './messages';
import {
  continuedInput,
  depositWallet,
  depositWalletCreated,
  depositWalletJournal,
  linkOffRamp,
  newEndUserState,
  searchAttributes,
} from './state';
import type { DepositWallet, EndUserInput } from './types';
import {
  addressesOf,
  chooseWallet,
  extraWalletAlert,
  extraWalletCount,
  extraWalletsDue,
  journalAnswer,
  journalNotSent,
  journalRequest,
  journalUnansweredAttempts,
  recordOrphan,
  refreshUnconfirmed,
  reportedAfterNotSent,
  settleActivityAnswer,
  earlierRequestsInput,
} from './wallet-journal';
import { hasPatch } from '../shared/patches';

/** Runs recorded before it fetch the new wallet's addresses with an activity of their own. */
export const ADDRESSES_IN_CREATION_PATCH = 'deposit-wallet-addresses-in-creation';

export async function endUserWorkflow(input: EndUserInput): Promise<void> {
  const { endUserId, timings } = input;
  // Only the workflow ID (end-user/<id>) names the user in clear; the search attribute may be a pseudonym.
  const endUserSearchValue = input.endUserSearchValue ?? endUserId;
  const activities = proxyActivities<RampActivities>(operatorActivityOptions(timings, { heartbeat: true }));
  const alerts = proxyActivities<RampActivities>(operatorActivityOptions(timings));
  const now = () => new Date().toISOString();

  const state = newEndUserState(input, now());
  const journal = depositWalletJournal(state);
  const creating = () => state.walletStatus === 'creating';
  let walletRequested = false;
  // Events still pending at a continue-as-new are sent by the next run, with their ids.
  const outbox = newOutbox(state.outcomes);
  const outcomes = startOutcomeSender(outbox, timings, input);
  if (outcomes.enabled) state.outcomes = outbox;

  // ---- handlers: they register no command (but the not-sent handler's patch check), so adding one keeps old
  // histories replaying.
  setHandler(endUserStateQuery, () => state);
  setHandler(depositWalletJournalUpdate, () => state.journaledWallet ?? null);
  setHandler(offRampLinkedSignal, ({ depositTransactionId }) => linkOffRamp(state, depositTransactionId));
  setHandler(walletCreationRequestedSignal, (request) => journalRequest(journal, request, creating(), now()));
  setHandler(walletCreationNotSentSignal, (notSent) => {
    if (!notSentHandled(input)) return;
    journalNotSent(journal, notSent, creating(), now());
    const reported = reportedAfterNotSent(
      extraWalletCount(state.orphanWallets, state.unconfirmedCreations),
      state.extraWalletsReported,
    );
    if (reported !== undefined) state.extraWalletsReported = reported;
  });
  setHandler(walletCreatedSignal, (created) => {
    // Answers of the older heartbeat-based journal name the attempts that got no answer.
    for (const attempt of journalUnansweredAttempts(journal, created.unconfirmedAttempts, now())) {
      log.warn('CreateWallet attempt without a usable answer: the operator may hold an orphan wallet', {
        endUserId,
        attempt,
      });
    }
    const orphanWalletId = journalAnswer(journal, created, creating(), now());
    if (orphanWalletId) keepOrphan(orphanWalletId, 'second CreateWallet answer journaled');
  });
  setHandler(ensureDepositWalletUpdate, async (): Promise<DepositWallet> => {
    if (state.wallet) return state.wallet;
    walletRequested = true;
    if (state.walletStatus === 'failed') state.walletStatus = 'none';
    await condition(() => state.wallet !== undefined || state.walletStatus === 'failed');
    if (state.wallet) return state.wallet;
    throw ApplicationFailure.create({
      type: 'DepositWalletUnavailable',
      message: `The deposit wallet of end user ${endUserId} could not be created: ${state.lastError ?? 'unknown error'}`,
    });
  });

  function keepOrphan(walletId: string, reason: string): void {
    if (recordOrphan(state.orphanWallets, state.wallet?.walletId, { walletId, reason, recordedAt: now() })) {
      log.warn('Orphan deposit wallet recorded (never shown to the user)', { endUserId, walletId, reason });
    }
  }

  const extraWallets = () => extraWalletCount(state.orphanWallets, state.unconfirmedCreations);
  const wantsWallet = () => walletRequested && !state.wallet;
  const extraWalletsToRaise = () =>
    !creating() && extraWalletsDue(extraWallets(), state.extraWalletsReported);

  async function createWallet(): Promise<void> {
    state.walletStatus = 'creating';
    try {
      const created =
        state.journaledWallet ??
        (await activities.createDepositWallet({
          endUserId,
          workflowId: workflowInfo().workflowId,
          ...(hasPatch(input, ADDRESSES_IN_CREATION_PATCH) ? { withAddresses: true } : {}),
          ...earlierRequestsInput(journal),
        }));
      settleActivityAnswer(journal, created, now());
      const { chosen, orphanWalletId } = chooseWallet<{ walletId: string; externalUserId: string }>(
        state.journaledWallet,
        created,
      );
      if (orphanWalletId) keepOrphan(orphanWalletId, 'activity answered a different wallet');
      const addresses =
        addressesOf(created, chosen.walletId) ??
        (await activities.getWalletAddresses({ walletId: chosen.walletId }));
      state.wallet = depositWallet(chosen, addresses, now());
      state.walletStatus = 'ready';
      state.lastError = undefined;
      const walletEvent = depositWalletCreated(state, workflowInfo().workflowId);
      if (walletEvent) outcomes.raise(walletEvent.type, walletEvent.data);
    } catch (error) {
      state.walletStatus = 'failed';
      state.lastError = failureReason(error);
      log.error('Deposit wallet creation failed', { endUserId, error: state.lastError });
    }
    walletRequested = false;
    refreshUnconfirmed(journal, creating());
    upsertSearchAttributes(searchAttributes(state, endUserSearchValue));
  }

  /** Every wallet the operator may hold for this user besides the one shown is an incident for the operations team. */
  async function raiseExtraWallets(): Promise<void> {
    const count = extraWallets();
    await raiseExtraWalletIncident(
      alerts.raiseAlert,
      () =>
        extraWalletAlert(
          { kind: 'end-user', endUserId, shownWalletId: state.wallet?.walletId },
          workflowInfo().workflowId,
          {
            orphanWallets: state.orphanWallets.length,
            unconfirmedCreations: state.unconfirmedCreations?.length ?? 0,
          },
        ),
      { logFields: { endUserId }, run: input },
    );
    state.extraWalletsReported = count;
  }

  // ---- the loop: create the wallet when asked, report extra wallets, hand over to a new run when history grows.
  upsertSearchAttributes(searchAttributes(state, endUserSearchValue));
  for (;;) {
    await condition(
      () =>
        wantsWallet() ||
        extraWalletsToRaise() ||
        shouldContinueAsNew(input.continueAsNewAfterEvents ?? MAX_HISTORY_EVENTS),
    );
    if (wantsWallet()) {
      await createWallet();
      continue;
    }
    if (extraWalletsToRaise()) {
      await raiseExtraWallets();
      continue;
    }
    // Let running handlers finish, then carry the state over.
    await condition(allHandlersFinished);
    await continueAsNew<typeof endUserWorkflow>(continuedInput(input, state));
  }
}
