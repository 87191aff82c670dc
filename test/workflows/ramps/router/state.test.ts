import {
  hopRetryWaitMs,
  carriedLanes,
  continuedTotals,
  KEEP_RECENT_LANES,
  laneIsDone,
  laneKey,
  lanesToStart,
  newRouterTotals,
  retireLane,
  routerDetails,
  KEEP_CARRIED_EVENTS,
  MAX_ROUTER_LANES,
  routerMemo,
  routerOverloaded,
} from '../../../../workflows/ramps/router/state';
import type { CarriedLane, LaneState, WebhookEventSignal } from '../../../../workflows/ramps/router/types';

const SINCE = '2026-01-01T00:00:00.000Z';

function lane(resourceId: string, extra: Partial<LaneState> = {}): LaneState {
  return {
    kind: 'transaction',
    resourceId,
    eventsReceived: 1,
    duplicates: 0,
    forwardedTo: [],
    events: [],
    ...extra,
  };
}

const event = (resourceId: string): WebhookEventSignal => ({
  eventType: 'transaction-created',
  resourceId,
  receivedAt: SINCE,
});

function carried(resourceId: string, inbox: number, resumeAtMs?: number): CarriedLane {
  return {
    state: lane(resourceId),
    inbox: Array.from({ length: inbox }, () => event(resourceId)),
    retry: { giveUpAtMs: 10_000, retryDelayMs: 200 },
    ...(resumeAtMs === undefined ? {} : { resumeAtMs }),
  };
}

