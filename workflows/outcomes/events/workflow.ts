/**
 * events/<webhook-id>: the record of one outcome event, which the events API lists and filters through visibility
 * (RampEventType, RampEventDelivery, RampEventAt, RampEndUserId) and reads from its memo (the body and how its
 * delivery stands). The delivery activity starts it at the event's first attempt and tells it every attempt,
 * refusal and end, so a redelivery shows here too. It stays open for OUTCOME_EVENTS_LISTED_FOR, then ends: open
 * records are listed newest first, in the order they started.
 */
import {
  allHandlersFinished,
  condition,
  proxyActivities,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { OUTCOME_EVENTS_LISTED_FOR_MS } from '../../../src/domain/timings';
import type { createOutcomeActivities } from '../../../activities/outcomes/activities';
import { testEventDeliveryOptions } from '../sender';
import { deliveryNewsSignal, eventRecordQuery } from './messages';
import {
  applyDeliveryNews,
  eventSearchAttributes,
  giveUpIfDue,
  msUntilGiveUp,
  newEventRecord,
} from './record';
import type { OutcomeEventRecordInput } from './types';
import { declareReleaseBehaviour } from '../../shared/versioning';

export async function outcomeEventWorkflow(input: OutcomeEventRecordInput): Promise<void> {
  const record = newEventRecord(input);
  let revision = 1;
  let published = 0;
  setHandler(deliveryNewsSignal, (news) => {
    applyDeliveryNews(record, news);
    revision += 1;
  });
  setHandler(eventRecordQuery, () => record);

  if (input.deliverWith) {
    const { deliverOutcomeEvent } = proxyActivities<ReturnType<typeof createOutcomeActivities>>(
      testEventDeliveryOptions(input.deliverWith),
    );
    // Its attempts and end reach this record as signals, like any delivery's; a failure is given up by the rules.
    void deliverOutcomeEvent({ webhookId: input.webhookId, event: input.event }).catch(() => undefined);
  }

  const endsAt = Date.now() + OUTCOME_EVENTS_LISTED_FOR_MS;
  while (Date.now() < endsAt) {
    if (revision !== published) {
      published = revision;
      upsertSearchAttributes(eventSearchAttributes(record, input.endUserSearchValue));
      upsertMemo({ record });
    }
    const wait = Math.min(msUntilGiveUp(record, new Date()) ?? Infinity, endsAt - Date.now());
    await condition(() => revision !== published, Math.max(1, wait));
    if (giveUpIfDue(record, new Date())) revision += 1;
  }
  await condition(allHandlersFinished);
}

declareReleaseBehaviour(outcomeEventWorkflow, 'pinned');
