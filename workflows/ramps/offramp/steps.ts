/**
 * The off-ramp's steps that call out: operator reads and polls, its attribution to an end user, the gas check when
 * it is stuck, and its alerts. Workflow code; the decisions are state.ts's. The workflow (workflow.ts) is its
 * handlers and its loop over these steps.
 */
import { log, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { RampActivities } from '../../../activities';
import { failureReason } from '../../../src/domain/errors';
import type { WorkflowTimings } from '../../../src/domain/timings';
import type { GasCheck } from '../../operations/gas-monitor/types';
import type { OutcomeSender } from '../../outcomes/sender';
import { operatorActivityOptions } from '../../shared/activity-options';
import type { FoundException } from '../shared/exceptions';
import { type ExceptionAlerts, raiseExceptions, resolveExceptionAlerts } from '../shared/exception-steps';
import type { RampAlert } from '../shared/rules';
import type { OrderSnapshot } from '../shared/snapshots';
import { failureNote } from '../shared/step-timing';
import {
  stuckAlert,
  type StuckAlertKind,
  stuckNetwork,
  stuckResolution,
  unavailableGasCheck,
} from './alerts';
import { offRampRules } from './rules';
import { applyOrder, applyPoll, pollRequest } from './state';
import type { OffRampState } from './types';

/** One off-ramp run's state and what its steps remember between them. */
export class OffRampRun {
  /** Counts the snapshots that changed the state: the loop waits for it to move. */
  revision = 0;
  /** RampEndUserId: the end user ID, or its pseudonym with payload encryption (computed by attributeOffRamp). */
  endUserSearchValue: string | null = null;
  /** The order a forward brought along with a sweep or order transaction (applied in the loop). */
  forwardedOrder: OrderSnapshot | undefined;
  /** The kind of the stuck alert raised, so the incident is resolved when the deposit settles. */
  private stuckAlertKind: StuckAlertKind | undefined;
  private readonly activities: RampActivities;
  /** Visibility is eventually consistent: a bounded number of lookups, then the process runs unattributed. */
  private readonly lookup: RampActivities;
  /** The exception steps' incidents, raised and resolved like the off-ramp's own. */
  private readonly exceptionAlerts: ExceptionAlerts = {
    raise: (alert) => this.send(alert),
    resolveAlert: (resolution) => this.activities.resolveAlert(resolution),
  };

  constructor(
    readonly state: OffRampState,
    timings: WorkflowTimings,
    private readonly outcomes: OutcomeSender,
  ) {
    this.activities = proxyActivities<RampActivities>(operatorActivityOptions(timings));
    this.lookup = proxyActivities<RampActivities>({
      ...operatorActivityOptions(timings),
      retry: {
        initialInterval: timings.activityRetryInitialMs,
        maximumInterval: timings.activityRetryMaximumMs,
        backoffCoefficient: 2,
        maximumAttempts: 6,
      },
    });
  }

  /** Re-reads everything the off-ramp can reach from its deposit (its next event is late). */
  async poll(): Promise<void> {
    this.state.polls += 1;
    const found = await this.activities.pollOffRamp(pollRequest(this.state));
    if (applyPoll(this.state, found).revised) this.revision += 1;
  }

  /** The order to settle from: the one a forward brought along, else read. */
  async takeOrder(orderId: string): Promise<void> {
    if (this.forwardedOrder?.id === orderId) {
      if (applyOrder(this.state, this.forwardedOrder).revised) this.revision += 1;
      return;
    }
    await this.readOrder(orderId);
  }

  /** The order once more before settling: as a forward carried it executed, else read from the operator. */
  async confirmOrder(orderId: string): Promise<void> {
    const forwarded = this.forwardedOrder;
    if (forwarded?.id === orderId && forwarded.status === 'executed') {
      if (applyOrder(this.state, forwarded).revised) this.revision += 1;
      return;
    }
    await this.readOrder(orderId);
  }

  /** Reads the order from the operator (a failed read is noted; the loop goes on). */
  private async readOrder(orderId: string): Promise<void> {
    await this.tolerate('order read', async () => {
      const order = await this.activities.readOrderSnapshot({ id: orderId });
      if (applyOrder(this.state, order).revised) this.revision += 1;
    });
  }

  /** Runs an operator read; a failure is recorded and logged, and the loop simply reads again later. */
  async tolerate(what: string, read: () => Promise<void>): Promise<void> {
    try {
      await read();
    } catch (error) {
      this.state.lastFailure = failureNote(what, error);
      log.warn('Operator read failed; the off-ramp keeps waiting and reads again', {
        depositTransactionId: this.state.depositTransactionId,
        what,
        error: this.state.lastFailure.message,
      });
    }
  }

  /**
   * Finds the deposit wallet's end user and tells its end-user/<id> workflow, in one activity (so this history names
   * no end-user/<id> workflow; RampEndUserId holds a pseudonym when payload encryption is on).
   */
  async attribute(walletId: string): Promise<void> {
    try {
      const owner = await this.lookup.attributeOffRamp({
        walletId,
        depositTransactionId: this.state.depositTransactionId,
      });
      this.state.endUserId = owner.endUserId;
      this.endUserSearchValue = owner.endUserSearchValue;
      if (owner.quote) this.state.quote = owner.quote;
    } catch {
      this.state.unattributed = true;
      log.warn('No end user owns the deposit wallet; the off-ramp runs unattributed', {
        depositTransactionId: this.state.depositTransactionId,
        walletId,
      });
    }
  }

  /** Raises one of the off-ramp's own alerts (a stuck or timed-out one: alertsRaised counts them). */
  async alert(alert: RampAlert): Promise<void> {
    if (await this.send(alert)) this.state.alertsRaised += 1;
  }

  private async send({ kind, message, details }: RampAlert): Promise<boolean> {
    try {
      await this.activities.raiseAlert({ kind, message, workflowId: workflowInfo().workflowId, details });
      return true;
    } catch (error) {
      log.error('Alert could not be raised', { kind, error: failureReason(error) });
      return false;
    }
  }

  /** Records each exception found, raises its `off_ramp.exception` and its incident, when it is seen. */
  async raiseExceptions(found: readonly FoundException[]): Promise<void> {
    await raiseExceptions(this.state, offRampRules, found, this.outcomes, this.exceptionAlerts);
  }

  /** The market exceptions' incidents close once the deposit settled anyway; off_quote and unattributed stay. */
  async resolveExceptionAlerts(): Promise<void> {
    await resolveExceptionAlerts(this.state, offRampRules, this.exceptionAlerts);
  }

  /** The sweep did not start in time: check the gas wallet, and raise one alert that says why. */
  async markStuck(): Promise<void> {
    const { state } = this;
    state.stuckSince = new Date().toISOString();
    const network = stuckNetwork(state);
    let gas: GasCheck;
    try {
      gas = await this.activities.checkGasWallet({ network });
    } catch (error) {
      // A gas check that cannot be made must not end the process (least of all when gas is the problem): alert anyway.
      state.lastFailure = failureNote('gas wallet check', error);
      gas = unavailableGasCheck(network, state.lastFailure.message, new Date().toISOString());
    }
    state.gasCheck = gas;
    this.revision += 1;
    if (state.alertsRaised > 0) return;
    const stuck = stuckAlert(state, network, gas);
    this.stuckAlertKind = stuck.kind;
    await this.alert(stuck);
  }

  /** The stranded-deposit incident closes when the deposit settles (the incident store sends the notice). */
  async resolveStuckAlert(): Promise<void> {
    if (!this.stuckAlertKind || this.state.alertsRaised === 0) return;
    try {
      await this.activities.resolveAlert(stuckResolution(this.state, this.stuckAlertKind));
    } catch (error) {
      log.error('Alert could not be resolved', { error: failureReason(error) });
    }
  }
}
