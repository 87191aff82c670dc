/**
 * The outcome events of both ramps: which a published status raises, and what an exception's event adds. Each ramp
 * brings its event types and what its events carry (its publishing.ts). Pure and workflow-safe.
 */
import type { RampException } from '../../../src/domain/markets';
import {
  compactData,
  type OutcomeEventData,
  type OutcomeEventType,
  type RaisedOutcome,
} from '../../../src/domain/outcome-events';

/** A ramp's event types: the one of its first publish, and one for each status the client acts on. */
export interface RampOutcomeTypes<Status extends string> {
  created: OutcomeEventType;
  entered: Partial<Record<Status, OutcomeEventType>>;
  exception: OutcomeEventType;
}

/**
 * The outcome events of a published status: `created` at the first one (`previous` undefined), then one event for
 * each entry into a status the client acts on (a republish of the same status raises none). `data` is read only
 * when one is raised, from the state after the status was published.
 */
export function publishedOutcomes<Status extends string>(
  types: RampOutcomeTypes<Status>,
  previous: Status | undefined,
  next: Status,
  data: () => OutcomeEventData,
): RaisedOutcome[] {
  const raised: OutcomeEventType[] = [];
  if (previous === undefined) raised.push(types.created);
  const entered = types.entered[next];
  if (entered && previous !== next) raised.push(entered);
  if (raised.length === 0) return [];
  const shared = data();
  return raised.map((type) => ({ type, data: shared }));
}

/**
 * A ramp's outcome rules (RampRules' `outcomes` and `exceptionOutcome`) from its event types and what its events
 * carry, read from the state after a status was published.
 */
export function outcomeRules<State extends { status: Status }, Status extends string>(
  types: RampOutcomeTypes<Status>,
  data: (state: State, workflowId: string, status: Status) => OutcomeEventData,
) {
  return {
    outcomes: (
      state: State,
      workflowId: string,
      previous: Status | undefined,
      next: Status,
    ): RaisedOutcome[] => publishedOutcomes(types, previous, next, () => data(state, workflowId, next)),
    exceptionOutcome: (state: State, workflowId: string, exception: RampException): RaisedOutcome =>
      exceptionOutcomeOf(types.exception, data(state, workflowId, state.status), exception),
  };
}

/** The `.exception` event: the exception just recorded, with everything else the ramp knows. */
export function exceptionOutcomeOf(
  type: OutcomeEventType,
  data: OutcomeEventData,
  exception: RampException,
): RaisedOutcome {
  return {
    type,
    data: compactData({ ...data, exception: { reason: exception.reason, message: exception.message } }),
  };
}

/** What the ramp's own events carry besides what every ramp's does. */
export type RampEventFields = Omit<
  OutcomeEventData,
  'workflowId' | 'endUserId' | 'status' | 'step' | 'exceptions'
>;

/**
 * What an event of a ramp carries: the process, its end user, status and step, the ramp's own fields, and every
 * exception it met so far; fields it does not know are left out.
 */
export function rampEventData(
  state: { endUserId: string | null; step: string; exceptions?: readonly RampException[] },
  workflowId: string,
  status: string,
  fields: RampEventFields,
): OutcomeEventData {
  return compactData({
    workflowId,
    endUserId: state.endUserId,
    status,
    step: state.step,
    ...fields,
    exceptions: state.exceptions?.length
      ? state.exceptions.map((exception) => ({ ...exception }))
      : undefined,
  });
}
