import { msToTs } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import {
  appliedSignals,
  carriedLanes,
  eventMs,
  type HistoryEvent,
  routedDelivery,
  routerHops,
  routerLanes,
} from '../../../bench/lib/router-hops';
import { offRampTransactionSignal } from '../../../workflows/ramps/offramp/messages';

const { EventType } = temporal.api.enums.v1;

/** A history event from plain values, its 64-bit numbers converted as the SDK decodes them. */
const historyEvent = (properties: Record<string, unknown>): HistoryEvent =>
  temporal.api.history.v1.HistoryEvent.fromObject(properties);

const payloads = (value: unknown) => ({ payloads: [{ data: Buffer.from(JSON.stringify(value)) }] });
const at = (ms: number) => ({ eventTime: msToTs(ms) });

/** A history from events without IDs: each gets the next one, as the server numbers them. */
const numbered = (events: Record<string, unknown>[]): HistoryEvent[] =>
  events.map((event, index) => historyEvent({ ...event, eventId: index + 1 }));

const started = (ms: number, input: unknown): Record<string, unknown> => ({
  ...at(ms),
  eventType: EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
  workflowExecutionStartedEventAttributes: { input: payloads(input) },
});
const delivered = (ms: number, resourceId: string): Record<string, unknown> => ({
  ...at(ms),
  eventType: EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
  workflowExecutionSignaledEventAttributes: {
    input: payloads({ deliveries: [{ kind: 'transaction', event: { resourceId } }] }),
  },
});
const taskCompleted = (ms: number): Record<string, unknown> => ({
  ...at(ms),
  eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
});
/** A routeEvents batch for `resourceIds`, scheduled as event `scheduledId`, started and completed after. */
const batch = (scheduledId: number, ms: number, resourceIds: string[]): Record<string, unknown>[] => [
  {
    ...at(ms),
    eventType: EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
    activityTaskScheduledEventAttributes: {
      activityType: { name: 'routeEvents' },
      input: payloads({ hops: resourceIds.map((resourceId) => ({ resourceId })) }),
    },
  },
  {
    ...at(ms + 10),
    eventType: EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED,
    activityTaskStartedEventAttributes: { scheduledEventId: scheduledId },
  },
  {
    ...at(ms + 30),
    eventType: EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
    activityTaskCompletedEventAttributes: { scheduledEventId: scheduledId },
  },
];

/** A shard run that took `resourceId`'s lane over from the run before, with a delivery still to route. */
const takenOver = (ms: number, resourceId: string) =>
  started(ms, { carried: { lanes: [{ state: { resourceId }, inbox: [{ resourceId }] }] } });

/** A shard run that got a delivery for `resourceId` at 100 ms and routed it in a batch scheduled at 110 ms. */
const routedInItsRun = (resourceId: string) =>
  numbered([
    started(0, {}),
    delivered(100, resourceId),
    taskCompleted(110),
    ...batch(4, 110, [resourceId]),
    taskCompleted(150),
  ]);

/** The off-ramp's history: the forward's signal at `signalMs`, applied by the task that completed at `appliedMs`. */
const owner = (signalMs: number, appliedMs: number) =>
  appliedSignals(
    numbered([
      {
        ...at(signalMs),
        eventType: EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
        workflowExecutionSignaledEventAttributes: { signalName: offRampTransactionSignal.name },
      },
      taskCompleted(appliedMs),
    ]),
  );

/** The hops a shard run's history holds for `resourceId`, the carried lane first when the run took it over. */
function hopsOf(events: HistoryEvent[], resourceId: string) {
  const carriedAtMs = carriedLanes(events).has(resourceId) ? eventMs(events[0]!) : undefined;
  return routerHops(resourceId, routerLanes(events).get(resourceId) ?? [], carriedAtMs);
}

describe('event to state: a delivery matched to the forward that applied it', () => {
  // The delivery reached the shard's first run, which continued as new before routing it.
  const firstRun = numbered([started(0, {}), delivered(100, 'd1'), taskCompleted(110)]);
  // The next run took the lane over with the delivery in its inbox, and its first batch routed it.
  const nextRun = numbered([
    takenOver(1000, 'd1'),
    taskCompleted(1010),
    ...batch(3, 1010, ['d1']),
    taskCompleted(1050),
  ]);
  const delivery = { sentMs: 95, answeredMs: 105 };
  const applied = owner(1030, 1060);

  test("one still to route when its shard continued as new: applied by the next run's re-read of its lane", () => {
    expect([...carriedLanes(nextRun)]).toEqual(['d1']);
    const lane = [...hopsOf(firstRun, 'd1'), ...hopsOf(nextRun, 'd1')];
    expect(routedDelivery(delivery, lane, applied, new Set())).toEqual({ doneMs: 1060 });
  });

  test('without the carried lane the same delivery has no outcome', () => {
    const lane = [
      ...routerHops('d1', routerLanes(firstRun).get('d1') ?? []),
      ...routerHops('d1', routerLanes(nextRun).get('d1') ?? []),
    ];
    expect(routedDelivery(delivery, lane, applied, new Set())).toEqual({});
  });

  test('one its own run re-read: decided in that run, whatever a later run carried', () => {
    const routed = routedInItsRun('d1');
    // No owner signal inside its forward's window (120-140 ms): the batch found the status already forwarded, which
    // its run decided at 150 ms. The owner's signal at 1,030 ms is the later carried re-read's, not this delivery's.
    const lane = [...hopsOf(routed, 'd1'), ...hopsOf(nextRun, 'd1')];
    expect(routedDelivery(delivery, lane, applied, new Set())).toEqual({ doneMs: 150, deduplicated: true });
  });

  test('a lane handed over twice: applied by the re-read of the run that routed it', () => {
    // The second run took the lane over and continued as new again before re-reading it.
    const handedOnRun = numbered([takenOver(1000, 'd1'), taskCompleted(1010)]);
    const thirdRun = numbered([
      takenOver(2000, 'd1'),
      taskCompleted(2010),
      ...batch(3, 2010, ['d1']),
      taskCompleted(2050),
    ]);
    const lane = [...hopsOf(firstRun, 'd1'), ...hopsOf(handedOnRun, 'd1'), ...hopsOf(thirdRun, 'd1')];
    expect(routedDelivery(delivery, lane, owner(2030, 2060), new Set())).toEqual({ doneMs: 2060 });
  });

  test('one routed in its own run: applied by that forward, its hop taken by it alone', () => {
    const lane = hopsOf(routedInItsRun('d2'), 'd2');
    const used = new Set<object>();
    expect(routedDelivery(delivery, lane, owner(130, 170), used)).toEqual({ doneMs: 170 });
    expect(routedDelivery(delivery, lane, owner(130, 170), used)).toBeUndefined();
  });
});
