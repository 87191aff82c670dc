/**
 * Activities of the on-ramp and off-ramp processes: re-reading resources by ID (a webhook is only a trigger),
 * forwarding a re-read snapshot to the process that owns it (signal-with-start), finding the end user of a deposit
 * wallet, and discovering the off-ramp's later transactions by polling. The gas wallet's check is in
 * operations/gas-monitor/activities.ts.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import { loadEncryptionConfig, type PayloadEncryptionConfig } from '../src/config/encryption';
import { endUserWorkflowId } from '../src/domain/ids';
import { endUserSearchValue } from '../src/temporal/end-user-pseudonym';
import { EndUserId } from '../src/temporal/search-attributes';
import { offRampLinkedSignal, offRampTransactionSignal, onRampOrderSignal, onRampTransactionSignal } from '../workflows/messages';
import { type ProcessSignalOutcome, signalWithStartProcess } from '../src/temporal/process-start';
import {
  type ForwardOutcome,
  offRampWorkflowId,
  type OffRampTransactionSignal,
  onRampWorkflowId,
  type OrderSnapshot,
  type TransactionSnapshot,
} from '../workflows/ramp-types';
import type { WorkflowTimings } from '../workflows/types';
import type { ActivityDeps } from './deps';
import * as snapshots from './shared/snapshots';

/** findEndUserByWallet's answer. */
export interface EndUserOfWallet {
  endUserId: string;
  /** The RampEndUserId value: the end user ID, or its pseudonym when encryption keys are configured. */
  endUserSearchValue: string;
}

function forwardOutcome(outcome: ProcessSignalOutcome): ForwardOutcome {
  return outcome.delivered ? { workflowId: outcome.workflowId } : { workflowId: outcome.workflowId, closed: outcome.closed };
}

/** Identifiers go into a visibility query: accept only characters that cannot break out of the quoted string. */
function visibilitySafe(value: string): string {
  if (!/^[A-Za-z0-9._:@/-]{1,200}$/.test(value)) {
    throw ApplicationFailure.create({ type: 'InvalidInput', message: 'wallet id has characters a visibility query cannot carry', nonRetryable: true });
  }
  return value;
}

