/** Get Transaction by ID and Get Order by ID (ASSUMED paths), with the fields of the shared schemas. */
import type { SandboxContext } from '../context';
import { notFound } from '../errors';
import { param, sendData } from '../http/respond';
import type { OperatorHandlers } from './types';

export function detailHandlers(
  ctx: SandboxContext,
): OperatorHandlers<'getTransaction' | 'getOrder' | 'listWalletTransactions'> {
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
    /** ASSUMED route: a wallet's transactions, newest first. */
    listWalletTransactions(req, res) {
      const wallet = ctx.state.wallet(param(req, 'id'));
      const records = [...ctx.state.transactions.values()]
        .filter((record) => record.walletId === wallet.id)
        .reverse();
      sendData(
        res,
        200,
        records.map((record) => ({ ...record })),
      );
    },
  };
}
