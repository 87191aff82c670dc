/**
 * routes/<task queue>/<n>: the durable fallback for the webhook deliveries the receiver cannot forward itself
 * (docs/architecture.md, "A delivery's way to its process"). One long-lived router per shard of the operator's
 * resources: the receiver signals-with-start the one its resource hashes to and answers 200 once the signal is in
 * Temporal, a signal to a running workflow rather than a new execution per delivery.
 *
 * Inside, each resource with deliveries is a lane (lane.ts: re-read, forward, retry, give up only on a resource the
 * operator does not know), lanes side by side, one hop each at most; the hops ready together go in one routeEvents
 * activity (hop-batches.ts). A lane whose deliveries are all routed is dropped (kept among the recent ones for
 * people looking in). When the history grows long the router stops starting hops, lets the running ones finish,
 * and continues as new with the lanes that still have deliveries or a retry to make.
 */
import {
  ActivityFailure,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import type { RampActivities } from '../../../activities';
import { failureReason } from '../../../src/domain/errors';
import { operatorActivityOptions } from '../../shared/activity-options';
import { shouldContinueAsNew } from '../../shared/continue-as-new';
import { HopBatches } from './hop-batches';
import { type Lane, type LaneHost, newLane, routeLane } from './lane';
import { recordEvent } from './lane-state';
import { routerStateQuery, webhookDeliveriesSignal } from './messages';
import {
  carriedLanes,
  continuedTotals,
  laneIsDone,
  laneKey,
  lanesToStart,
  MAX_ROUTER_LANES,
  retireLane,
  ROUTER_HISTORY_EVENTS,
  routerDetails,
  type RouterMemo,
  routerMemo,
} from './state';
import type { LaneState, RouterDelivery, RouterInput } from './types';

export async function webhookRouterWorkflow(input: RouterInput): Promise<void> {
  const { router } = input;
  /** The timings a new lane routes with: the router's, until a delivery brings the receiver's current ones. */
  let timings = input.timings;
  const maxEvents = input.continueAsNewAfterEvents ?? ROUTER_HISTORY_EVENTS;
  const maxLanes = input.maxLanes ?? MAX_ROUTER_LANES;
  const totals = continuedTotals(input.carried?.totals, new Date().toISOString());
  const lanes = new Map<string, Lane>(
    (input.carried?.lanes ?? []).map((carried) => [
      laneKey(carried.state.kind, carried.state.resourceId),
      { ...carried, timings },
    ]),
  );
  const running = new Set<string>();
  const hops = new HopBatches(() => timings);
  const alerts = proxyActivities<RampActivities>(operatorActivityOptions(timings));
  const recent: LaneState[] = [];
  let handingOver = false;
  let published: RouterMemo = { unknownResources: 0, overloaded: false };
  publishMemo();

  // ---- messages
  setHandler(webhookDeliveriesSignal, ({ deliveries, timings: current }) => {
    timings = current;
    deliveries.forEach(accept);
    publishMemo();
  });
  setHandler(routerStateQuery, () => ({
    router,
    totals,
    active: [...lanes.values()].map((lane) => lane.state),
    recent,
  }));

  // ---- the loop
  const toStart = () => lanesToStart(lanes, running);
  for (;;) {
    await condition(() => toStart().length > 0 || hops.pending || shouldContinueAsNew(maxEvents));
    if (shouldContinueAsNew(maxEvents)) break;
    for (const key of toStart()) void runLane(key, lanes.get(key)!);
    hops.flush();
    describe();
  }
  // Hand over: no new hop; running ones finish theirs (a wait to retry is cut short and carried).
  handingOver = true;
  for (;;) {
    await condition(() => running.size === 0 || hops.pending);
    if (running.size === 0) break;
    hops.flush();
  }
  await continueAsNew<typeof webhookRouterWorkflow>({
    ...input,
    timings,
    carried: { lanes: carriedLanes(lanes.values()), totals },
  });

  function accept({ kind, event }: RouterDelivery): void {
    const key = laneKey(kind, event.resourceId);
    let lane = lanes.get(key);
    if (!lane) {
      lane = newLane(kind, event.resourceId, timings, Date.now());
      lanes.set(key, lane);
    }
    lane.inbox.push(event);
    recordEvent(lane.state, event);
    totals.eventsReceived += 1;
  }

  async function runLane(key: string, lane: Lane): Promise<void> {
    running.add(key);
    try {
      if (lane.resumeAtMs !== undefined) {
        const waitMs = lane.resumeAtMs - Date.now();
        if (waitMs > 0 && (await condition(() => handingOver, waitMs))) return;
        delete lane.resumeAtMs;
      }
      await routeLane(lane, hostOf(lane));
    } catch (error) {
      // Anything but the operator's failure is a defect: it fails the workflow task (the router stalls, its
      // deliveries kept in history for a worker without the defect) instead of dropping the lane's deliveries.
      if (!(error instanceof ActivityFailure)) throw error;
      lane.state.gaveUpAt = new Date().toISOString();
      lane.inbox.splice(0);
      log.error('Router gave up on a resource after failing for the whole process timeout', {
        kind: lane.state.kind,
        resourceId: lane.state.resourceId,
        error: failureReason(error),
      });
    } finally {
      running.delete(key);
      if (laneIsDone(lane)) {
        lanes.delete(key);
        retireLane(totals, recent, lane.state);
        publishMemo();
      }
      describe();
    }
  }

  function hostOf(lane: Lane): LaneHost {
    return {
      routeEvent: (hop) => hops.routeEvent(hop),
      raiseAlert: (alert) => alerts.raiseAlert(alert),
      paused: () => handingOver,
      waitBeforeRetry: async (waitMs) => {
        lane.resumeAtMs = Date.now() + waitMs;
        const cut = await condition(() => handingOver, waitMs);
        if (!cut) delete lane.resumeAtMs;
        return cut;
      },
      workflowId: workflowInfo().workflowId,
    };
  }

  /** /metrics and the receiver read the memo from visibility: written when it changes. */
  function publishMemo(): void {
    const memo = routerMemo(totals, lanes.size, maxLanes);
    if (memo.unknownResources === published.unknownResources && memo.overloaded === published.overloaded)
      return;
    if (memo.overloaded !== published.overloaded)
      log[memo.overloaded ? 'warn' : 'info'](
        memo.overloaded
          ? 'Router holds as many resources as it should: the receiver answers its new deliveries 503'
          : 'Router takes new resources again',
        { lanes: lanes.size },
      );
    upsertMemo({ ...memo });
    published = memo;
  }

  function describe(): void {
    const retrying = [...lanes.values()].filter((lane) => lane.resumeAtMs !== undefined).length;
    setCurrentDetails(routerDetails(totals, { active: lanes.size, retrying }));
  }
}