export function createRampActivities({ operator, temporal, encryption }: ActivityDeps) {
  let keys: Pick<PayloadEncryptionConfig, 'keys'> | undefined = encryption;
  const encryptionKeys = () => (keys ??= loadEncryptionConfig());

  const readTransaction = (id: string) => snapshots.readTransaction(operator, id);
  const readOrder = (id: string) => snapshots.readOrder(operator, id);

  return {
    /** Get Transaction by ID, reduced to the fields the processes use. */
    readTransactionSnapshot(input: { id: string }): Promise<TransactionSnapshot> {
      return readTransaction(input.id);
    },

    /** Get Order by ID, reduced to the fields the processes use. */
    readOrderSnapshot(input: { id: string }): Promise<OrderSnapshot> {
      return readOrder(input.id);
    },

    /**
     * Hands a re-read transaction to offramp/<depositId>, starting it if needed. A process that has already ended is
     * never started again: the answer says how it ended, for the router to record.
     */
    async forwardToOffRamp(input: { depositTransactionId: string; signal: OffRampTransactionSignal; timings: WorkflowTimings }): Promise<ForwardOutcome> {
      return forwardOutcome(
        await signalWithStartProcess(temporal, 'offRampWorkflow', {
          workflowId: offRampWorkflowId(input.depositTransactionId),
          taskQueue: Context.current().info.taskQueue,
          args: [{ depositTransactionId: input.depositTransactionId, timings: input.timings }],
          signal: offRampTransactionSignal,
          signalArgs: [input.signal],
        }),
      );
    },

    /** Hands a re-read order (or its crypto deposit) to onramp/<reference>, starting it (unattributed) if needed; never restarts one that ended. */
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
        const outcome = await signalWithStartProcess(temporal, 'onRampWorkflow', { ...common, signal: onRampOrderSignal, signalArgs: [input.order] });
        if (!outcome.delivered) return forwardOutcome(outcome);
      }
      if (input.transaction) {
        const outcome = await signalWithStartProcess(temporal, 'onRampWorkflow', { ...common, signal: onRampTransactionSignal, signalArgs: [input.transaction] });
        if (!outcome.delivered) return forwardOutcome(outcome);
      }
      return { workflowId: common.workflowId };
    },

    /**
     * The end user whose end-user/<id> workflow owns a deposit wallet, by the RampWalletId search attribute, and the
     * value the off-ramp puts in RampEndUserId (the end user ID, or its pseudonym with encryption keys configured:
     * src/temporal/end-user-pseudonym.ts). Recorded histories hold the older answer, the end user ID alone (string).
     * Visibility is eventually consistent: "not found" is thrown as retryable (the workflow bounds the attempts);
     * in practice the wallet exists long before anyone deposits to it.
     */
    async findEndUserByWallet(input: { walletId: string }): Promise<EndUserOfWallet> {
      const query = `WorkflowType = 'endUserWorkflow' AND RampWalletId = '${visibilitySafe(input.walletId)}'`;
      for await (const execution of temporal.workflow.list({ query, pageSize: 10 })) {
        // The workflow ID names the user (RampEndUserId may be a pseudonym).
        const endUserId = execution.workflowId.startsWith('end-user/')
          ? execution.workflowId.slice('end-user/'.length)
          : execution.typedSearchAttributes.get(EndUserId);
        if (endUserId) return { endUserId, endUserSearchValue: endUserSearchValue(endUserId, encryptionKeys()) };
      }
      throw ApplicationFailure.create({ type: 'WalletOwnerNotFound', message: `no end-user workflow owns wallet ${input.walletId} (yet)` });
    },

    /**
     * Tells end-user/<id> about one of its off-ramps (offRampLinked). An activity rather than a workflow signal so
     * the off-ramp's history holds no end-user/<id> workflow ID in clear (the input is an encrypted payload).
     * Failures never name the end user (their messages are stored in clear).
     */
    async linkOffRampToEndUser(input: { endUserId: string; depositTransactionId: string }): Promise<void> {
      try {
        await temporal.workflow.getHandle(endUserWorkflowId(input.endUserId)).signal(offRampLinkedSignal, { depositTransactionId: input.depositTransactionId });
      } catch (error) {
        const notFound = error instanceof WorkflowNotFoundError;
        throw ApplicationFailure.create({
          type: notFound ? 'EndUserWorkflowNotFound' : 'EndUserSignalFailed',
          message: notFound ? 'the end user workflow of this deposit is not running' : `could not signal the end user workflow of this deposit (${error instanceof Error ? error.name : 'error'})`,
          nonRetryable: notFound,
        });
      }
    },

    /**
     * Re-reads everything an off-ramp can reach from its deposit when webhooks stop: the deposit, the sweep it
     * links (relatedTransactionId, set once the sweep starts), the AutoSwap order the sweep links (orderId), and
     * the top-up / order transaction when their IDs are known from events.
     */
    async pollOffRamp(input: {
      depositTransactionId: string;
      sweepId?: string;
      gasTopUpId?: string;
      orderTransactionId?: string;
      orderId?: string;
    }): Promise<{
      deposit: TransactionSnapshot;
      sweep?: TransactionSnapshot;
      gasTopUp?: TransactionSnapshot;
      orderTransaction?: TransactionSnapshot;
      order?: OrderSnapshot;
    }> {
      const deposit = await readTransaction(input.depositTransactionId);
      const sweepId = input.sweepId ?? deposit.relatedTransactionId ?? undefined;
      const sweep = sweepId ? await readTransaction(sweepId) : undefined;
      const gasTopUp = input.gasTopUpId ? await readTransaction(input.gasTopUpId) : undefined;
      const orderTransaction = input.orderTransactionId ? await readTransaction(input.orderTransactionId) : undefined;
      const orderId = input.orderId ?? orderTransaction?.orderId ?? sweep?.orderId ?? undefined;
      const order = orderId ? await readOrder(orderId) : undefined;
      return { deposit, ...(sweep ? { sweep } : {}), ...(gasTopUp ? { gasTopUp } : {}), ...(orderTransaction ? { orderTransaction } : {}), ...(order ? { order } : {}) };
    },

    /** Re-reads an on-ramp's order and, once the order names it, its crypto deposit to the master wallet. */
    async pollOnRamp(input: { orderId: string; transactionId?: string }): Promise<{ order: OrderSnapshot; deposit?: TransactionSnapshot }> {
      const order = await readOrder(input.orderId);
      const transactionId = input.transactionId ?? order.transactionId ?? undefined;
      const deposit = transactionId ? await readTransaction(transactionId) : undefined;
      return { order, ...(deposit ? { deposit } : {}) };
    },
  };
}
