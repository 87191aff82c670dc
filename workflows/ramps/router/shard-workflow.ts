/**
 * routes/<task queue>/<n>: one long-lived router for a shard of the operator's resources (RECEIVER_ROUTER_SHARDS).
 *
 * The receiver signal-with-starts the shard its resource hashes to and answers 200 once the signal is in Temporal:
 * a signal to a running workflow, where a per-resource router is a new execution for every delivery. Inside, each
 * resource with deliveries is a lane that routes exactly as a per-resource router does (lane.ts: re-read, forward,
 * retry, give up only on a resource the operator does not know), lanes side by side, one hop each at most; the hops
 * ready together go in one routeEvents activity (hop-batches.ts).
 * A lane whose deliveries are all routed is dropped (kept among the recent ones for people looking in). When the
 * history grows long the shard stops starting hops, lets the running ones finish, and continues as new with the
 * lanes that still have deliveries or a retry to make.
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
} from '@temporalio/workflow';
import type { RampActivities } from '../../../activities';
import { failureReason } from '../../../src/domain/errors';
import { operatorActivityOptions } from '../../shared/activity-options';
import { shouldContinueAsNew } from '../../shared/continue-as-new';
import { PATCH_BASELINE } from '../../shared/patch-baseline';
import { hasPatch } from '../../shared/patches';
import { HopBatches } from './hop-batches';
import { type Lane, type LaneHost, newLane, routeLane } from './lane';
import { shardEventSignal, shardEventsSignal, shardStateQuery } from './messages';
import {
  carriedLanes,
  continuedTotals,
  laneIsDone,
  laneKey,
  lanesToStart,
  retireLane,
  shardDetails,
  MAX_SHARD_LANES,
  SHARD_HISTORY_EVENTS,
  type ShardMemo,
  shardMemo,
} from './shard-state';
import { recordEvent } from './state';
import type { CarriedLane, RouterInput, RouterState, ShardEventSignal, ShardRouterInput } from './types';

/** Runs recorded before a shard's ready hops went in one routeEvents activity ran a routeEvent for each. */
export const HOP_BATCHES_PATCH = 'router-hop-batches';

export async function webhookShardRouterWorkflow(input: ShardRouterInput): Promise<void> {
  const { shard } = input;
  /** The timings a new lane routes with: the shard's, until a delivery brings the receiver's current ones. */
  let timings = input.timings;
  const maxEvents = input.continueAsNewAfterEvents ?? SHARD_HISTORY_EVENTS;
  const totals = continuedTotals(input.carried?.totals, new Date().toISOString());
  const laneInput = (state: Pick<RouterState, 'kind' | 'resourceId'>): RouterInput => ({
    kind: state.kind,
    resourceId: state.resourceId,
    timings,
    ...(input.patchBaseline === undefined ? {} : { patchBaseline: input.patchBaseline }),
  });
  const lanes = new Map<string, Lane>(
    (input.carried?.lanes ?? []).map((carried: CarriedLane) => [
      laneKey(carried.state.kind, carried.state.resourceId),
      { ...carried, input: laneInput(carried.state) },
    ]),
  );
  const running = new Set<string>();
  const hops = new HopBatches(() => timings);
  const recent: RouterState[] = [];
  let handingOver = false;
  // /metrics and the receiver read the memo from visibility: written when it changes, and by a new run that
  // carries something to say.
  const maxLanes = input.maxLanes ?? MAX_SHARD_LANES;
  let published: ShardMemo = { unknownResources: 0, overloaded: false };
  const publishMemo = () => {
    const memo = shardMemo(totals, lanes.size, maxLanes);
    if (memo.unknownResources === published.unknownResources && memo.overloaded === published.overloaded)
      return;
    if (memo.overloaded !== published.overloaded)
      log[memo.overloaded ? 'warn' : 'info'](
        memo.overloaded
          ? 'Shard router holds as many resources as it should: new ones go to routers of their own'
          : 'Shard router takes new resources again',
        { lanes: lanes.size },
      );
    upsertMemo({ ...memo });
    published = memo;
  };
  publishMemo();

  // ---- messages
  const accept = ({ kind, event }: Pick<ShardEventSignal, 'kind' | 'event'>) => {
    const key = laneKey(kind, event.resourceId);
    let lane = lanes.get(key);
    if (!lane) {
      lane = newLane(laneInput({ kind, resourceId: event.resourceId }), Date.now());
      lanes.set(key, lane);
    }
    lane.inbox.push(event);
    recordEvent(lane.state, event);
    totals.eventsReceived += 1;
  };
  setHandler(shardEventSignal, (delivery) => {
    if (delivery.timings) timings = delivery.timings;
    accept(delivery);
    publishMemo();
  });
  setHandler(shardEventsSignal, ({ deliveries, timings: current }) => {
    if (current) timings = current;
    deliveries.forEach(accept);
    publishMemo();
  });
  setHandler(shardStateQuery, () => ({
    shard,
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
  // The next run has no history yet: it takes this worker's patch baseline, as a new shard would.
  await continueAsNew<typeof webhookShardRouterWorkflow>({
    ...input,
    timings,
    patchBaseline: PATCH_BASELINE,
    carried: { lanes: carriedLanes(lanes.values()), totals },
  });

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
      // Anything but the operator's failure is a defect: it fails the workflow task (the shard stalls, its
      // deliveries kept in history) instead of dropping the lane's deliveries.
      if (!(error instanceof ActivityFailure)) throw error;
      // The per-resource router would fail here: a shard keeps going and records the resource as given up.
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
    const activities = proxyActivities<RampActivities>(operatorActivityOptions(lane.input.timings));
    const batched = hasPatch(lane.input, HOP_BATCHES_PATCH);
    return {
      activities,
      hop: activities,
      routeEvent: (hop) => (batched ? hops.routeEvent(hop) : activities.routeEvent(hop)),
      describe: () => undefined,
      paused: () => handingOver,
      waitBeforeRetry: async (waitMs) => {
        lane.resumeAtMs = Date.now() + waitMs;
        const cut = await condition(() => handingOver, waitMs);
        if (!cut) delete lane.resumeAtMs;
        return cut;
      },
      gaveUpUnknownResource: () => undefined,
    };
  }

  function describe(): void {
    const retrying = [...lanes.values()].filter((lane) => lane.resumeAtMs !== undefined).length;
    setCurrentDetails(shardDetails(totals, { active: lanes.size, retrying }));
  }
}
