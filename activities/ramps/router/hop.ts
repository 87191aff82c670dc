/**
 * A router's hop: re-read a resource by ID (a webhook is only a trigger), work out its process with the router's
 * pure rules, and forward the fresh snapshot there (signal-with-start under the one-run policy, so an event that
 * comes first still lands and a closed process is never started again). Run by the router's activities, and by the
 * receiver itself before it answers (src/webhooks/direct-forward.ts), so both take the same route.
 */
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { errorMessage } from '../../../src/domain/errors';
import { offRampWorkflowId, onRampWorkflowId, WORKFLOW_TYPES } from '../../../src/domain/ids';
import type { WorkflowTimings } from '../../../src/domain/timings';
import type { OperatorClient } from '../../../src/operator/client';
import { type ProcessSignalOutcome, signalWithStartProcess } from '../../../src/temporal/process-start';
import { offRampTransactionSignal } from '../../../workflows/ramps/offramp/messages';
import type { OffRampTransactionSignal } from '../../../workflows/ramps/offramp/types';
import { onRampOrderSignal, onRampTransactionSignal } from '../../../workflows/ramps/onramp/messages';
import { orderToSettleFrom, routeOrder, routeTransaction } from '../../../workflows/ramps/router/owner';
import type { ForwardOutcome, RoutedEvent, RouteEventInput } from '../../../workflows/ramps/router/types';
import type { OrderSnapshot, TransactionSnapshot } from '../../../workflows/ramps/shared/snapshots';
import { readOrder, readTransaction } from '../../shared/snapshots';

export interface HopDeps {
  operator: OperatorClient;
  temporal: Client;
  logger: Logger;
}

/** Where a hop runs: the task queue of the processes it starts, and, for the receiver's own hop, its deadline. */
export interface HopPlace {
  taskQueue: string;
  /** The operator's reads end at `operatorMs` (deadline clock), Temporal's calls at `temporalMs` (Date.now()). */
  deadline?: { operatorMs: number; temporalMs: number };
}

export interface OffRampForward {
  depositTransactionId: string;
  signal: OffRampTransactionSignal;
  timings: WorkflowTimings;
}

export interface OnRampForward {
  orderReference: string;
  order?: OrderSnapshot;
  transaction?: TransactionSnapshot;
  timings: WorkflowTimings;
}

/** A forward's answer: the process reached, or how it had already ended (it is never started again). */
export function forwardOutcome(outcome: ProcessSignalOutcome): ForwardOutcome {
  return outcome.delivered
    ? { workflowId: outcome.workflowId }
    : { workflowId: outcome.workflowId, closed: outcome.closed };
}

export function createHop({ operator, temporal, logger }: HopDeps) {
  const readOptions = (place: HopPlace) => (place.deadline ? { deadlineMs: place.deadline.operatorMs } : {});
  /** Signal-with-start of a process under the one-run policy, within the place's deadline. */
  const signalWithStart = (
    at: HopPlace,
    workflowType: string,
    options: Parameters<typeof signalWithStartProcess>[2],
  ): Promise<ProcessSignalOutcome> => {
    const call = () => signalWithStartProcess(temporal, workflowType, options);
    return at.deadline ? temporal.withDeadline(at.deadline.temporalMs, call) : call();
  };

  const hop = {
    /**
     * Hands a re-read transaction to offramp/<depositId>, starting it if needed. A sweep or order transaction that
     * names its order goes with it, read here: the off-ramp settles from the forward instead of reading the order
     * itself. When that read fails the transaction goes alone, and the off-ramp reads the order.
     */
    async forwardToOffRamp(input: OffRampForward, at: HopPlace): Promise<ForwardOutcome> {
      const orderId = orderToSettleFrom(input.signal);
      const order = orderId
        ? await readOrder(operator, orderId, readOptions(at)).catch((error: unknown) => {
            logger.warn(
              { orderId, depositTransactionId: input.depositTransactionId, error: errorMessage(error) },
              'Order not read for the forward; the off-ramp reads it itself',
            );
            return undefined;
          })
        : undefined;
      return forwardOutcome(
        await signalWithStart(at, WORKFLOW_TYPES.offRamp, {
          workflowId: offRampWorkflowId(input.depositTransactionId),
          taskQueue: at.taskQueue,
          args: [
            {
              depositTransactionId: input.depositTransactionId,
              timings: input.timings,
            },
          ],
          signal: offRampTransactionSignal,
          signalArgs: [order ? { ...input.signal, order } : input.signal],
        }),
      );
    },

    /** Hands a re-read order (or its crypto deposit) to onramp/<reference>, starting it (unattributed) if needed. */
    async forwardToOnRamp(input: OnRampForward, at: HopPlace): Promise<ForwardOutcome> {
      const common = {
        workflowId: onRampWorkflowId(input.orderReference),
        taskQueue: at.taskQueue,
        args: [{ orderReference: input.orderReference, timings: input.timings }],
      };
      if (input.order) {
        const outcome = await signalWithStart(at, WORKFLOW_TYPES.onRamp, {
          ...common,
          signal: onRampOrderSignal,
          signalArgs: [input.order],
        });
        if (!outcome.delivered) return forwardOutcome(outcome);
      }
      if (input.transaction) {
        const outcome = await signalWithStart(at, WORKFLOW_TYPES.onRamp, {
          ...common,
          signal: onRampTransactionSignal,
          signalArgs: [input.transaction],
        });
        if (!outcome.delivered) return forwardOutcome(outcome);
      }
      return { workflowId: common.workflowId };
    },

    /**
     * The whole hop: re-reads the resource, and unless its status is the one last forwarded, works out its process
     * (the router's pure rules) and forwards it there (for an on-ramp's crypto deposit, with its order, read too).
     * A hop made again reads and forwards again; the process applies a status once.
     */
    async routeEvent(input: RouteEventInput, at: HopPlace): Promise<RoutedEvent> {
      const { kind, resourceId, lastStatus, timings } = input;
      if (kind === 'order') {
        const order = await readOrder(operator, resourceId, readOptions(at));
        if (order.status === lastStatus) return { status: order.status, duplicate: true };
        const route = routeOrder(order);
        if (route.kind === 'unroutable') return { status: order.status, unroutable: route.reason };
        const outcome = await hop.forwardToOnRamp(
          { orderReference: route.orderReference, order, timings },
          at,
        );
        return { status: order.status, outcome };
      }
      const tx = await readTransaction(operator, resourceId, readOptions(at));
      if (tx.status === lastStatus) return { status: tx.status, duplicate: true };
      const route = routeTransaction(tx);
      if (route.kind === 'unroutable') return { status: tx.status, unroutable: route.reason };
      if (route.kind === 'offramp') {
        const outcome = await hop.forwardToOffRamp(
          {
            depositTransactionId: route.depositTransactionId,
            signal: { role: route.role, transaction: tx },
            timings,
          },
          at,
        );
        return { status: tx.status, outcome };
      }
      const order = await readOrder(operator, route.orderId, readOptions(at));
      const outcome = await hop.forwardToOnRamp(
        { orderReference: order.orderReference, order, transaction: tx, timings },
        at,
      );
      return { status: tx.status, outcome };
    },
  };
  return hop;
}

export type Hop = ReturnType<typeof createHop>;
