import { newUnknownEventsState, recordUnknownEvent } from '../../../../workflows/ramps/unknown-events/state';
import type { UnknownEventRecord } from '../../../../workflows/ramps/unknown-events/types';

const event = (eventType: string): UnknownEventRecord => ({
  eventType,
  resourceId: null,
  kindPath: 'transaction',
  receivedAt: '2026-01-01T00:00:00.000Z',
  payloadKeys: ['id'],
});

describe('unknown-events store', () => {
  test('a continued run starts from the carried events', () => {
    const state = newUnknownEventsState([event('a'), event('b')]);
    expect(state.total).toBe(2);
    expect(newUnknownEventsState()).toEqual({ events: [], total: 0 });
  });

  test('keeps the last deliveries, counts them all and names the last kind', () => {
    const state = newUnknownEventsState();
    recordUnknownEvent(state, event('a'), 2);
    recordUnknownEvent(state, event('b'), 2);
    const details = recordUnknownEvent(state, event('c'), 2);
    expect(state.events.map((e) => e.eventType)).toEqual(['b', 'c']);
    expect(state.total).toBe(3);
    expect(details).toBe('3 delivery(ies) of unknown event kinds; last: c');
  });
});
