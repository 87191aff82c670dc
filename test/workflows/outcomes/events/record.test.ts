import {
  applyDeliveryNews,
  eventSearchAttributes,
  giveUpIfDue,
  msUntilGiveUp,
  newEventRecord,
} from '../../../../workflows/outcomes/events/record';
import type { OutcomeEventRecordInput } from '../../../../workflows/outcomes/events/types';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
const iso = (seconds: number) => at(seconds).toISOString();
const input: OutcomeEventRecordInput = {
  webhookId: 'evt_test~test/7c1b~1',
  event: { type: 'test.ping', timestamp: iso(0), data: { message: 'ping' } },
  endUserSearchValue: null,
};

describe("an outcome event's record", () => {
  test('attempts count up; a refusal keeps the error while pending; the end clears it and says when', () => {
    const record = newEventRecord(input);
    expect(record).toEqual({
      webhookId: input.webhookId,
      event: input.event,
      delivery: 'pending',
      attempts: 0,
    });
    applyDeliveryNews(record, { kind: 'attempt', at: iso(1), giveUpAt: iso(61) });
    applyDeliveryNews(record, { kind: 'refused', at: iso(2), error: 'endpoint 1 (h) answered HTTP 503' });
    expect(record).toMatchObject({ delivery: 'pending', attempts: 1, giveUpAt: iso(61), error: /HTTP 503/ });
    applyDeliveryNews(record, { kind: 'attempt', at: iso(5), giveUpAt: iso(61) });
    applyDeliveryNews(record, { kind: 'ended', at: iso(6), delivery: 'delivered' });
    expect(record).toEqual({
      ...newEventRecord(input),
      delivery: 'delivered',
      attempts: 2,
      lastAttemptAt: iso(5),
      deliveredAt: iso(6),
    });
  });

  test('a pending delivery past its retry time is failed, once; a redelivery makes it pending again', () => {
    const record = newEventRecord(input);
    applyDeliveryNews(record, { kind: 'attempt', at: iso(1), giveUpAt: iso(61) });
    expect(msUntilGiveUp(record, at(31))).toBe(30_000);
    expect(giveUpIfDue(record, at(60))).toBe(false);
    expect(giveUpIfDue(record, at(61))).toBe(true);
    expect(record).toMatchObject({ delivery: 'failed', deliveredAt: iso(61), error: /retry time ran out/ });
    expect(giveUpIfDue(record, at(90))).toBe(false);
    expect(msUntilGiveUp(record, at(90))).toBeUndefined();

    applyDeliveryNews(record, { kind: 'attempt', at: iso(120), giveUpAt: iso(180) });
    expect(record).toMatchObject({ delivery: 'pending', attempts: 2, giveUpAt: iso(180) });
    expect(record.deliveredAt).toBeUndefined();
  });

  test('search attributes: type, delivery, when the event happened, and the end user only when it names one', () => {
    const record = newEventRecord(input);
    const pairs = (value: string | null) =>
      eventSearchAttributes(record, value).map(({ key, value: v }) => [key.name, v]);
    expect(pairs(null)).toEqual([
      ['RampEventType', 'test.ping'],
      ['RampEventDelivery', 'pending'],
      ['RampEventAt', at(0)],
    ]);
    expect(pairs('pseudonym-1')).toContainEqual(['RampEndUserId', 'pseudonym-1']);
  });
});
