/**
 * The rules both ramp processes run: each ramp implements RampRules in its own pure modules (state, booking, alerts,
 * publishing) and gathers them in its rules.ts; its workflow runs them through this interface. Pure and
 * workflow-safe.
 */
import type { MarketRules, RampException } from '../../../src/domain/markets';
import type { RaisedOutcome } from '../../../src/domain/outcome-events';
import type { AlertInput, AlertKind } from '../../operations/alerts/types';
import type { FoundException } from './exceptions';
import type { PublishRules } from './publish';

/** An alert as a ramp raises it (the workflow adds its own ID). */
export interface RampAlert<K extends AlertKind = AlertKind> {
  kind: K;
  message: string;
  details: AlertInput['details'];
}

/** What closes a ramp's incident once its cause cleared. */
export interface AlertResolution<K extends AlertKind = AlertKind> {
  kind: K;
  details: AlertInput['details'];
  resolution: string;
}

/** What every ramp's state holds that the shared rules read. */
export interface RampRulesState<Status extends string> {
  status: Status;
  step: string;
  failure?: unknown;
  exceptions?: RampException[];
}

export interface RampRules<State extends RampRulesState<Status>, Status extends string> extends PublishRules<
  State,
  Status
> {
  /** The status the snapshots add up to, and the failure behind it when there is one. */
  evaluate(state: State): { status: Status; failure?: State['failure'] };
  isTerminal(status: Status): boolean;
  /** What the conversion executed at against the quote shown (and its gas); recomputed whenever snapshots move. */
  refreshBooking(state: State): void;
  /** The exceptions the ramp meets that it has not recorded yet. */
  newExceptions(state: State, markets: MarketRules | undefined): FoundException[];
  /** The ramp's `.exception` outcome event for an exception just recorded. */
  exceptionOutcome(state: State, workflowId: string, exception: RampException): RaisedOutcome;
  /** The `ramp-exception` incident of an exception. */
  exceptionAlert(state: State, workflowId: string, exception: RampException): RampAlert<'ramp-exception'>;
  /** Closes an exception's incident once the ramp settled anyway. */
  exceptionResolution(
    state: State,
    workflowId: string,
    exception: RampException,
  ): AlertResolution<'ramp-exception'>;
}

/** evaluate(), keeping a failure it finds on the state (a failure once seen is never cleared). */
export function evaluateInto<State extends RampRulesState<Status>, Status extends string>(
  rules: Pick<RampRules<State, Status>, 'evaluate'>,
  state: State,
): Status {
  const { status, failure } = rules.evaluate(state);
  if (failure) state.failure = failure;
  return status;
}
