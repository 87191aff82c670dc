/**
 * The on-ramp sequence (spec §6), started by a simulated CLABE deposit of MXN:
 *   order-created (awaiting_funds) -> step -> order-updated executed
 *   -> step -> Deposit transaction to the master wallet: transaction-created
 *   -> confirmation delay -> transaction-updated confirmed (master wallet credited).
 * With outcome `expired` or `failed` the order ends so (order-updated with that status) and no
 * transaction follows; ASSUMED: an amount under the operator's minimum (config `conversionMinimums.fiat`) fails so
 * too. Without a quote the order executes at the token's price at that moment (POST /sandbox/v1/prices).
 * Delays are scaled by the time scale.
 */
import { z } from 'zod';
import { CHAINS, TOKENS, TRANSACTION_KINDS } from '../../domain/vocabulary';
import { positiveDecimalString } from '../../operator/schemas';
import { ethereumAddress, tronAddress } from '../addresses';
import type { SandboxContext } from '../context';
import { conflict } from '../errors';
import { fiatToToken } from '../pricing';
import type { OrderRecord } from '../state';
import { compareDecimals, parseAmount } from '../../domain/decimal';
import { createOrder, createTransaction, updateOrder, updateTransaction } from './records';
import { useQuote } from './quotes';

export const onRampDepositRequest = z.strictObject({
  /** The order reference the client gave the end user with its CLABE. Unique. */
  reference: z.string().min(1).max(200),
  /** MXN deposited. */
  amount: positiveDecimalString,
  coinTo: z.enum(TOKENS),
  chainTo: z.enum(Object.keys(CHAINS) as [keyof typeof CHAINS, ...Array<keyof typeof CHAINS>]),
  outcome: z.enum(['executed', 'expired', 'failed']).default('executed'),
  /** Optional quote to honour: refused when expired (409 quote_expired) or already used. */
  quoteId: z.string().min(1).optional(),
});
export type OnRampDepositRequest = z.output<typeof onRampDepositRequest>;

export interface OnRampStarted {
  order: OrderRecord;
  /** The id the settlement transaction will have (null when the order will not execute). */
  transactionId: string | null;
}

export function startOnRamp(ctx: SandboxContext, request: OnRampDepositRequest): OnRampStarted {
  const account = ctx.state.requireAccount();
  const chain = CHAINS[request.chainTo];
  const master = ctx.state.wallet(account.masterWalletId);
  const masterAddress = master.addresses.get(chain.network);
  if (masterAddress === undefined) {
    throw conflict(
      'master_wallet_network_missing',
      `The master wallet has no address on ${chain.network}; on-ramp to ${request.chainTo} is not enabled`,
    );
  }
  if (ctx.state.orderReferences.has(request.reference)) {
    throw conflict('duplicate_reference', `An order with reference ${request.reference} already exists`);
  }
  parseAmount(request.amount);
  const quote =
    request.quoteId === undefined
      ? null
      : useQuote(ctx, request.quoteId, {
          direction: 'on-ramp',
          amountFrom: request.amount,
          coinTo: request.coinTo,
          chain: request.chainTo,
        });
  const amountTo =
    quote?.targetAmount ?? fiatToToken(request.amount, request.coinTo, ctx.state.priceOf(request.coinTo));
  const outcome =
    compareDecimals(request.amount, ctx.config.conversionMinimums.fiat) < 0 ? 'failed' : request.outcome;
  const transactionId = outcome === 'executed' ? ctx.random.uuid() : null;

  const order = createOrder(ctx, {
    orderReference: request.reference,
    status: 'awaiting_funds',
    direction: 'on-ramp',
    coinFrom: 'MXN',
    coinTo: request.coinTo,
    chainTo: request.chainTo,
    amountFrom: request.amount,
    amountTo,
    transactionId: null,
    quoteId: quote?.id ?? null,
  });
  const step = ctx.config.stepDelayMs;

  ctx.scheduler.after(step, () => {
    if (outcome !== 'executed' || transactionId === null) {
      updateOrder(ctx, order, outcome);
      return;
    }
    order.transactionId = transactionId;
    updateOrder(ctx, order, 'executed');
    ctx.scheduler.after(step, () => {
      const deposit = createTransaction(ctx, {
        id: transactionId,
        status: 'published',
        ...TRANSACTION_KINDS.deposit,
        walletId: master.id,
        network: chain.network,
        asset: request.coinTo,
        amount: amountTo,
        fromAddress:
          chain.network === CHAINS.TRX.network ? tronAddress(ctx.random) : ethereumAddress(ctx.random),
        toAddress: masterAddress,
        relatedTransactionId: null,
        orderId: order.id,
      });
      ctx.scheduler.after(ctx.config.confirmationDelayMs, () => {
        ctx.state.credit(master.id, chain.network, request.coinTo, parseAmount(amountTo));
        updateTransaction(ctx, deposit, 'confirmed');
      });
    });
  });
  return { order, transactionId };
}
