/**
 * A hop, one delivery's way to its process: re-read the resource by ID (a webhook is only a trigger), work out its
 * owner with the owner rule (workflows/ramps/router/owner.ts), and forward the fresh snapshot there (signal-with-start
 * under the one-run policy, so an event that comes first still lands and a closed process is never started again).
 * The receiver runs it before it answers (src/webhooks/direct-forward.ts), the routers in their routeEvents activity
 * (activities.ts), and reconciliation forwards what a process lacks with it, so all three take the same way.
 */
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { Ledger } from '../database/connection';
import { bookLateGas } from '../ledger/late-gas';
import { errorMessage } from '../domain/errors';
import { offRampWorkflowId, onRampWorkflowId, WORKFLOW_TYPES } from '../domain/ids';
import type { WorkflowTimings } from '../domain/timings';
import { type ProcessSignalOutcome, signalWithStartProcess } from '../temporal/process-start';
import { offRampTransactionSignal } from '../../workflows/ramps/offramp/messages';
import type { OffRampTransactionSignal } from '../../workflows/ramps/offramp/types';
import { onRampOrderSignal, onRampTransactionSignal } from '../../workflows/ramps/onramp/messages';
import { orderToSettleFrom, routeOrder, routeTransaction } from '../../workflows/ramps/router/owner';
import type { ForwardOutcome, RoutedEvent, RouteEventInput } from '../../workflows/ramps/router/types';
import type { OrderSnapshot, TransactionSnapshot } from '../../workflows/ramps/shared/snapshots';

/**
 * Get Transaction and Get Order by ID, as snapshots; `deadlineMs` (deadline clock) bounds a read. Given, not built
 * here, so that every hop's reads fail as the activities' reads do (activities/shared/snapshots.ts, snapshotReads).
 */
export interface SnapshotReads {
  transaction(id: string, options: { deadlineMs?: number }): Promise<TransactionSnapshot>;
  order(id: string, options: { deadlineMs?: number }): Promise<OrderSnapshot>;
}

export interface HopDeps {
  reads: SnapshotReads;
  temporal: Client;
  logger: Logger;
  /**
   * Where a hop books gas reported after its off-ramp ended (src/ledger/late-gas.ts). The receiver's hop has none: it
   * hands a delivery whose process ended to its router.
   */
  ledger?: Ledger;
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

const readOptions = (place: HopPlace) => (place.deadline ? { deadlineMs: place.deadline.operatorMs } : {});

/** The forwards to the two ramps: a signal-with-start of the owner under the one-run policy, within the deadline. */
function createForwards({ reads, temporal, logger, ledger }: HopDeps) {
  /** A top-up or sweep whose off-ramp has ended: the gas it reports is booked into the ramp's row. */
  const bookGasOfEnded = async (workflowId: string, { role, transaction }: OffRampTransactionSignal) => {
    if (!ledger || !transaction.fee || (role !== 'gasTopUp' && role !== 'sweep')) return;
    const booked = await bookLateGas(ledger, workflowId, role, transaction.fee);
    if (booked !== 'unchanged')
      logger.info(
        { workflowId, role, transactionId: transaction.id, booked },
        'Gas reported after its off-ramp ended',
      );
  };

  const signalWithStart = (
    at: HopPlace,
    workflowType: string,
    options: Parameters<typeof signalWithStartProcess>[2],
  ): Promise<ProcessSignalOutcome> => {
    const call = () => signalWithStartProcess(temporal, workflowType, options);
    return at.deadline ? temporal.withDeadline(at.deadline.temporalMs, call) : call();
  };

  return {
    /**
     * Hands a re-read transaction to offramp/<depositId>, starting it if needed. A sweep or order transaction that
     * names its order goes with it, read here: the off-ramp settles from the forward instead of reading the order
     * itself. When that read fails the transaction goes alone, and the off-ramp reads the order.
     */
    async forwardToOffRamp(input: OffRampForward, at: HopPlace): Promise<ForwardOutcome> {
      const orderId = orderToSettleFrom(input.signal);
      const order = orderId
        ? await reads.order(orderId, readOptions(at)).catch((error: unknown) => {
            logger.warn(
              { orderId, depositTransactionId: input.depositTransactionId, error: errorMessage(error) },
              'Order not read for the forward; the off-ramp reads it itself',
            );
            return undefined;
          })
        : undefined;
      const outcome = await signalWithStart(at, WORKFLOW_TYPES.offRamp, {
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
      });
      if (!outcome.delivered) await bookGasOfEnded(outcome.workflowId, input.signal);
      return forwardOutcome(outcome);
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
  };
}

export function createHop(deps: HopDeps) {
  const { reads } = deps;
  const forwards = createForwards(deps);
  return {
    ...forwards,

    /**
     * The whole hop: re-reads the resource, and unless its status is the one last forwarded, works out its owner
     * (the owner rule) and forwards it there (for an on-ramp's crypto deposit, with its order, read too).
     * A hop made again reads and forwards again; the process applies a status once.
     */
    async routeEvent(input: RouteEventInput, at: HopPlace): Promise<RoutedEvent> {
      const { kind, resourceId, lastStatus, timings } = input;
      if (kind === 'order') {
        const order = await reads.order(resourceId, readOptions(at));
        if (order.status === lastStatus) return { status: order.status, duplicate: true };
        const route = routeOrder(order);
        if (route.kind === 'unroutable') return { status: order.status, unroutable: route.reason };
        const outcome = await forwards.forwardToOnRamp(
          { orderReference: route.orderReference, order, timings },
          at,
        );
        return { status: order.status, outcome };
      }
      const tx = await reads.transaction(resourceId, readOptions(at));
      if (tx.status === lastStatus) return { status: tx.status, duplicate: true };
      const route = routeTransaction(tx);
      if (route.kind === 'unroutable') return { status: tx.status, unroutable: route.reason };
      if (route.kind === 'offramp') {
        const outcome = await forwards.forwardToOffRamp(
          {
            depositTransactionId: route.depositTransactionId,
            signal: { role: route.role, transaction: tx },
            timings,
          },
          at,
        );
        return { status: tx.status, outcome };
      }
      const order = await reads.order(route.orderId, readOptions(at));
      const outcome = await forwards.forwardToOnRamp(
        { orderReference: order.orderReference, order, transaction: tx, timings },
        at,
      );
      return { status: tx.status, outcome };
    },
  };
}

export type Hop = ReturnType<typeof createHop>;
