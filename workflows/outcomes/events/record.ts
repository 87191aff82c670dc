/**
 * The rules of an outcome event's record: each attempt and refusal its deliveries report, the end of a delivery,
 * and "failed" once a delivery's retry time has run out without a confirmation. Pure: `now` is passed in.
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { EndUserId, EventAt, EventDelivery, EventType } from '../../../src/domain/search-attributes';
import type { DeliveryNews, EventRecord, OutcomeEventRecordInput } from './types';

export const newEventRecord = (input: OutcomeEventRecordInput): EventRecord => ({
  webhookId: input.webhookId,
  event: input.event,
  delivery: 'pending',
  attempts: 0,
});

export function applyDeliveryNews(record: EventRecord, news: DeliveryNews): void {
  switch (news.kind) {
    case 'attempt':
      // A redelivery of an ended event starts a new delivery.
      record.delivery = 'pending';
      record.attempts += 1;
      record.lastAttemptAt = news.at;
      record.giveUpAt = news.giveUpAt;
      delete record.deliveredAt;
      return;
    case 'refused':
      record.error = news.error;
      return;
    case 'ended':
      record.delivery = news.delivery;
      record.deliveredAt = news.at;
      delete record.error;
      delete record.giveUpAt;
      return;
  }
}

/** A pending delivery whose retry time has run out is failed; answers whether it changed. */
export function giveUpIfDue(record: EventRecord, now: Date): boolean {
  if (record.delivery !== 'pending' || !record.giveUpAt || now.getTime() < Date.parse(record.giveUpAt))
    return false;
  record.delivery = 'failed';
  record.deliveredAt = record.giveUpAt;
  record.error ??= 'not confirmed before the retry time ran out';
  delete record.giveUpAt;
  return true;
}

/** Milliseconds until a pending delivery gives up; undefined when nothing is due. */
export const msUntilGiveUp = (record: EventRecord, now: Date): number | undefined =>
  record.delivery === 'pending' && record.giveUpAt ? Date.parse(record.giveUpAt) - now.getTime() : undefined;

/** What the events API filters on: type, delivery, when it happened, and its end user. */
export function eventSearchAttributes(
  record: EventRecord,
  endUserSearchValue: string | null,
): SearchAttributeUpdatePair[] {
  return [
    { key: EventType, value: record.event.type },
    { key: EventDelivery, value: record.delivery },
    { key: EventAt, value: new Date(record.event.timestamp) },
    ...(endUserSearchValue ? [{ key: EndUserId, value: endUserSearchValue }] : []),
  ];
}
