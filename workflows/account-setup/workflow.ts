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
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { RampActivities } from '../../activities';
import { failureReason } from '../../src/domain/errors';
import { ACCOUNT_WALLET_ROLES, type AccountWalletRole, RESOURCE_KINDS } from '../../src/domain/vocabulary';
import { operatorActivityOptions } from '../shared/activity-options';
import { shouldContinueAsNew } from '../shared/continue-as-new';
import {
  extraWalletAlert,
  extraWalletsDue,
  recordOrphan,
  reportedAfterNotSent,
} from '../wallet-creation/journal';
import { keepWalletJournals, raiseExtraWalletIncident } from '../wallet-creation/owner';
import { accountStateQuery, setupAccountUpdate } from './messages';
import {
  accountWallet,
  carriedState,
  ensuredRecipient,
  extraAccountWallets,
  newAccountSetupState,
  publishedValues,
  roleJournal,
  roleOfJournal,
  setupResult,
  staleRecipients,
  unconfirmedCreationCount,
  withRecipient,
} from './state';
import type { AccountRecipient, AccountSetupInput, AccountSetupResult, AccountWallet } from './types';

export async function accountSetupWorkflow(input: AccountSetupInput): Promise<void> {
  const { timings } = input;
  const activities = proxyActivities<RampActivities>(operatorActivityOptions(timings, { heartbeat: true }));
  const alerts = proxyActivities<RampActivities>(operatorActivityOptions(timings));
  const now = () => new Date().toISOString();

  const state = newAccountSetupState(input.carried, now());
  /** Passes requested by updates, and the request number the last finished pass covered. */
  let requested = 0;
  let covered = 0;

  // ---- handlers
  setHandler(accountStateQuery, () => state);
  const journals = keepWalletJournals({
    journalOf: (role) => roleJournal(state, role),
    keepOrphan: (journal, walletId, reason) => {
      const role = roleOfJournal(state, journal);
      if (role) keepOrphan(role, walletId, reason);
    },
    requestNotSent: () => {
      state.extraWalletsReported = reportedAfterNotSent(
        extraAccountWallets(state),
        state.extraWalletsReported,
      );
    },
  });
  setHandler(setupAccountUpdate, async (): Promise<AccountSetupResult> => {
    const mine = ++requested;
    await condition(() => covered >= mine);
    if (state.status === 'ready' && state.result) return state.result;
    throw ApplicationFailure.create({
      type: 'AccountSetupFailed',
      message: `The account setup failed: ${state.lastError ?? 'unknown error'}`,
    });
  });

  // ---- the loop: one pass per batch of requests, report extra wallets, hand over to a new run when history grows.
  const extraWalletsToRaise = () => extraWalletsDue(extraAccountWallets(state), state.extraWalletsReported);
  publish();
  for (;;) {
    await condition(() => requested > covered || extraWalletsToRaise() || shouldContinueAsNew());
    if (requested > covered) {
      const passFor = requested;
      await runSetup();
      covered = passFor;
    } else if (extraWalletsToRaise()) await raiseExtraWallets();
    else {
      // Let running handlers finish, then carry the state over.
      await condition(allHandlersFinished);
      await continueAsNew<typeof accountSetupWorkflow>({ timings, carried: carriedState(state) });
    }
  }

  function keepOrphan(role: AccountWalletRole, walletId: string, reason: string): void {
    const orphan = { role, walletId, reason, recordedAt: now() };
    if (recordOrphan(state.orphanWallets, state.wallets[role]?.walletId, orphan)) {
      log.warn('Orphan account wallet recorded (its address is never handed out)', {
        role,
        walletId,
        reason,
      });
    }
  }

  function publish(): void {
    const { searchAttributes, memo } = publishedValues(state);
    upsertSearchAttributes(searchAttributes);
    upsertMemo(memo);
  }

  async function ensureWallet(role: AccountWalletRole): Promise<AccountWallet> {
    const recorded = state.wallets[role];
    if (recorded) return recorded;
    const { wallet, addresses } = await journals.createWalletOnce(state.journals[role], {
      create: (earlier) =>
        activities.createAccountWallet({ role, workflowId: workflowInfo().workflowId, ...earlier }),
      readAddresses: (walletId) => activities.getWalletAddresses({ walletId }),
    });
    return (state.wallets[role] = accountWallet(role, wallet, addresses, now()));
  }

  async function ensureRecipients(): Promise<{ added: AccountRecipient[]; removed: AccountRecipient[] }> {
    const added: AccountRecipient[] = [];
    const removed: AccountRecipient[] = [];
    for (const kind of RESOURCE_KINDS) {
      const answer = await activities.ensureWebhookRecipient({ kind });
      const current = ensuredRecipient(state.recipients, kind, answer, now());
      if (answer.created) added.push(current);
      const stale = staleRecipients(state.recipients, kind, current.id);
      if (stale.length > 0) {
        const listed = await activities.listWebhookRecipients({ kind });
        for (const old of stale) {
          const still = listed.find((entry) => entry.id === old.id);
          if (still && !still.matchesReceiver) {
            await activities.deleteWebhookRecipient({ kind, id: old.id });
            removed.push(old);
          }
        }
      }
      state.recipients = withRecipient(state.recipients, current);
    }
    return { added, removed };
  }

  async function runSetup(): Promise<void> {
    state.status = 'running';
    publish();
    try {
      const wallets: Partial<Record<AccountWalletRole, AccountWallet>> = {};
      for (const role of ACCOUNT_WALLET_ROLES) wallets[role] = await ensureWallet(role);
      const changes = await ensureRecipients();
      state.setupRuns += 1;
      state.result = setupResult(state, wallets.master!, wallets.gas!, changes, now());
      state.status = 'ready';
      delete state.lastError;
    } catch (error) {
      state.status = 'failed';
      state.lastError = failureReason(error);
      log.error('Account setup failed', { error: state.lastError });
    }
    publish();
  }

  /** Every account wallet the operator may hold besides the ones recorded is an incident for operations. */
  async function raiseExtraWallets(): Promise<void> {
    const count = extraAccountWallets(state);
    const alert = extraWalletAlert({ kind: 'account' }, workflowInfo().workflowId, {
      orphanWallets: state.orphanWallets.length,
      unconfirmedCreations: unconfirmedCreationCount(state),
    });
    await raiseExtraWalletIncident(alerts.raiseAlert, alert);
    state.extraWalletsReported = count;
  }
}
