/**
 * account-setup: one long-lived workflow per namespace (fixed ID, src/domain/ids.ts). It creates the account's
 * master and gas wallets on the Ethereum and Tron networks, reads their addresses, registers our receiver for both
 * webhook recipient kinds (list first, add only what is missing, remove only stale recipients it created itself),
 * and keeps the result: a query answers it, the memo and RampStatus show it in the Web UI.
 *
 * `setupAccount` updates (update-with-start) each trigger a pass; a pass reuses the wallets already recorded and
 * re-checks the recipients, so running the setup twice creates nothing new. Wallet creation journals the
 * operator's answer (walletCreated signal carrying the role) exactly like the end user's deposit wallet.
 */
import { allHandlersFinished, ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import { shouldContinueAsNew } from '../shared/continue-as-new';
import { extraWalletsDue } from '../wallet-creation/journal';
import { accountStateQuery, setupAccountUpdate } from './messages';
import { carriedState, extraAccountWallets, newAccountSetupState } from './state';
import { AccountSetupRun } from './steps';
import type { AccountSetupInput, AccountSetupResult } from './types';
import { continueOnCurrentVersion, declareReleaseBehaviour, watchReleases } from '../shared/versioning';

export async function accountSetupWorkflow(input: AccountSetupInput): Promise<void> {
  const { timings } = input;
  const state = newAccountSetupState(input.carried, new Date().toISOString());
  /** Passes requested by updates, and the request number the last finished pass covered. */
  let requested = 0;
  let covered = 0;

  // ---- handlers (the wallet journal's are the run's)
  const run = new AccountSetupRun(state, timings);
  const newerVersion = watchReleases();
  setHandler(accountStateQuery, () => state);
  setHandler(setupAccountUpdate, async (): Promise<AccountSetupResult> => {
    const mine = ++requested;
    await condition(() => covered >= mine);
    if (state.status === 'ready' && state.result) return state.result;
    throw ApplicationFailure.create({
      type: 'AccountSetupFailed',
      message: `The account setup failed: ${state.lastError ?? 'unknown error'}`,
    });
  });

  // ---- the loop: one pass per batch of requests, report extra wallets, hand over to a new run when history grows or a
  // newer version is current.
  const extraWalletsToRaise = () => extraWalletsDue(extraAccountWallets(state), state.extraWalletsReported);
  run.publish();
  for (;;) {
    await condition(
      () => requested > covered || extraWalletsToRaise() || shouldContinueAsNew() || newerVersion(),
    );
    if (requested > covered) {
      const passFor = requested;
      await run.runSetup();
      covered = passFor;
    } else if (extraWalletsToRaise()) await run.raiseExtraWallets();
    else {
      // Let running handlers finish, then carry the state over.
      await condition(allHandlersFinished);
      await continueOnCurrentVersion<typeof accountSetupWorkflow>()({
        timings,
        carried: carriedState(state),
      });
    }
  }
}

declareReleaseBehaviour(accountSetupWorkflow, 'pinned, moves at continue-as-new');
