/**
 * Get Transaction by ID, Get Order by ID and a wallet's transactions (ASSUMED routes), in the profile's words and
 * field names.
 */
import type { SandboxContext } from '../context';
import { notFound } from '../errors';
import { param, sendData } from '../http/respond';
import { orderView, transactionView } from '../operator-words';
import type { OperatorHandlers } from './types';

export function detailHandlers(
  ctx: SandboxContext,
): OperatorHandlers<'getTransaction' | 'getOrder' | 'listWalletTransactions'> {
  return {
    getTransaction(req, res) {
      const id = param(req, 'id');
      const record = ctx.state.transactions.get(id);
      if (!record) throw notFound('transaction', id);
      sendData(res, 200, transactionView(ctx.config.profile, record));
    },
    getOrder(req, res) {
      const id = param(req, 'id');
      const record = ctx.state.orders.get(id);
      if (!record) throw notFound('order', id);
      sendData(res, 200, orderView(ctx.config.profile, record));
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
        records.map((record) => transactionView(ctx.config.profile, record)),
      );
    },
  };
}
