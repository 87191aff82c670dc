import { workflowInfo } from '@temporalio/workflow';

/** History length after which the long-lived workflows continue as new (unless told otherwise). */
export const MAX_HISTORY_EVENTS = 2_000;

/**
 * True when this run should hand over to a new one: the server suggests it, or the history has grown past
 * `maxEvents`. Reads workflowInfo() on every call, so it belongs inside a condition() predicate.
 */
export function shouldContinueAsNew(maxEvents = MAX_HISTORY_EVENTS): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength > maxEvents;
}
