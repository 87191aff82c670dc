/**
 * Activities of the off-ramp: finding the end user of a deposit wallet, telling that end user about its off-ramp,
 * and discovering the off-ramp's later transactions by polling when webhooks stop. The gas wallet's check is in
 * operations/gas-monitor/activities.ts.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import { endUserIdFromWorkflowId, endUserWorkflowId, WORKFLOW_TYPES } from '../../../src/domain/ids';
import { endUserSearchValue } from '../../../src/temporal/end-user-pseudonym';
import { EndUserId } from '../../../src/temporal/search-attributes';
import { visibilityLiteral } from '../../../src/temporal/visibility';
import { offRampLinkedSignal } from '../../../workflows/end-user/messages';
import type { OffRampPollRequest, OffRampPollResult } from '../../../workflows/ramps/offramp/state';
import type { ActivityDeps } from '../../deps';
import { readOrder, readTransaction } from '../../shared/snapshots';

/** findEndUserByWallet's answer. */
export interface EndUserOfWallet {
  endUserId: string;
  /** The RampEndUserId value: the end user ID, or its pseudonym when encryption keys are configured. */
  endUserSearchValue: string;
}

export function createOffRampActivities({ operator, temporal, config }: ActivityDeps) {
  return {
    /**
     * The end user whose end-user/<id> workflow owns a deposit wallet, by the RampWalletId search attribute, and the
     * value the off-ramp puts in RampEndUserId (the end user ID, or its pseudonym with encryption keys configured:
     * src/temporal/end-user-pseudonym.ts). Recorded histories hold the older answer, the end user ID alone (string).
     * Visibility is eventually consistent: "not found" is thrown as retryable (the workflow bounds the attempts);
     * in practice the wallet exists long before anyone deposits to it.
     */
    async findEndUserByWallet(input: { walletId: string }): Promise<EndUserOfWallet> {
      const walletId = visibilityLiteral(input.walletId, 'wallet id');
      const query = `WorkflowType = '${WORKFLOW_TYPES.endUser}' AND RampWalletId = '${walletId}'`;
      for await (const execution of temporal.workflow.list({ query, pageSize: 10 })) {
        // The workflow ID names the user (RampEndUserId may be a pseudonym).
        const endUserId =
          endUserIdFromWorkflowId(execution.workflowId) ?? execution.typedSearchAttributes.get(EndUserId);
        if (endUserId)
          return { endUserId, endUserSearchValue: endUserSearchValue(endUserId, config.encryption) };
      }
      throw ApplicationFailure.create({
        type: 'WalletOwnerNotFound',
        message: `no end-user workflow owns wallet ${input.walletId} (yet)`,
      });
    },

    /**
     * Tells end-user/<id> about one of its off-ramps (offRampLinked). An activity rather than a workflow signal so
     * the off-ramp's history holds no end-user/<id> workflow ID in clear (the input is an encrypted payload).
     * Failures never name the end user (their messages are stored in clear).
     */
    async linkOffRampToEndUser(input: { endUserId: string; depositTransactionId: string }): Promise<void> {
      try {
        await temporal.workflow
          .getHandle(endUserWorkflowId(input.endUserId))
          .signal(offRampLinkedSignal, { depositTransactionId: input.depositTransactionId });
      } catch (error) {
        const notFound = error instanceof WorkflowNotFoundError;
        throw ApplicationFailure.create({
          type: notFound ? 'EndUserWorkflowNotFound' : 'EndUserSignalFailed',
          message: notFound
            ? 'the end user workflow of this deposit is not running'
            : `could not signal the end user workflow of this deposit (${error instanceof Error ? error.name : 'error'})`,
          nonRetryable: notFound,
        });
      }
    },

    /**
     * Re-reads everything an off-ramp can reach from its deposit when webhooks stop: the deposit, the sweep it
     * links (relatedTransactionId, set once the sweep starts), the AutoSwap order the sweep links (orderId), and
     * the top-up / order transaction when their IDs are known from events.
     */
    async pollOffRamp(input: OffRampPollRequest): Promise<OffRampPollResult> {
      const deposit = await readTransaction(operator, input.depositTransactionId);
      const sweepId = input.sweepId ?? deposit.relatedTransactionId ?? undefined;
      const sweep = sweepId ? await readTransaction(operator, sweepId) : undefined;
      const gasTopUp = input.gasTopUpId ? await readTransaction(operator, input.gasTopUpId) : undefined;
      const orderTransaction = input.orderTransactionId
        ? await readTransaction(operator, input.orderTransactionId)
        : undefined;
      const orderId = input.orderId ?? orderTransaction?.orderId ?? sweep?.orderId ?? undefined;
      const order = orderId ? await readOrder(operator, orderId) : undefined;
      return {
        deposit,
        ...(sweep ? { sweep } : {}),
        ...(gasTopUp ? { gasTopUp } : {}),
        ...(orderTransaction ? { orderTransaction } : {}),
        ...(order ? { order } : {}),
      };
    },
  };
}
