import {
  isDuplicate,
  lateEventAlert,
  recordEvent,
  recordForward,
} from '../../../../workflows/ramps/router/lane-state';
import type { LaneState, WebhookEventSignal } from '../../../../workflows/ramps/router/types';

const AT = '2026-01-01T00:00:05.000Z';

function lane(): LaneState {
  return {
    kind: 'transaction',
    resourceId: 'tx-1',
    eventsReceived: 0,
    duplicates: 0,
    forwardedTo: [],
    events: [],
  };
}

const event = (n: number): WebhookEventSignal => ({
  eventType: 'transaction-updated',
  resourceId: 'tx-1',
  receivedAt: `2026-01-01T00:00:${String(n).padStart(2, '0')}.000Z`,
});

describe('lane events', () => {
  test('every delivery is counted; only the last ones are kept', () => {
    const state = lane();
    for (let n = 0; n < 5; n += 1) recordEvent(state, event(n), 3);
    expect(state.eventsReceived).toBe(5);
    expect(state.events.map((e) => e.receivedAt)).toEqual(
      [event(2), event(3), event(4)].map((e) => e.receivedAt),
    );
  });

  test('a status already forwarded counts the whole batch as duplicates', () => {
    const state = lane();
    expect(isDuplicate(state, 'created', 1)).toBe(false);
    expect(state.lastStatus).toBe('created');
    expect(isDuplicate(state, 'created', 3)).toBe(true);
    expect(state.duplicates).toBe(3);
    expect(isDuplicate(state, 'completed', 1)).toBe(false);
    expect(state.lastStatus).toBe('completed');
  });
});

describe('forwards', () => {
  test('a delivered forward is listed once and is not late', () => {
    const state = lane();
    expect(recordForward(state, { workflowId: 'offramp/d' }, 'created', AT)).toEqual({
      raiseLateAlert: false,
    });
    recordForward(state, { workflowId: 'offramp/d' }, 'completed', AT);
    expect(state.forwardedTo).toEqual(['offramp/d']);
    expect(state.lateEvents).toBeUndefined();
  });

  test('a process that ended is recorded as late; its own status wins over the Temporal status', () => {
    const state = lane();
    const outcome = {
      workflowId: 'offramp/d',
      closed: { executionStatus: 'COMPLETED', status: 'settled', closedAt: null },
    };
    const result = recordForward(state, outcome, 'completed', AT);
    expect(result).toEqual({
      late: { workflowId: 'offramp/d', processStatus: 'settled', resourceStatus: 'completed', at: AT },
      raiseLateAlert: false,
    });
    expect(state.lateEvents).toHaveLength(1);
  });

  test('only a process that timed out calls for an alert', () => {
    const state = lane();
    const outcome = {
      workflowId: 'onramp/r',
      closed: { executionStatus: 'COMPLETED', status: 'timed-out', closedAt: null },
    };
    const { late, raiseLateAlert } = recordForward(state, outcome, 'executed', AT);
    expect(raiseLateAlert).toBe(true);
    expect(lateEventAlert('order', 'o-1', late!)).toEqual({
      kind: 'late-event-after-timeout',
      message:
        "order o-1 is now executed, after onramp/r gave up (timed-out): settle it by hand with the operator's records",
      details: { process: 'onramp/r', resource: 'order/o-1', resourceStatus: 'executed' },
    });
  });

  test('without a process status the Temporal status is recorded; late events are capped', () => {
    const state = lane();
    const outcome = {
      workflowId: 'offramp/d',
      closed: { executionStatus: 'TERMINATED', status: null, closedAt: null },
    };
    for (let n = 0; n < 4; n += 1) recordForward(state, outcome, `s${n}`, AT, 2);
    expect(state.lateEvents!.map((late) => [late.processStatus, late.resourceStatus])).toEqual([
      ['TERMINATED', 's2'],
      ['TERMINATED', 's3'],
    ]);
  });
});
