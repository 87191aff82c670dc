/**
 * The end user's steps that call out: creating its deposit wallet once (through the wallet journal), and the
 * extra-wallet incident. Workflow code; the rules are state.ts's and the wallet journal's. The workflow
 * (workflow.ts) is its handlers and its loop over these steps.
 */
import { log, proxyActivities, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { RampActivities } from '../../activities';
import { failureReason } from '../../src/domain/errors';
import type { OutcomeSender } from '../outcomes/sender';
import { operatorActivityOptions } from '../shared/activity-options';
import { extraWalletAlert, recordOrphan, reportedAfterNotSent } from '../wallet-creation/journal';
import { keepWalletJournals, raiseExtraWalletIncident } from '../wallet-creation/owner';
import { depositWallet, depositWalletCreated, extraWallets, searchAttributes } from './state';
import type { EndUserInput, EndUserState } from './types';

const now = () => new Date().toISOString();

export class EndUserRun {
  private readonly activities: RampActivities;
  private readonly alerts: RampActivities;
  private readonly journals: ReturnType<typeof keepWalletJournals>;

  /** Registers the wallet journal's signal handlers: construct it before the workflow's first await. */
  constructor(
    readonly state: EndUserState,
    private readonly input: EndUserInput,
    private readonly outcomes: OutcomeSender,
  ) {
    this.activities = proxyActivities<RampActivities>(
      operatorActivityOptions(input.timings, { heartbeat: true }),
    );
    this.alerts = proxyActivities<RampActivities>(operatorActivityOptions(input.timings));
    this.journals = keepWalletJournals({
      journalOf: () => state.walletJournal,
      keepOrphan: (_journal, walletId, reason) => this.keepOrphan(walletId, reason),
      requestNotSent: () => {
        state.extraWalletsReported = reportedAfterNotSent(extraWallets(state), state.extraWalletsReported);
      },
    });
  }

  /** RampEndUserId (or its pseudonym), RampStatus, and the wallet once it exists. */
  publish(): void {
    upsertSearchAttributes(searchAttributes(this.state, this.input.endUserSearchValue));
    this.outcomes.touch?.();
  }

  /** Creates the deposit wallet once; a failure is recorded for the waiting updates, which may ask again. */
  async createWallet(): Promise<void> {
    const { state, input } = this;
    state.walletStatus = 'creating';
    try {
      const { wallet, addresses } = await this.journals.createWalletOnce(state.walletJournal, {
        create: (earlier) =>
          this.activities.createDepositWallet({
            endUserId: input.endUserId,
            workflowId: workflowInfo().workflowId,
            ...earlier,
          }),
        readAddresses: (walletId) => this.activities.getWalletAddresses({ walletId }),
      });
      state.wallet = depositWallet(wallet, addresses, now());
      state.walletStatus = 'ready';
      state.lastError = undefined;
      const walletEvent = depositWalletCreated(state, workflowInfo().workflowId);
      if (walletEvent) this.outcomes.raise(walletEvent.type, walletEvent.data);
    } catch (error) {
      state.walletStatus = 'failed';
      state.lastError = failureReason(error);
      log.error('Deposit wallet creation failed', { endUserId: input.endUserId, error: state.lastError });
    }
    this.publish();
  }

  /** Every wallet the operator may hold for this user besides the one shown is an incident for operations. */
  async raiseExtraWallets(): Promise<void> {
    const { state } = this;
    const { endUserId } = this.input;
    const count = extraWallets(state);
    const alert = extraWalletAlert(
      { kind: 'end-user', endUserId, shownWalletId: state.wallet?.walletId },
      workflowInfo().workflowId,
      {
        orphanWallets: state.orphanWallets.length,
        unconfirmedCreations: state.walletJournal.unconfirmed.length,
      },
    );
    await raiseExtraWalletIncident((incident) => this.alerts.raiseAlert(incident), alert, { endUserId });
    state.extraWalletsReported = count;
  }

  private keepOrphan(walletId: string, reason: string): void {
    const { endUserId } = this.input;
    if (
      recordOrphan(this.state.orphanWallets, this.state.wallet?.walletId, {
        walletId,
        reason,
        recordedAt: now(),
      })
    ) {
      log.warn('Orphan deposit wallet recorded (never shown to the user)', { endUserId, walletId, reason });
    }
  }
}
