/** Activities of the on-ramp: discovering its order's progress and its crypto deposit by polling. */
import type { OnRampPollRequest, OnRampPollResult } from '../../../workflows/ramps/onramp/types';
import type { ActivityDeps } from '../../deps';
import { readOrder, readTransaction } from '../../shared/snapshots';

export function createOnRampActivities({ operator }: ActivityDeps) {
  return {
    /** Re-reads an on-ramp's order and, once the order names it, its crypto deposit to the master wallet. */
    async pollOnRamp(input: OnRampPollRequest): Promise<OnRampPollResult> {
      const order = await readOrder(operator, input.orderId);
      const transactionId = input.transactionId ?? order.transactionId ?? undefined;
      const deposit = transactionId ? await readTransaction(operator, transactionId) : undefined;
      return { order, ...(deposit ? { deposit } : {}) };
    },
  };
}
