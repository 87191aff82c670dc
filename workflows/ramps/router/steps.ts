/**
 * What a router run keeps and does besides its loop: its lanes (one per resource with deliveries), each routed on its
 * own (lane.ts) with its hops batched (hop-batches.ts), the totals, and what visibility and the Web UI show.
 * Workflow code; the rules are state.ts's and lane-state.ts's. The workflow (workflow.ts) is its handlers and loop.
 */
import {
  ActivityFailure,
  condition,
  log,
  proxyActivities,
  setCurrentDetails,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import type { RampActivities } from '../../../activities';
import { failureReason } from '../../../src/domain/errors';
import type { WorkflowTimings } from '../../../src/domain/timings';
import { operatorActivityOptions } from '../../shared/activity-options';
import { HopBatches } from './hop-batches';
import { type Lane, type LaneHost, newLane, routeLane } from './lane';
import { recordEvent } from './lane-state';
import { countGiveUp } from './metrics';
import {
  carriedLanes,
  continuedTotals,
  laneIsDone,
  laneKey,
  lanesToStart,
  MAX_ROUTER_LANES,
  retireLane,
  routerDetails,
  type RouterMemo,
  routerMemo,
} from './state';
import type { LaneState, RouterDelivery, RouterInput, RouterState } from './types';

export class RouterRun {
  /** The timings a new lane routes with: the router's, until a delivery brings the receiver's current ones. */
  timings: WorkflowTimings;
  /** Set when the run is about to continue as new: no new hop, and a wait to retry is cut short and carried. */
  handingOver = false;
  readonly hops: HopBatches;
  private readonly lanes: Map<string, Lane>;
  private readonly running = new Set<string>();
  private readonly recent: LaneState[] = [];
  private readonly totals;
  private readonly maxLanes: number;
  private readonly alerts: RampActivities;
  private published: RouterMemo = { unknownResources: 0, overloaded: false };

  constructor(private readonly input: RouterInput) {
    this.timings = input.timings;
    this.maxLanes = input.maxLanes ?? MAX_ROUTER_LANES;
    this.totals = continuedTotals(input.carried?.totals, new Date().toISOString());
    this.lanes = new Map(
      (input.carried?.lanes ?? []).map((carried) => [
        laneKey(carried.state.kind, carried.state.resourceId),
        { ...carried, timings: this.timings },
      ]),
    );
    this.hops = new HopBatches(() => this.timings);
    this.alerts = proxyActivities<RampActivities>(operatorActivityOptions(input.timings));
  }

  /** Puts a delivery in its resource's lane, starting one for a resource it does not hold yet. */
  accept({ kind, event }: RouterDelivery): void {
    const key = laneKey(kind, event.resourceId);
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = newLane(kind, event.resourceId, this.timings, Date.now());
      this.lanes.set(key, lane);
    }
    lane.inbox.push(event);
    recordEvent(lane.state, event);
    this.totals.eventsReceived += 1;
  }

  /** The query's answer. */
  view(): RouterState {
    return {
      router: this.input.router,
      totals: this.totals,
      active: [...this.lanes.values()].map((lane) => lane.state),
      recent: this.recent,
    };
  }

  /** True when a lane has deliveries and no hop running (and there is room for one). */
  hasLaneToStart(): boolean {
    return lanesToStart(this.lanes, this.running).length > 0;
  }

  /** Starts every lane that can start; their hops wait in the batches until flushed. */
  startReadyLanes(): void {
    for (const key of lanesToStart(this.lanes, this.running)) void this.runLane(key, this.lanes.get(key)!);
  }

  get lanesRunning(): number {
    return this.running.size;
  }

  /** The next run's input: the same settings, the current timings, every lane still to route. */
  continuedInput(): RouterInput {
    return {
      ...this.input,
      timings: this.timings,
      carried: { lanes: carriedLanes(this.lanes.values()), totals: this.totals },
    };
  }

  /** /metrics and the receiver read the memo from visibility: written when it changes. */
  publishMemo(): void {
    const memo = routerMemo(this.totals, this.lanes.size, this.maxLanes);
    const { published } = this;
    if (memo.unknownResources === published.unknownResources && memo.overloaded === published.overloaded)
      return;
    if (memo.overloaded !== published.overloaded)
      log[memo.overloaded ? 'warn' : 'info'](
        memo.overloaded
          ? 'Router holds as many resources as it should: the receiver answers its new deliveries 503'
          : 'Router takes new resources again',
        { lanes: this.lanes.size },
      );
    upsertMemo({ ...memo });
    this.published = memo;
  }

  describe(): void {
    const retrying = [...this.lanes.values()].filter((lane) => lane.resumeAtMs !== undefined).length;
    setCurrentDetails(routerDetails(this.totals, { active: this.lanes.size, retrying }));
  }

  private async runLane(key: string, lane: Lane): Promise<void> {
    this.running.add(key);
    try {
      if (lane.resumeAtMs !== undefined) {
        const waitMs = lane.resumeAtMs - Date.now();
        if (waitMs > 0 && (await condition(() => this.handingOver, waitMs))) return;
        delete lane.resumeAtMs;
      }
      await routeLane(lane, this.hostOf(lane));
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
      this.running.delete(key);
      if (laneIsDone(lane)) {
        this.lanes.delete(key);
        retireLane(this.totals, this.recent, lane.state);
        if (lane.state.unknownResource?.gaveUpAt) countGiveUp('unknown-resource');
        else if (lane.state.gaveUpAt) countGiveUp('failed');
        this.publishMemo();
      }
      this.describe();
    }
  }

  private hostOf(lane: Lane): LaneHost {
    return {
      routeEvent: (hop) => this.hops.routeEvent(hop),
      raiseAlert: (alert) => this.alerts.raiseAlert(alert),
      paused: () => this.handingOver,
      waitBeforeRetry: async (waitMs) => {
        lane.resumeAtMs = Date.now() + waitMs;
        const cut = await condition(() => this.handingOver, waitMs);
        if (!cut) delete lane.resumeAtMs;
        return cut;
      },
      workflowId: workflowInfo().workflowId,
    };
  }
}
