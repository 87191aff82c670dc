/**
 * Activities of the off-ramp: finding the end user of a deposit wallet and telling that end user about its off-ramp,
 * and discovering the off-ramp's later transactions by polling when webhooks stop. The gas wallet's check is in
 * operations/gas-monitor/activities.ts.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import { endUserIdFromWorkflowId, endUserWorkflowId, WORKFLOW_TYPES } from '../../../src/domain/ids';
import { endUserSearchValue } from '../../../src/temporal/end-user-pseudonym';
import { EndUserId } from '../../../src/domain/search-attributes';
import { visibilityLiteral } from '../../../src/temporal/visibility';
import { linkOffRampUpdate } from '../../../workflows/end-user/messages';
import type { OffRampQuoteShown } from '../../../workflows/ramps/offramp/types';
import type { OffRampPollRequest, OffRampPollResult } from '../../../workflows/ramps/offramp/types';
import type { OrderSnapshot } from '../../../workflows/ramps/shared/snapshots';
import type { ActivityDeps } from '../../deps';
import { ownerOfWallet } from '../../../src/ledger/end-users';
import { readOrder, readTransaction } from '../../shared/snapshots';

/** attributeOffRamp's answer. */
export interface OffRampOwner {
  endUserId: string;
  /** The RampEndUserId value: the end user ID, or its pseudonym when encryption keys are configured. */
  endUserSearchValue: string;
  /** False when the end user's workflow was not running to be told (the off-ramp is attributed all the same). */
  linked: boolean;
  /** The quote the end user was shown for this deposit (showDepositQuote), when there was one. */
  quote?: OffRampQuoteShown;
}

export function createOffRampActivities({ operator, temporal, config, ledger }: ActivityDeps) {
  /**
   * The end user who owns a deposit wallet: from the ledger (the end user's workflow records its wallet there), else
   * (a wallet of a run from before the ledger) by the RampWalletId search attribute; and the value the off-ramp puts
   * in RampEndUserId (the end user ID, or its pseudonym with encryption keys configured:
   * src/temporal/end-user-pseudonym.ts). Visibility is eventually consistent: "not found" is thrown as retryable
   * (the workflow bounds the attempts); in practice the wallet exists long before anyone deposits to it.
   */
  async function findEndUser(walletId: string): Promise<Omit<OffRampOwner, 'linked'>> {
    const recorded = await ownerOfWallet(ledger, walletId);
    if (recorded)
      return {
        endUserId: recorded.endUserId,
        endUserSearchValue: endUserSearchValue(recorded.endUserId, config.encryption),
      };
    const literal = visibilityLiteral(walletId, 'wallet id');
    const query = `WorkflowType = '${WORKFLOW_TYPES.endUser}' AND RampWalletId = '${literal}'`;
    for await (const execution of temporal.workflow.list({ query, pageSize: 10 })) {
      // The workflow ID names the user (RampEndUserId may be a pseudonym).
      const endUserId =
        endUserIdFromWorkflowId(execution.workflowId) ?? execution.typedSearchAttributes.get(EndUserId);
      if (endUserId)
        return { endUserId, endUserSearchValue: endUserSearchValue(endUserId, config.encryption) };
    }
    throw ApplicationFailure.create({
      type: 'WalletOwnerNotFound',
      message: `no end-user workflow owns wallet ${walletId} (yet)`,
    });
  }

  /**
   * Links the deposit to end-user/<id> (update linkOffRamp), which answers the quote the user was shown for it;
   * `linked` false when that workflow is not running. Any other failure is thrown retryable, without the end user's
   * name (failure messages are stored in clear).
   */
  async function linkToEndUser(
    endUserId: string,
    depositTransactionId: string,
  ): Promise<{ linked: boolean; quote: OffRampQuoteShown | null }> {
    try {
      const quote = await temporal.workflow
        .getHandle(endUserWorkflowId(endUserId))
        .executeUpdate(linkOffRampUpdate, { args: [{ depositTransactionId }] });
      return { linked: true, quote };
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return { linked: false, quote: null };
      throw ApplicationFailure.retryable(
        `could not link the end user workflow of this deposit (${error instanceof Error ? error.name : 'error'})`,
        'EndUserLinkFailed',
      );
    }
  }

  return {
    /**
     * The off-ramp's owner, found and told about the off-ramp. A retried attempt finds the owner again (a visibility
     * query) and links again (the end user records a deposit once, and answers the same quote).
     */
    async attributeOffRamp(input: { walletId: string; depositTransactionId: string }): Promise<OffRampOwner> {
      const owner = await findEndUser(input.walletId);
      const { linked, quote } = await linkToEndUser(owner.endUserId, input.depositTransactionId);
      return { ...owner, linked, ...(quote ? { quote } : {}) };
    },

    /** Get Order by ID, for an off-ramp whose forward came without its order. */
    readOrderSnapshot(input: { id: string }): Promise<OrderSnapshot> {
      return readOrder(operator, input.id);
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
