import type { OutcomeEventData } from '../../../src/domain/outcome-events';
import {
  hasRaised,
  isDrained,
  newOutbox,
  nextToDeliver,
  raiseOutcome,
  recordDelivery,
} from '../../../workflows/outcomes/outbox';

const data = (status: string): OutcomeEventData => ({
  workflowId: 'offramp/tx-1',
  endUserId: 'alice',
  status,
  step: status,
});
const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second));

describe('outcome outbox', () => {
  test('numbers events in order and sends the earliest pending first', () => {
    const outbox = newOutbox();
    raiseOutcome(outbox, 'offramp/tx-1', 'off_ramp.created', data('awaiting-sweep'), at(1));
    raiseOutcome(outbox, 'offramp/tx-1', 'off_ramp.settled', data('settled'), at(2));
    expect(outbox.events.map((record) => record.webhookId)).toEqual([
      'evt_offramp~tx-1~1',
      'evt_offramp~tx-1~2',
    ]);
    expect(outbox.events[1]!.event).toEqual({
      type: 'off_ramp.settled',
      timestamp: at(2).toISOString(),
      data: data('settled'),
    });
    expect(nextToDeliver(outbox)?.webhookId).toBe('evt_offramp~tx-1~1');
    expect(recordDelivery(outbox, 'evt_offramp~tx-1~1', { delivery: 'delivered' }, at(3))).toBe(true);
    expect(nextToDeliver(outbox)?.webhookId).toBe('evt_offramp~tx-1~2');
    expect(isDrained(outbox)).toBe(false);
    expect(
      recordDelivery(outbox, 'evt_offramp~tx-1~2', { delivery: 'failed', error: 'HTTP 500' }, at(4)),
    ).toBe(true);
    expect(isDrained(outbox)).toBe(true);
    expect(
      outbox.events.map(({ delivery, deliveredAt, error }) => ({ delivery, deliveredAt, error })),
    ).toEqual([
      { delivery: 'delivered', deliveredAt: at(3).toISOString(), error: undefined },
      { delivery: 'failed', deliveredAt: at(4).toISOString(), error: 'HTTP 500' },
    ]);
  });

  test('a second answer for an event, or one for an unknown event, changes nothing', () => {
    const outbox = newOutbox();
    raiseOutcome(outbox, 'offramp/tx-1', 'off_ramp.created', data('x'), at(1));
    recordDelivery(outbox, 'evt_offramp~tx-1~1', { delivery: 'delivered' }, at(2));
    expect(recordDelivery(outbox, 'evt_offramp~tx-1~1', { delivery: 'failed', error: 'late' }, at(3))).toBe(
      false,
    );
    expect(recordDelivery(outbox, 'evt_offramp~tx-1~9', { delivery: 'delivered' }, at(3))).toBe(false);
    expect(outbox.events[0]).toMatchObject({ delivery: 'delivered', deliveredAt: at(2).toISOString() });
    expect(outbox.events[0]!.error).toBeUndefined();
  });

  test('a carried outbox goes on numbering and is a copy', () => {
    const first = newOutbox();
    raiseOutcome(first, 'end-user/alice', 'deposit_wallet.created', data('x'), at(1));
    const second = newOutbox(first);
    raiseOutcome(second, 'end-user/alice', 'deposit_wallet.created', data('y'), at(2));
    expect(second.events.map((record) => record.webhookId)).toEqual([
      'evt_end-user~alice~1',
      'evt_end-user~alice~2',
    ]);
    expect(first.events).toHaveLength(1);
    expect(hasRaised(second, 'deposit_wallet.created')).toBe(true);
    expect(hasRaised(second, 'off_ramp.created')).toBe(false);
  });
});
