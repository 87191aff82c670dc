/**
 * webhooks/unknown-events: deliveries of an event kind the spec does not list. The receiver accepts them (200) so
 * the operator does not retry forever, and keeps them visible here (query `unknownEvents`, Web UI) instead of
 * dropping them silently. Only the kind, the resource ID and the payload's keys are kept.
 */
import { condition, setCurrentDetails, setHandler } from '@temporalio/workflow';
import { shouldContinueAsNew } from '../../shared/continue-as-new';
import { unknownEventSignal, unknownEventsQuery } from './messages';
import { newUnknownEventsState, recordUnknownEvent } from './state';
import type { UnknownEventRecord } from './types';
import { continueOnCurrentVersion, declareReleaseBehaviour, watchReleases } from '../../shared/versioning';

export async function unknownEventsWorkflow(input: { carried?: UnknownEventRecord[] } = {}): Promise<void> {
  const state = newUnknownEventsState(input.carried);
  setHandler(unknownEventSignal, (event) => setCurrentDetails(recordUnknownEvent(state, event)));
  setHandler(unknownEventsQuery, () => state.events);
  const newerVersion = watchReleases();
  await condition(() => shouldContinueAsNew() || newerVersion());
  await continueOnCurrentVersion<typeof unknownEventsWorkflow>()({ carried: state.events });
}

declareReleaseBehaviour(unknownEventsWorkflow, 'pinned, moves at continue-as-new');
