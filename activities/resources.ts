import type { Order, Transaction } from '../src/operator/schemas';
import type { ActivityDeps } from './deps';
import { callOperator } from './operator-failure';

/** Get Transaction / Get Order by ID: the state a webhook hints at is always re-read from the operator. */
export function createResourceActivities({ operator }: ActivityDeps) {
  return {
    async getTransaction(input: { id: string }): Promise<Transaction> {
      return callOperator(() => operator.getTransaction(input.id));
    },

    async getOrder(input: { id: string }): Promise<Order> {
      return callOperator(() => operator.getOrder(input.id));
    },
  };
}
