/**
 * The on-ramp's steps that call out besides its polls: its exceptions (event and incident when seen), their
 * resolution when it settles anyway, and the claim window of an on-ramp that ended without an end user. Workflow
 * code; the decisions are state.ts's.
 */
import { condition, log, patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { RampActivities } from '../../../activities';
import { failureReason } from '../../../src/domain/errors';
import { DEFAULT_ONRAMP_CLAIM_WINDOW_MS, type WorkflowTimings } from '../../../src/domain/timings';
import type { LedgerSender } from '../../outcomes/ledger';
import type { OutcomeSender } from '../../outcomes/sender';
import { operatorActivityOptions } from '../../shared/activity-options';
import type { FoundException } from '../shared/exceptions';
import { type ExceptionAlerts, raiseExceptions, resolveExceptionAlerts } from '../shared/exception-steps';
import type { RampAlert } from '../shared/rules';
import { unclaimedAlert } from './alerts';
import { claimedOutcome } from './publishing';
import { onRampRules } from './rules';
import type { OnRampState, OnRampStatus } from './types';

/** The patch that brought the claim window to running on-ramps (a 1.0 history ends at once, unclaimed or not). */
export const ONRAMP_CLAIM_WINDOW_PATCH = 'onramp-claim-window';

export class OnRampSteps {
  private readonly activities: RampActivities;
  private readonly workflowId = workflowInfo().workflowId;
  /** The exception steps' incidents, raised and resolved like the on-ramp's own. */
  private readonly exceptionAlerts: ExceptionAlerts = {
    raise: (alert) => this.alert(alert),
    resolveAlert: (resolution) => this.activities.resolveAlert(resolution),
  };

  constructor(
    private readonly state: OnRampState,
    private readonly timings: WorkflowTimings,
    private readonly outcomes: OutcomeSender,
    /** The ledger, in a run that records into it: written before the claim window's wait. */
    private readonly ledger?: LedgerSender,
  ) {
    this.activities = proxyActivities<RampActivities>(operatorActivityOptions(timings));
  }

  /** Records each exception found and raises its `on_ramp.exception` and incident, when it is seen. */
  async raiseExceptions(found: readonly FoundException[]): Promise<void> {
    await raiseExceptions(this.state, onRampRules, found, this.outcomes, this.exceptionAlerts);
  }

  /** The market exceptions' incidents close once the on-ramp settled anyway; off_quote stays for finance. */
  async resolveExceptionAlerts(): Promise<void> {
    await resolveExceptionAlerts(this.state, onRampRules, this.exceptionAlerts);
  }

  /** Whether this on-ramp, ended without an end user, waits for a claim (not when replaying a 1.0 history). */
  waitsForClaim(): boolean {
    return this.state.endUserId === null && patched(ONRAMP_CLAIM_WINDOW_PATCH);
  }

  /**
   * Waits up to the claim window for a startOnRamp to name the end user. Claimed: `on_ramp.claimed` with the end
   * user and what the on-ramp ended with, its status unchanged. Not claimed: `unclaimed`, with an incident.
   * `publish` republishes a status (its search attributes; an event only on entering a new one).
   */
  async awaitClaim(endedAs: OnRampStatus, publish: (status: OnRampStatus) => void): Promise<OnRampStatus> {
    const windowMs = this.timings.onRampClaimWindowMs ?? DEFAULT_ONRAMP_CLAIM_WINDOW_MS;
    this.state.claimableUntil = new Date(Date.now() + windowMs).toISOString();
    publish(endedAs);
    if (this.ledger) await this.ledger.sync();
    if (await condition(() => this.state.endUserId !== null, windowMs)) {
      this.state.claimedAt = new Date().toISOString();
      publish(endedAs);
      const { type, data } = claimedOutcome(this.state, this.workflowId);
      this.outcomes.raise(type, data);
      return endedAs;
    }
    publish('unclaimed');
    const key = await this.alert(unclaimedAlert(this.state, this.workflowId, endedAs));
    if (key) {
      this.state.unclaimedIncident = key;
      this.ledger?.touch();
    }
    return 'unclaimed';
  }

  /** Raises an incident; answers its key (undefined when the store could not be reached). */
  private async alert({ kind, message, details }: RampAlert): Promise<string | undefined> {
    try {
      const answer = await this.activities.raiseAlert({
        kind,
        message,
        workflowId: this.workflowId,
        details,
      });
      return answer.key;
    } catch (error) {
      log.error('Alert could not be raised', { kind, error: failureReason(error) });
      return undefined;
    }
  }
}
