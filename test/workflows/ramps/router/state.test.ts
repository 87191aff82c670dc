import {
  forwardedDetails,
  forwardOutcomeOf,
  isDuplicate,
  lateEventAlert,
  LINGER_HISTORY_LIMIT,
  lingerMs,
  lingeringDetails,
  moreEventsExpected,
  recordEvent,
  recordForward,
  routeTransaction,
} from '../../../../workflows/ramps/router/state';
import type { RouterState, WebhookEventSignal } from '../../../../workflows/ramps/router/types';
import { timings, tx } from '../../../helpers/ramp-fixtures';

const AT = '2026-01-01T00:00:05.000Z';

function router(): RouterState {
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

describe('routeTransaction', () => {
  test('a deposit with an order is the on-ramp deposit to the master wallet', () => {
    expect(routeTransaction(tx('d', { orderId: 'o-1' }))).toEqual({ kind: 'onramp-order', orderId: 'o-1' });
  });
  test('any other deposit starts its own off-ramp', () => {
    expect(routeTransaction(tx('d'))).toEqual({
      kind: 'offramp',
      depositTransactionId: 'd',
      role: 'deposit',
    });
  });
  test('sweep, gas top-up and order transaction go to the off-ramp of their related deposit', () => {
    expect(routeTransaction(tx('s', { type: 'AutoSweep', relatedTransactionId: 'd' }))).toEqual({
      kind: 'offramp',
      depositTransactionId: 'd',
      role: 'sweep',
    });
    expect(routeTransaction(tx('g', { type: 'Internal Transfer', relatedTransactionId: 'd' }))).toMatchObject(
      {
        role: 'gasTopUp',
      },
    );
    expect(routeTransaction(tx('o', { type: 'AutoSwap', relatedTransactionId: 'd' }))).toMatchObject({
      role: 'orderTransaction',
    });
  });
  test('a linked kind without its related transaction, or an unknown kind, is unroutable', () => {
    expect(routeTransaction(tx('s', { type: 'AutoSweep' }))).toEqual({
      kind: 'unroutable',
      reason: 'AutoSweep transaction has no relatedTransactionId',
    });
    expect(routeTransaction(tx('w', { type: 'Withdrawal' })).kind).toBe('unroutable');
  });
});

describe('router events', () => {
  test('every delivery is counted; only the last ones are kept', () => {
    const state = router();
    for (let n = 0; n < 5; n += 1) recordEvent(state, event(n), 3);
    expect(state.eventsReceived).toBe(5);
    expect(state.events.map((e) => e.receivedAt)).toEqual(
      [event(2), event(3), event(4)].map((e) => e.receivedAt),
    );
  });

  test('a status already forwarded counts the whole batch as duplicates', () => {
    const state = router();
    expect(isDuplicate(state, 'created', 1)).toBe(false);
    expect(state.lastStatus).toBe('created');
    expect(isDuplicate(state, 'created', 3)).toBe(true);
    expect(state.duplicates).toBe(3);
    expect(isDuplicate(state, 'completed', 1)).toBe(false);
    expect(state.lastStatus).toBe('completed');
  });
});

describe('forwards', () => {
  test('a string answer (older histories) names the workflow reached', () => {
    expect(forwardOutcomeOf('offramp/d')).toEqual({ workflowId: 'offramp/d' });
    const closed = {
      workflowId: 'offramp/d',
      closed: { executionStatus: 'COMPLETED', status: 'settled', closedAt: null },
    };
    expect(forwardOutcomeOf(closed)).toBe(closed);
  });

  test('a delivered forward is listed once and is not late', () => {
    const state = router();
    expect(recordForward(state, { workflowId: 'offramp/d' }, 'created', AT)).toEqual({
      raiseLateAlert: false,
    });
    recordForward(state, { workflowId: 'offramp/d' }, 'completed', AT);
    expect(state.forwardedTo).toEqual(['offramp/d']);
    expect(state.lateEvents).toBeUndefined();
    expect(forwardedDetails(state)).toBe('Forwarded to offramp/d');
  });

  test('a process that ended is recorded as late; its own status wins over the Temporal status', () => {
    const state = router();
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
    expect(forwardedDetails(state)).toBe('Forwarded to offramp/d (1 late: process already ended)');
  });

  test('only a process that timed out calls for an alert', () => {
    const state = router();
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
    const state = router();
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

  test('nobody reached', () => {
    expect(forwardedDetails(router())).toBe('Forwarded to nobody');
  });
});

describe('lingering', () => {
  const lingering = { ...timings, routerLingerMs: 5_000 };
  const delivered = (eventType: string, newStatus?: string): WebhookEventSignal => ({
    eventType,
    resourceId: 'tx-1',
    receivedAt: AT,
    ...(newStatus ? { newStatus } : {}),
  });
  const at = (
    status: string | undefined,
    events: WebhookEventSignal[] = [],
    kind: RouterState['kind'] = 'transaction',
  ): RouterState => ({ ...router(), kind, events, ...(status ? { lastStatus: status } : {}) });

  test('another event is due while a transaction is before confirmed and an order before executed', () => {
    for (const status of ['created', 'published', 'mined']) expect(moreEventsExpected(at(status))).toBe(true);
    expect(moreEventsExpected(at('awaiting_funds', [], 'order'))).toBe(true);
  });

  test('another event is due while the deliveries so far announce less than the status re-read', () => {
    const created = delivered('transaction-created');
    expect(moreEventsExpected(at('confirmed', [created]))).toBe(true);
    expect(moreEventsExpected(at('failed', [created, delivered('transaction-updated', 'mined')]))).toBe(true);
    expect(moreEventsExpected(at('executed', [delivered('order-created')], 'order'))).toBe(true);
  });

  test('nothing more is due once a delivery announced the settled status re-read, or the status is unknown', () => {
    const confirmed = delivered('transaction-updated', 'confirmed');
    expect(moreEventsExpected(at('confirmed', [delivered('transaction-created'), confirmed]))).toBe(false);
    expect(moreEventsExpected(at('completed', [delivered('transaction-updated', 'completed')]))).toBe(false);
    expect(moreEventsExpected(at('executed', [delivered('order-updated', 'executed')], 'order'))).toBe(false);
    expect(moreEventsExpected(at('unheard-of', [delivered('transaction-created')]))).toBe(false);
    expect(moreEventsExpected(at(undefined, [delivered('transaction-created')]))).toBe(false);
  });

  test('inputs recorded before the setting, and a setting of 0, end the router at once', () => {
    expect(lingerMs(timings, at('created'), 10)).toBe(0);
    expect(lingerMs({ ...timings, routerLingerMs: 0 }, at('created'), 10)).toBe(0);
  });

  test('a configured linger holds while another event is due and the history is below its limit', () => {
    expect(lingerMs(lingering, at('mined'), 10)).toBe(5_000);
    expect(lingerMs(lingering, at('mined'), LINGER_HISTORY_LIMIT - 1)).toBe(5_000);
    expect(lingerMs(lingering, at('mined'), LINGER_HISTORY_LIMIT)).toBe(0);
    expect(lingerMs(lingering, at('confirmed', [delivered('transaction-updated', 'confirmed')]), 10)).toBe(0);
  });

  test('the details say where the events went and how long it stays open', () => {
    const state = { ...router(), forwardedTo: ['offramp/d-1'] };
    expect(lingeringDetails(state, 4_600)).toBe(
      'Forwarded to offramp/d-1; open for another delivery for 5 s',
    );
  });
});
