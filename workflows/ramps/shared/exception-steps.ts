/**
 * The exception steps both ramps take, workflow code over their rules: an exception is recorded, told to the
 * client's backend and raised as an incident when it is seen, and its incident closes when the ramp settles anyway.
 */
import { log, patched, workflowInfo } from '@temporalio/workflow';
import { failureReason } from '../../../src/domain/errors';
import type { OutcomeSender } from '../../outcomes/sender';
import {
  type FoundException,
  RAMP_EXCEPTIONS_PATCH,
  recordException,
  RESOLVED_AT_SETTLEMENT,
} from './exceptions';
import type { AlertResolution, RampAlert, RampRules, RampRulesState } from './rules';

/** The alert activities a ramp's exception steps call. */
export interface ExceptionAlerts {
  /** Raises an incident; never throws (a store that cannot be reached is logged). */
  raise(alert: RampAlert): Promise<unknown>;
  resolveAlert(resolution: AlertResolution): Promise<unknown>;
}

/**
 * Records each exception found, raises its `.exception` event and its incident, when it is seen. A workflow
 * replaying a 1.0 history records none (the patch's marker is not there).
 */
export async function raiseExceptions<State extends RampRulesState<Status>, Status extends string>(
  state: State,
  rules: RampRules<State, Status>,
  found: readonly FoundException[],
  outcomes: OutcomeSender,
  alerts: ExceptionAlerts,
): Promise<void> {
  if (found.length === 0 || !patched(RAMP_EXCEPTIONS_PATCH)) return;
  const { workflowId } = workflowInfo();
  for (const exception of found) {
    const recorded = recordException(state, exception, new Date().toISOString());
    const { type, data } = rules.exceptionOutcome(state, workflowId, recorded);
    outcomes.raise(type, data);
    await alerts.raise(rules.exceptionAlert(state, workflowId, recorded));
  }
}

/** The market exceptions' incidents close once the ramp settled anyway; off_quote and unattributed stay. */
export async function resolveExceptionAlerts<State extends RampRulesState<Status>, Status extends string>(
  state: State,
  rules: RampRules<State, Status>,
  alerts: ExceptionAlerts,
): Promise<void> {
  const { workflowId } = workflowInfo();
  for (const exception of state.exceptions ?? []) {
    if (!RESOLVED_AT_SETTLEMENT.includes(exception.reason)) continue;
    try {
      await alerts.resolveAlert(rules.exceptionResolution(state, workflowId, exception));
    } catch (error) {
      log.error('Alert could not be resolved', { error: failureReason(error) });
    }
  }
}
