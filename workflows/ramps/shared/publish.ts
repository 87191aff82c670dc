/**
 * The one publish step of both ramp processes: a new status becomes the state's step text, the Web UI's current
 * details, the search attributes and, on entering a status, its outcome event. Each ramp brings its own pure rules.
 * A run that records into the ledger upserts its search attributes only when what they show changes, and shows its
 * ordinary steps as `in-progress` (searchedRampStatus): each upsert is a billable action, and the step is in the
 * ledger. A run from a 1.0 history upserts at every publish, as it always did.
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { metricMeter, setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { SETTLE_TIME_METRIC } from '../../../src/domain/metrics';
import { searchedRampStatus } from '../../../src/domain/search-attributes';
import type { RaisedOutcome } from '../../../src/domain/outcome-events';
import type { OutcomeSender } from '../../outcomes/sender';

export interface PublishRules<State, Status extends string> {
  /** What a settled process reads from its snapshots (a process may settle at its first evaluation). */
  settlementOf(state: State): Partial<State> | undefined;
  stepText(status: Status, state: State): string;
  currentDetails(state: State): string;
  searchAttributes(
    state: State,
    rampStatus: string,
    endUserSearchValue: string | null,
  ): SearchAttributeUpdatePair[];
  outcomes(state: State, workflowId: string, previous: Status | undefined, next: Status): RaisedOutcome[];
}

/** Returns the ramp's publish function; it remembers the last status published, so events fire on entering one. */
export function statusPublisher<State extends { status: Status; step: string }, Status extends string>(
  state: State,
  rules: PublishRules<State, Status>,
  outcomes: OutcomeSender,
  endUserSearchValue: () => string | null,
  recordsIntoLedger: boolean,
): (next: Status) => void {
  let published: Status | undefined;
  let upserted: string | undefined;
  const upsertChanges = (attributes: SearchAttributeUpdatePair[]) => {
    const shown = JSON.stringify(attributes.map(({ key, value }) => [key.name, value]));
    if (shown === upserted) return;
    upserted = shown;
    upsertSearchAttributes(attributes);
  };
  return (next) => {
    state.status = next;
    if (next === 'settled') Object.assign(state, rules.settlementOf(state));
    state.step = rules.stepText(next, state);
    setCurrentDetails(rules.currentDetails(state));
    if (recordsIntoLedger)
      upsertChanges(rules.searchAttributes(state, searchedRampStatus(next), endUserSearchValue()));
    else upsertSearchAttributes(rules.searchAttributes(state, next, endUserSearchValue()));
    for (const { type, data } of rules.outcomes(state, workflowInfo().workflowId, published, next)) {
      outcomes.raise(type, data);
    }
    outcomes.touch?.();
    // Not a command: the SDK records it on the worker's metrics, and never while replaying.
    if (next === 'settled' && published !== 'settled') {
      const { startTime, workflowType } = workflowInfo();
      metricMeter
        .createHistogram(
          SETTLE_TIME_METRIC,
          'float',
          's',
          'From the start of a ramp process to its settlement',
        )
        .record((Date.now() - startTime.getTime()) / 1000, { workflow: workflowType });
    }
    published = next;
  };
}
