/**
 * Activities of the webhook router: re-reading a resource by ID (a webhook is only a trigger) and forwarding the
 * fresh snapshot to the process that owns it (hop.ts, which the receiver's own hop shares), on the activity's task
 * queue.
 */
import { Context } from '@temporalio/activity';
import type {
  ForwardOutcome,
  HopResult,
  RoutedEvent,
  RouteEventInput,
  RouteEventsInput,
} from '../../../workflows/ramps/router/types';
import type { OrderSnapshot, TransactionSnapshot } from '../../../workflows/ramps/shared/snapshots';
import type { ActivityDeps } from '../../deps';
import { readOrder, readTransaction } from '../../shared/snapshots';
import { HOP_DEADLINE_SHARE, routeEachHop } from './hop-batch';
import { createHop, type OffRampForward, type OnRampForward } from './hop';

export { forwardOutcome } from './hop';

export function createRouterActivities({ operator, temporal, logger }: ActivityDeps) {
  const steps = createHop({ operator, temporal, logger });
  /** Processes a forward starts run on the task queue of the activity that forwards. */
  const here = () => ({ taskQueue: Context.current().info.taskQueue });
  const activities = {
    /** Get Transaction by ID, reduced to the fields the processes use. */
    readTransactionSnapshot(input: { id: string }): Promise<TransactionSnapshot> {
      return readTransaction(operator, input.id);
    },

    /** Get Order by ID, reduced to the fields the processes use. */
    readOrderSnapshot(input: { id: string }): Promise<OrderSnapshot> {
      return readOrder(operator, input.id);
    },

    /**
     * Hands a re-read transaction to offramp/<depositId>, starting it if needed. A process that has already ended is
     * never started again: the answer says how it ended, for the router to record.
     */
    forwardToOffRamp(input: OffRampForward): Promise<ForwardOutcome> {
      return steps.forwardToOffRamp(input, here());
    },

    /**
     * Hands a re-read order (or its crypto deposit) to onramp/<reference>, starting it (unattributed) if needed;
     * never restarts one that ended.
     */
    forwardToOnRamp(input: OnRampForward): Promise<ForwardOutcome> {
      return steps.forwardToOnRamp(input, here());
    },

    /**
     * A router's whole hop in one activity: re-read, route and forward (hop.ts). One activity task and one workflow
     * task per hop instead of two or three of each. A retried attempt reads and forwards again; the process applies
     * a status once.
     */
    routeEvent(input: RouteEventInput): Promise<RoutedEvent> {
      return steps.routeEvent(input, here());
    },

    /**
     * The hops of a shard router's lanes that were ready together, in one activity task instead of one each: every
     * hop is routeEvent's whole hop, side by side with the others, and its failure is in the answer (the shard
     * retries that hop alone). A retried task routes every hop again; the processes apply a status once.
     */
    routeEvents(input: RouteEventsInput): Promise<HopResult[]> {
      const deadlineMs = Math.floor(Context.current().info.startToCloseTimeoutMs * HOP_DEADLINE_SHARE);
      return routeEachHop((hop) => activities.routeEvent(hop), input, deadlineMs);
    },
  };
  return activities;
}
