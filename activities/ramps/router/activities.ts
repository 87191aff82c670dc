/**
 * Activities of the webhook router: re-reading a resource by ID (a webhook is only a trigger) and forwarding the
 * fresh snapshot to the process that owns it (signal-with-start, so an event that comes first still lands).
 */
import { Context } from '@temporalio/activity';
import { offRampWorkflowId, onRampWorkflowId, WORKFLOW_TYPES } from '../../../src/domain/ids';
import type { WorkflowTimings } from '../../../src/domain/timings';
import { type ProcessSignalOutcome, signalWithStartProcess } from '../../../src/temporal/process-start';
import { offRampTransactionSignal } from '../../../workflows/ramps/offramp/messages';
import type { OffRampTransactionSignal } from '../../../workflows/ramps/offramp/types';
import { onRampOrderSignal, onRampTransactionSignal } from '../../../workflows/ramps/onramp/messages';
import type { ForwardOutcome } from '../../../workflows/ramps/router/types';
import type { OrderSnapshot, TransactionSnapshot } from '../../../workflows/ramps/shared/snapshots';
import type { ActivityDeps } from '../../deps';
import { readOrder, readTransaction } from '../../shared/snapshots';

/** A forward's answer: the process reached, or how it had already ended (it is never started again). */
export function forwardOutcome(outcome: ProcessSignalOutcome): ForwardOutcome {
  return outcome.delivered
    ? { workflowId: outcome.workflowId }
    : { workflowId: outcome.workflowId, closed: outcome.closed };
}

export function createRouterActivities({ operator, temporal }: ActivityDeps) {
  return {
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
    async forwardToOffRamp(input: {
      depositTransactionId: string;
      signal: OffRampTransactionSignal;
      timings: WorkflowTimings;
    }): Promise<ForwardOutcome> {
      return forwardOutcome(
        await signalWithStartProcess(temporal, WORKFLOW_TYPES.offRamp, {
          workflowId: offRampWorkflowId(input.depositTransactionId),
          taskQueue: Context.current().info.taskQueue,
          args: [{ depositTransactionId: input.depositTransactionId, timings: input.timings }],
          signal: offRampTransactionSignal,
          signalArgs: [input.signal],
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
        args: [{ orderReference: input.orderReference, timings: input.timings }],
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
  };
}
