/**
 * The webhook routers' activity: the hops of the lanes that were ready together, in one activity task (each hop
 * re-reads its resource by ID, a webhook being only a trigger, and forwards the fresh snapshot to the process that
 * owns it: hop.ts, which the receiver's own hop and reconciliation share). Registered with every other activity
 * (activities/index.ts); it sits here, beside the hop it runs, so that routing's I/O is one folder.
 */
import { Context } from '@temporalio/activity';
import type { HopResult, RouteEventsInput } from '../../workflows/ramps/router/types';
import { HOP_DEADLINE_SHARE, routeEachHop } from './hop-batch';
import { createHop, type HopDeps } from './hop';

export function createRouterActivities(deps: HopDeps) {
  const hop = createHop(deps);
  return {
    /**
     * Every hop is the whole hop (re-read, route, forward), side by side with the others, and its failure is in the
     * answer (the router retries that hop alone). A retried task routes every hop again; the processes apply a
     * status once. Processes a forward starts run on the task queue of the activity that forwards.
     */
    routeEvents(input: RouteEventsInput): Promise<HopResult[]> {
      const { taskQueue, startToCloseTimeoutMs } = Context.current().info;
      const deadlineMs = Math.floor(startToCloseTimeoutMs * HOP_DEADLINE_SHARE);
      return routeEachHop((event) => hop.routeEvent(event, { taskQueue }), input, deadlineMs);
    },
  };
}
