/**
 * The account setup's steps that call out: a pass (the two wallets, once each, then the webhook recipients), what
 * the Web UI shows, and the extra-wallet incident. Workflow code; the rules are state.ts's and the wallet journal's.
 * The workflow (workflow.ts) is its handlers and its loop over these steps.
 */
import { log, proxyActivities, upsertMemo, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { RampActivities } from '../../activities';
import { failureReason } from '../../src/domain/errors';
import type { WorkflowTimings } from '../../src/domain/timings';
import { ACCOUNT_WALLET_ROLES, type AccountWalletRole, RESOURCE_KINDS } from '../../src/domain/vocabulary';
import { operatorActivityOptions } from '../shared/activity-options';
import { extraWalletAlert, recordOrphan, reportedAfterNotSent } from '../wallet-creation/journal';
import { keepWalletJournals, raiseExtraWalletIncident } from '../wallet-creation/owner';
import {
  accountWallet,
  ensuredRecipient,
  extraAccountWallets,
  publishedValues,
  roleJournal,
  roleOfJournal,
  setupResult,
  staleRecipients,
  unconfirmedCreationCount,
  withRecipient,
} from './state';
import type { AccountRecipient, AccountSetupState, AccountWallet } from './types';

const now = () => new Date().toISOString();

export class AccountSetupRun {
  private readonly activities: RampActivities;
  private readonly alerts: RampActivities;
  private readonly journals: ReturnType<typeof keepWalletJournals>;

  /** Registers the wallet journal's signal handlers: construct it before the workflow's first await. */
  constructor(
    readonly state: AccountSetupState,
    timings: WorkflowTimings,
  ) {
    this.activities = proxyActivities<RampActivities>(operatorActivityOptions(timings, { heartbeat: true }));
    this.alerts = proxyActivities<RampActivities>(operatorActivityOptions(timings));
    this.journals = keepWalletJournals({
      journalOf: (role) => roleJournal(state, role),
      keepOrphan: (journal, walletId, reason) => {
        const role = roleOfJournal(state, journal);
        if (role) this.keepOrphan(role, walletId, reason);
      },
      requestNotSent: () => {
        state.extraWalletsReported = reportedAfterNotSent(
          extraAccountWallets(state),
          state.extraWalletsReported,
        );
      },
    });
  }

  /** RampStatus and the networks as search attributes, the setup's summary as memo. */
  publish(): void {
    const { searchAttributes, memo } = publishedValues(this.state);
    upsertSearchAttributes(searchAttributes);
    upsertMemo(memo);
  }

  /** One pass: both wallets (reused once recorded), then the recipients; the state says how it ended. */
  async runSetup(): Promise<void> {
    const { state } = this;
    state.status = 'running';
    this.publish();
    try {
      const wallets: Partial<Record<AccountWalletRole, AccountWallet>> = {};
      for (const role of ACCOUNT_WALLET_ROLES) wallets[role] = await this.ensureWallet(role);
      const changes = await this.ensureRecipients();
      state.setupRuns += 1;
      state.result = setupResult(state, wallets.master!, wallets.gas!, changes, now());
      state.status = 'ready';
      delete state.lastError;
    } catch (error) {
      state.status = 'failed';
      state.lastError = failureReason(error);
      log.error('Account setup failed', { error: state.lastError });
    }
    this.publish();
  }

  /** Every account wallet the operator may hold besides the ones recorded is an incident for operations. */
  async raiseExtraWallets(): Promise<void> {
    const { state } = this;
    const count = extraAccountWallets(state);
    const alert = extraWalletAlert({ kind: 'account' }, workflowInfo().workflowId, {
      orphanWallets: state.orphanWallets.length,
      unconfirmedCreations: unconfirmedCreationCount(state),
    });
    await raiseExtraWalletIncident((incident) => this.alerts.raiseAlert(incident), alert);
    state.extraWalletsReported = count;
  }

  private keepOrphan(role: AccountWalletRole, walletId: string, reason: string): void {
    const orphan = { role, walletId, reason, recordedAt: now() };
    if (recordOrphan(this.state.orphanWallets, this.state.wallets[role]?.walletId, orphan)) {
      log.warn('Orphan account wallet recorded (its address is never handed out)', {
        role,
        walletId,
        reason,
      });
    }
  }

  private async ensureWallet(role: AccountWalletRole): Promise<AccountWallet> {
    const recorded = this.state.wallets[role];
    if (recorded) return recorded;
    const { wallet, addresses } = await this.journals.createWalletOnce(this.state.journals[role], {
      create: (earlier) =>
        this.activities.createAccountWallet({ role, workflowId: workflowInfo().workflowId, ...earlier }),
      readAddresses: (walletId) => this.activities.getWalletAddresses({ walletId }),
    });
    return (this.state.wallets[role] = accountWallet(role, wallet, addresses, now()));
  }

  /** Each kind's recipient is ours and current; a stale one we created is removed once the operator lists it. */
  private async ensureRecipients(): Promise<{ added: AccountRecipient[]; removed: AccountRecipient[] }> {
    const { state, activities } = this;
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
}
