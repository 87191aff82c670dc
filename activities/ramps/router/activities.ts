/**
 * Activities of the webhook router: re-reading a resource by ID (a webhook is only a trigger) and forwarding the
 * fresh snapshot to the process that owns it (signal-with-start, so an event that comes first still lands).
 */
import { Context } from '@temporalio/activity';
import { errorMessage } from '../../../src/domain/errors';
import { offRampWorkflowId, onRampWorkflowId, WORKFLOW_TYPES } from '../../../src/domain/ids';
import type { WorkflowTimings } from '../../../src/domain/timings';
import { type ProcessSignalOutcome, signalWithStartProcess } from '../../../src/temporal/process-start';
import { offRampTransactionSignal } from '../../../workflows/ramps/offramp/messages';
import { orderToSettleFrom } from '../../../workflows/ramps/offramp/state';
import type { OffRampTransactionSignal } from '../../../workflows/ramps/offramp/types';
import { onRampOrderSignal, onRampTransactionSignal } from '../../../workflows/ramps/onramp/messages';
import { OFF_RAMP_ORDER_UNROUTABLE, routeTransaction } from '../../../workflows/ramps/router/state';
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
import { PATCH_BASELINE } from '../../../workflows/shared/patch-baseline';
import { HOP_DEADLINE_SHARE, routeEachHop } from './hop-batch';

/** A forward's answer: the process reached, or how it had already ended (it is never started again). */
export function forwardOutcome(outcome: ProcessSignalOutcome): ForwardOutcome {
  return outcome.delivered
    ? { workflowId: outcome.workflowId }
    : { workflowId: outcome.workflowId, closed: outcome.closed };
}

export function createRouterActivities({ operator, temporal, logger }: ActivityDeps) {
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
     * A sweep or order transaction that names its order goes with it, read here: the off-ramp settles from the
     * forward instead of reading the order itself (a round trip of its own, on every off-ramp's last steps). When
     * that read fails the transaction goes alone, as before, and the off-ramp reads the order.
     */
    async forwardToOffRamp(input: {
      depositTransactionId: string;
      signal: OffRampTransactionSignal;
      timings: WorkflowTimings;
    }): Promise<ForwardOutcome> {
      const orderId = orderToSettleFrom(input.signal);
      const order = orderId
        ? await readOrder(operator, orderId).catch((error: unknown) => {
            logger.warn(
              { orderId, depositTransactionId: input.depositTransactionId, error: errorMessage(error) },
              'Order not read for the forward; the off-ramp reads it itself',
            );
            return undefined;
          })
        : undefined;
      return forwardOutcome(
        await signalWithStartProcess(temporal, WORKFLOW_TYPES.offRamp, {
          workflowId: offRampWorkflowId(input.depositTransactionId),
          taskQueue: Context.current().info.taskQueue,
          args: [
            {
              depositTransactionId: input.depositTransactionId,
              timings: input.timings,
              patchBaseline: PATCH_BASELINE,
            },
          ],
          signal: offRampTransactionSignal,
          signalArgs: [order ? { ...input.signal, order } : input.signal],
        }),
      );
    },

    /**
     * Hands a re-read order (or its crypto deposit) to onramp/<reference>, starting it (unattributed) if needed;
     * never restarts one that ended.
     */
    async forwardToOnRamp(input: {
      orderReference: string;
      order?: OrderSnapshot;
      transaction?: TransactionSnapshot;
      timings: WorkflowTimings;
    }): Promise<ForwardOutcome> {
      const common = {
        workflowId: onRampWorkflowId(input.orderReference),
        taskQueue: Context.current().info.taskQueue,
        args: [
          { orderReference: input.orderReference, timings: input.timings, patchBaseline: PATCH_BASELINE },
        ],
      };
      if (input.order) {
        const outcome = await signalWithStartProcess(temporal, WORKFLOW_TYPES.onRamp, {
          ...common,
          signal: onRampOrderSignal,
          signalArgs: [input.order],
        });
        if (!outcome.delivered) return forwardOutcome(outcome);
      }
      if (input.transaction) {
        const outcome = await signalWithStartProcess(temporal, WORKFLOW_TYPES.onRamp, {
          ...common,
          signal: onRampTransactionSignal,
          signalArgs: [input.transaction],
        });
        if (!outcome.delivered) return forwardOutcome(outcome);
      }
      return { workflowId: common.workflowId };
    },

    /**
     * A router's whole hop in one activity: re-reads the resource, and unless its status is the one last forwarded,
     * works out its process (the router's pure rules) and forwards it there (for an on-ramp's crypto deposit, with
     * its order, read too). One activity task and one workflow task per hop instead of two or three of each. A
     * retried attempt reads and forwards again; the process applies a status once.
     */
    async routeEvent(input: RouteEventInput): Promise<RoutedEvent> {
      const { kind, resourceId, lastStatus, timings } = input;
      if (kind === 'order') {
        const order = await readOrder(operator, resourceId);
        if (order.status === lastStatus) return { status: order.status, duplicate: true };
        if (order.direction === 'off-ramp')
          return { status: order.status, unroutable: OFF_RAMP_ORDER_UNROUTABLE };
        const outcome = await activities.forwardToOnRamp({
          orderReference: order.orderReference,
          order,
          timings,
        });
        return { status: order.status, outcome };
      }
      const tx = await readTransaction(operator, resourceId);
      if (tx.status === lastStatus) return { status: tx.status, duplicate: true };
      const route = routeTransaction(tx);
      if (route.kind === 'unroutable') return { status: tx.status, unroutable: route.reason };
      if (route.kind === 'offramp') {
        const outcome = await activities.forwardToOffRamp({
          depositTransactionId: route.depositTransactionId,
          signal: { role: route.role, transaction: tx },
          timings,
        });
        return { status: tx.status, outcome };
      }
      const order = await readOrder(operator, route.orderId);
      const outcome = await activities.forwardToOnRamp({
        orderReference: order.orderReference,
        order,
        transaction: tx,
        timings,
      });
      return { status: tx.status, outcome };
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
