/** Get Transaction by ID and Get Order by ID (ASSUMED paths), with the fields of the shared schemas. */
import type { SandboxContext } from '../context';
import { notFound } from '../errors';
import { param, sendData } from '../http/respond';
import type { OperatorHandlers } from './types';

export function detailHandlers(ctx: SandboxContext): OperatorHandlers<'getTransaction' | 'getOrder'> {
  return {
    getTransaction(req, res) {
      const id = param(req, 'id');
      const record = ctx.state.transactions.get(id);
      if (!record) throw notFound('transaction', id);
      sendData(res, 200, { ...record });
    },
    getOrder(req, res) {
      const id = param(req, 'id');
      const record = ctx.state.orders.get(id);
      if (!record) throw notFound('order', id);
      sendData(res, 200, { ...record });
    },
  };
}
