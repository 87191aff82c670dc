/**
 * end-user/<endUserId>: one long-lived workflow per end user. It owns the user's single deposit wallet.
 *
 * Exactly one wallet: Temporal serialises everything for one workflow ID, and this workflow creates the wallet
 * from its main loop only, once, however many `ensureDepositWallet` updates arrive. The creation activity
 * journals its request and the operator's answer into this workflow (workflows/wallet-creation), so a worker that
 * dies at any instant leads neither to a second wallet nor to one nobody knows of; docs/architecture.md has the
 * argument.
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
import { startOutcomeSender } from '../outcomes/sender';
import { operatorActivityOptions } from '../shared/activity-options';
import { MAX_HISTORY_EVENTS, shouldContinueAsNew } from '../shared/continue-as-new';
import {
  extraWalletAlert,
  extraWalletsDue,
  recordOrphan,
  reportedAfterNotSent,
} from '../wallet-creation/journal';
import { keepWalletJournals, raiseExtraWalletIncident } from '../wallet-creation/owner';
import { endUserStateQuery, ensureDepositWalletUpdate, offRampLinkedSignal } from './messages';
import {
  continuedInput,
  depositWallet,
  depositWalletCreated,
  extraWallets,
  linkOffRamp,
  newEndUserState,
  searchAttributes,
} from './state';
import type { DepositWallet, EndUserInput } from './types';

export async function endUserWorkflow(input: EndUserInput): Promise<void> {
  const { endUserId, endUserSearchValue, timings } = input;
  const activities = proxyActivities<RampActivities>(operatorActivityOptions(timings, { heartbeat: true }));
  const alerts = proxyActivities<RampActivities>(operatorActivityOptions(timings));
  const now = () => new Date().toISOString();
  const state = newEndUserState(input, now());
  // Events still pending at a continue-as-new are sent by the next run, with their ids.
  const outcomes = startOutcomeSender(state.outcomes, timings);
  let walletRequested = false;

  // ---- handlers
  setHandler(endUserStateQuery, () => state);
  setHandler(offRampLinkedSignal, ({ depositTransactionId }) => linkOffRamp(state, depositTransactionId));
  const journals = keepWalletJournals({
    journalOf: () => state.walletJournal,
    keepOrphan: (_journal, walletId, reason) => keepOrphan(walletId, reason),
    requestNotSent: () => {
      state.extraWalletsReported = reportedAfterNotSent(extraWallets(state), state.extraWalletsReported);
    },
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

  // ---- the loop: create the wallet when asked, report extra wallets, hand over to a new run when history grows.
  const wantsWallet = () => walletRequested && !state.wallet;
  const extraWalletsToRaise = () =>
    state.walletStatus !== 'creating' && extraWalletsDue(extraWallets(state), state.extraWalletsReported);
  upsertSearchAttributes(searchAttributes(state, endUserSearchValue));
  for (;;) {
    await condition(
      () =>
        wantsWallet() ||
        extraWalletsToRaise() ||
        shouldContinueAsNew(input.continueAsNewAfterEvents ?? MAX_HISTORY_EVENTS),
    );
    if (wantsWallet()) await createWallet();
    else if (extraWalletsToRaise()) await raiseExtraWallets();
    else {
      // Let running handlers finish, then carry the state over.
      await condition(allHandlersFinished);
      await continueAsNew<typeof endUserWorkflow>(continuedInput(input, state));
    }
  }

  async function createWallet(): Promise<void> {
    state.walletStatus = 'creating';
    try {
      const { wallet, addresses } = await journals.createWalletOnce(state.walletJournal, {
        create: (earlier) =>
          activities.createDepositWallet({ endUserId, workflowId: workflowInfo().workflowId, ...earlier }),
        readAddresses: (walletId) => activities.getWalletAddresses({ walletId }),
      });
      state.wallet = depositWallet(wallet, addresses, now());
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
    upsertSearchAttributes(searchAttributes(state, endUserSearchValue));
  }

  function keepOrphan(walletId: string, reason: string): void {
    if (recordOrphan(state.orphanWallets, state.wallet?.walletId, { walletId, reason, recordedAt: now() })) {
      log.warn('Orphan deposit wallet recorded (never shown to the user)', { endUserId, walletId, reason });
    }
  }

  /** Every wallet the operator may hold for this user besides the one shown is an incident for operations. */
  async function raiseExtraWallets(): Promise<void> {
    const count = extraWallets(state);
    const alert = extraWalletAlert(
      { kind: 'end-user', endUserId, shownWalletId: state.wallet?.walletId },
      workflowInfo().workflowId,
      {
        orphanWallets: state.orphanWallets.length,
        unconfirmedCreations: state.walletJournal.unconfirmed.length,
      },
    );
    await raiseExtraWalletIncident(alerts.raiseAlert, alert, { endUserId });
    state.extraWalletsReported = count;
  }
}