describe('router rules', () => {
  test('a lane is keyed like the per-resource router of its resource', () => {
    expect(laneKey('transaction', 'tx-1')).toBe('transaction/tx-1');
    expect(laneKey('order', 'o-1')).toBe('order/o-1');
  });

  test('lanes to start: with deliveries, not running, oldest first, up to the cap', () => {
    const lanes = new Map([
      ['transaction/a', carried('a', 1)],
      ['transaction/b', carried('b', 0)],
      ['transaction/c', carried('c', 2)],
      ['transaction/d', carried('d', 1)],
      ['transaction/e', carried('e', 1)],
    ]);
    expect(lanesToStart(lanes, new Set())).toEqual([
      'transaction/a',
      'transaction/c',
      'transaction/d',
      'transaction/e',
    ]);
    expect(lanesToStart(lanes, new Set(['transaction/a']))).toEqual([
      'transaction/c',
      'transaction/d',
      'transaction/e',
    ]);
    expect(lanesToStart(lanes, new Set(['transaction/a']), 3)).toEqual(['transaction/c', 'transaction/d']);
    expect(lanesToStart(lanes, new Set(['transaction/a', 'transaction/c']), 2)).toEqual([]);
  });

  test('a lane is done only with no delivery waiting and no retry pending', () => {
    expect(laneIsDone(carried('a', 0))).toBe(true);
    expect(laneIsDone(carried('a', 1))).toBe(false);
    expect(laneIsDone(carried('a', 0, 5_000))).toBe(false);
  });

  test('retired lanes are counted by how they ended, and the recent ones kept', () => {
    const totals = newRouterTotals(SINCE);
    const recent: LaneState[] = [];
    retireLane(
      totals,
      recent,
      lane('routed', {
        duplicates: 2,
        lateEvents: [
          { workflowId: 'offramp/x', processStatus: 'settled', resourceStatus: 'confirmed', at: SINCE },
        ],
      }),
    );
    retireLane(
      totals,
      recent,
      lane('forged', {
        unknownResource: { firstNotFoundAt: SINCE, reads: 4, gaveUpAt: SINCE, eventsDropped: 1 },
      }),
    );
    retireLane(totals, recent, lane('broken', { gaveUpAt: SINCE }));
    expect(totals).toMatchObject({
      resourcesRouted: 1,
      unknownResources: 1,
      failedResources: 1,
      duplicates: 2,
      lateEvents: 1,
    });
    expect(recent.map((state) => state.resourceId)).toEqual(['routed', 'forged', 'broken']);
    for (let index = 0; index < KEEP_RECENT_LANES; index += 1) retireLane(totals, recent, lane(`r-${index}`));
    expect(recent).toHaveLength(KEEP_RECENT_LANES);
    expect(recent[0]!.resourceId).toBe('r-0');
  });

  test('continue-as-new carries the lanes with deliveries or a retry, and the totals one run on', () => {
    const handedOver = carriedLanes([
      carried('idle', 0),
      carried('waiting', 2),
      carried('retrying', 1, 9_000),
      carried('cut', 0, 7_000),
    ]);
    expect(handedOver.map((entry) => entry.state.resourceId)).toEqual(['waiting', 'retrying', 'cut']);
    expect(handedOver[1]).toMatchObject({ resumeAtMs: 9_000, retry: { retryDelayMs: 200 } });
    expect('resumeAtMs' in handedOver[0]!).toBe(false);
    expect(continuedTotals(undefined, SINCE)).toEqual(newRouterTotals(SINCE));
    const totals = { ...newRouterTotals(SINCE), runs: 3, eventsReceived: 40 };
    expect(continuedTotals(totals, '2026-02-01T00:00:00.000Z')).toEqual({ ...totals, runs: 4 });
  });

  test('details say what is being routed and what went wrong', () => {
    const totals = { ...newRouterTotals(SINCE), eventsReceived: 12, resourcesRouted: 5 };
    expect(routerDetails(totals, { active: 3, retrying: 0 })).toBe(
      `Routing 3 resources; since ${SINCE}: 12 deliveries, 5 resources routed`,
    );
    expect(
      routerDetails({ ...totals, unknownResources: 1, failedResources: 2 }, { active: 1, retrying: 1 }),
    ).toBe(
      `Routing 1 resource (1 waiting to retry); since ${SINCE}: 12 deliveries, 5 resources routed, ` +
        '1 unknown to the operator, 2 given up after failures',
    );
  });

  test('the memo says what readers of visibility need: the unknown-resource count, and whether it is full', () => {
    const totals = { ...newRouterTotals(SINCE), unknownResources: 2 };
    expect(routerMemo(totals, MAX_ROUTER_LANES - 1)).toEqual({ unknownResources: 2, overloaded: false });
    expect(routerMemo(totals, MAX_ROUTER_LANES)).toEqual({ unknownResources: 2, overloaded: true });
    expect(routerMemo(totals, 3, 3).overloaded).toBe(true);
    expect(routerOverloaded({ overloaded: true })).toBe(true);
    for (const memo of [undefined, {}, { overloaded: false }, { overloaded: 'true' }])
      expect(routerOverloaded(memo)).toBe(false);
  });

  test('a carried lane keeps its last few deliveries, recorded and waiting, and all of its counts', () => {
    const busy = carried('busy', 2);
    busy.state.events = Array.from({ length: 12 }, (_, index) => ({
      ...event('busy'),
      receivedAt: `t${index}`,
    }));
    busy.state.eventsReceived = 12;
    const [handedOver] = carriedLanes([busy]);
    expect(handedOver!.state.events.map((entry) => entry.receivedAt)).toEqual(
      Array.from({ length: KEEP_CARRIED_EVENTS }, (_, index) => `t${12 - KEEP_CARRIED_EVENTS + index}`),
    );
    expect(handedOver!.state.eventsReceived).toBe(12);
    expect(handedOver!.inbox).toHaveLength(2);
    expect(busy.state.events).toHaveLength(12);
    const piledUp = carried('piled-up', 9);
    expect(carriedLanes([piledUp])[0]!.inbox).toHaveLength(KEEP_CARRIED_EVENTS);
    expect(piledUp.inbox).toHaveLength(9);
  });

  test('a failed hop waits as the operator retry policy would, and is given up when that policy would give up', () => {
    const timings = {
      activityRetryInitialMs: 100,
      activityRetryMaximumMs: 300,
      activityScheduleToCloseMs: 1_000,
    };
    const unavailable = { type: 'OperatorUnavailable', nonRetryable: false };
    expect([1, 2, 3, 4].map((attempt) => hopRetryWaitMs(timings, unavailable, attempt, 0))).toEqual([
      100, 200, 300, 300,
    ]);
    // The wait must end before schedule-to-close, counted from the hop's first attempt.
    expect(hopRetryWaitMs(timings, unavailable, 3, 699)).toBe(300);
    expect(hopRetryWaitMs(timings, unavailable, 3, 700)).toBeUndefined();
    // A 4xx (flagged, or by its type alone) and bad input are not retried.
    expect(hopRetryWaitMs(timings, { type: 'OperatorRejected', nonRetryable: true }, 1, 0)).toBeUndefined();
    expect(hopRetryWaitMs(timings, { type: 'OperatorRejected', nonRetryable: false }, 1, 0)).toBeUndefined();
    expect(hopRetryWaitMs(timings, { type: 'InvalidInput', nonRetryable: false }, 1, 0)).toBeUndefined();
    expect(hopRetryWaitMs(timings, { type: 'HopDeadlineExceeded', nonRetryable: false }, 1, 0)).toBe(100);
  });
});
