/**
 * The webhook router's activity: the hops of the lanes that were ready together, in one activity task (each hop
 * re-reads its resource by ID, a webhook being only a trigger, and forwards the fresh snapshot to the process that
 * owns it: src/routing/hop.ts, which the receiver's own hop shares).
 */
import { Context } from '@temporalio/activity';
import type { HopResult, RouteEventsInput } from '../../../workflows/ramps/router/types';
import type { ActivityDeps } from '../../deps';
import { HOP_DEADLINE_SHARE, routeEachHop } from './hop-batch';
import { createHop } from '../../../src/routing/hop';
import { snapshotReads } from '../../shared/snapshots';

export function createRouterActivities({ operator, temporal, logger }: ActivityDeps) {
  const hop = createHop({ reads: snapshotReads(operator), temporal, logger });
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
