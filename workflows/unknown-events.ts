/**
 * webhooks/unknown-events: deliveries of an event kind the spec does not list. The receiver accepts them (200) so
 * the operator does not retry forever, and keeps them visible here (query `unknownEvents`, Web UI) instead of
 * dropping them silently. Only the kind, the resource ID and the payload's keys are kept.
 */
import { condition, continueAsNew, setCurrentDetails, setHandler, workflowInfo } from '@temporalio/workflow';
import { unknownEventSignal, unknownEventsQuery } from './messages';
import type { UnknownEventRecord } from './ramp-types';

const KEEP = 200;
const MAX_HISTORY_EVENTS = 2_000;

export async function unknownEventsWorkflow(input: { carried?: UnknownEventRecord[] } = {}): Promise<void> {
  const events: UnknownEventRecord[] = input.carried ?? [];
  let total = events.length;
  setHandler(unknownEventSignal, (event) => {
    events.push(event);
    total += 1;
    if (events.length > KEEP) events.shift();
    setCurrentDetails(`${total} delivery(ies) of unknown event kinds; last: ${event.eventType}`);
  });
  setHandler(unknownEventsQuery, () => events);
  await condition(() => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > MAX_HISTORY_EVENTS);
  await continueAsNew<typeof unknownEventsWorkflow>({ carried: events });
}
