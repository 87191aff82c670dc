/**
 * end-user/<endUserId>: one long-lived workflow per end user. It owns the user's single deposit wallet.
 *
 * Exactly one wallet: Temporal serialises everything for one workflow ID, and this workflow creates the wallet
 * from its main loop only, once, however many `ensureDepositWallet` updates arrive. The creation activity
 * journals its request and the operator's answer into this workflow (workflows/wallet-creation), so a worker that
 * dies at any instant leads neither to a second wallet nor to one nobody knows of; docs/architecture.md has the
 * argument.
 */
import { allHandlersFinished, ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import { recordsIntoLedger } from '../outcomes/ledger';
import { startOutcomeSender } from '../outcomes/sender';
import { MAX_HISTORY_EVENTS, shouldContinueAsNew } from '../shared/continue-as-new';
import { extraWalletsDue } from '../wallet-creation/journal';
import {
  depositQuoteShownSignal,
  endUserStateQuery,
  ensureDepositWalletUpdate,
  linkOffRampUpdate,
  offRampLinkedSignal,
} from './messages';
import { endUserLedger } from './ledger';
import { continuedInput, extraWallets, linkOffRamp, newEndUserState, quoteOfDeposit } from './state';
import { EndUserRun } from './steps';
import type { DepositWallet, EndUserInput } from './types';
import { continueOnCurrentVersion, declareReleaseBehaviour, watchReleases } from '../shared/versioning';

export async function endUserWorkflow(input: EndUserInput): Promise<void> {
  const { endUserId } = input;
  const state = newEndUserState(input, new Date().toISOString());
  // A run before the ledger may have handed over events it had not sent, and a wallet the ledger does not hold.
  const unrecorded =
    state.outcomes.events.some((record) => record.delivery === 'pending') ||
    (state.wallet !== undefined && state.recordedRevision === undefined);
  // Its view, wallet and events go to the ledger; a run from a 1.0 history sends from its own outbox (events still
  // pending at a continue-as-new are sent by the next run, with their ids).
  const ledger = recordsIntoLedger() ? endUserLedger(state, input) : undefined;
  const outcomes = ledger ?? startOutcomeSender(state.outcomes, input.timings);
  let walletRequested = false;
  // An update answers the wallet once the ledger holds it, so that a read right after sees it.
  let walletRecorded = !ledger || state.wallet !== undefined;

  // ---- handlers (the wallet journal's are the run's)
  const run = new EndUserRun(state, input, outcomes);
  const newerVersion = watchReleases();
  setHandler(endUserStateQuery, () => state);
  setHandler(offRampLinkedSignal, ({ depositTransactionId }) => linkOffRamp(state, depositTransactionId));
  setHandler(linkOffRampUpdate, ({ depositTransactionId }) => {
    linkOffRamp(state, depositTransactionId);
    return quoteOfDeposit(state, depositTransactionId) ?? null;
  });
  setHandler(depositQuoteShownSignal, (quote) => {
    state.depositQuote = quote;
  });
  setHandler(ensureDepositWalletUpdate, async (): Promise<DepositWallet> => {
    if (state.wallet) return state.wallet;
    walletRequested = true;
    if (state.walletStatus === 'failed') state.walletStatus = 'none';
    await condition(() => (state.wallet !== undefined && walletRecorded) || state.walletStatus === 'failed');
    if (state.wallet) return state.wallet;
    throw ApplicationFailure.create({
      type: 'DepositWalletUnavailable',
      message: `The deposit wallet of end user ${endUserId} could not be created: ${state.lastError ?? 'unknown error'}`,
    });
  });

  // ---- the loop: create the wallet when asked, report extra wallets, hand over to a new run when history grows or a
  // newer version is current.
  const wantsWallet = () => walletRequested && !state.wallet;
  const extraWalletsToRaise = () =>
    state.walletStatus !== 'creating' && extraWalletsDue(extraWallets(state), state.extraWalletsReported);
  run.publish();
  if (ledger && unrecorded) await ledger.sync();
  for (;;) {
    await condition(
      () =>
        wantsWallet() ||
        extraWalletsToRaise() ||
        shouldContinueAsNew(input.continueAsNewAfterEvents ?? MAX_HISTORY_EVENTS) ||
        newerVersion(),
    );
    if (wantsWallet()) {
      await run.createWallet();
      walletRequested = false;
      if (ledger) {
        await ledger.sync();
        walletRecorded = true;
      }
    } else if (extraWalletsToRaise()) await run.raiseExtraWallets();
    else {
      // Let running handlers finish, then carry the state over.
      await condition(allHandlersFinished);
      await continueOnCurrentVersion<typeof endUserWorkflow>()(continuedInput(input, state));
    }
  }
}

declareReleaseBehaviour(endUserWorkflow, 'pinned, moves at continue-as-new');
