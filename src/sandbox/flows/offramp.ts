/**
 * The off-ramp (Autoswap) sequence (spec §6), started by a simulated crypto deposit to a deposit-wallet
 * address. Delays are scaled by the time scale; `step` and `confirm` below are the configured delays.
 *
 *   t0                 Deposit transaction: transaction-created
 *   +step              first deposit to a wallet on a network: gas top-up (Internal Transfer) from the gas
 *                      wallet, transaction-created; the deposit is mined: transaction-updated mined
 *   +confirm           deposit confirmed (deposit wallet credited): transaction-updated confirmed;
 *                      top-up confirmed (sponsor approval done): transaction-updated confirmed
 *   +step              sponsored sweep (AutoSweep) to the master wallet, paid by the gas wallet:
 *                      transaction-created
 *   +confirm           sweep confirmed (balance moves to the master wallet): transaction-updated confirmed;
 *                      the AutoSwap order and its order transaction are created (no event)
 *   +step              order executed, funds settled: transaction-updated `completed` (order transaction)
 *
 * Gas: the gas wallet pays the top-up amount and each sweep's cost in the chain's native asset (ETH, TRX).
 * When it cannot, the Autoswap stops: the deposit stays in the deposit wallet, unsettled (visible in
 * GetWalletAddresses), and the run is "stranded". ASSUMED: crediting the gas wallet again
 * (POST /sandbox/v1/wallets/{gasWalletId}/balances) resumes every stranded run, oldest first.
 * ASSUMED: no order events are sent in the off-ramp sequence (the spec does not say); the order is read
 * with Get Order by the `orderId` of the AutoSwap transaction. The master wallet keeps the swept tokens
 * (the fiat settlement happens off chain).
 * ASSUMED links for clients that poll (no webhook needed): once the sweep starts, the deposit's
 * relatedTransactionId names the sweep; once the AutoSwap order exists, the sweep's orderId names it.
 * ASSUMED conversion rules: a deposit of an asset the operator does not convert (not a token of the vocabulary),
 * or of fewer tokens than its minimum (config `conversionMinimums.token`), confirms and stays in the deposit
 * wallet: no top-up, no sweep, no order (run status `not_converted`). The top-up and the sweep report the gas the
 * gas wallet paid as their `fee`. The order executes at the token's price at that moment (POST /sandbox/v1/prices).
 */
import { z } from 'zod';
import { CHAINS, type TOKENS, TRANSACTION_KINDS, type ChainCode } from '../../domain/vocabulary';
import { positiveDecimalString } from '../../operator/schemas';
import { ethereumAddress, tronAddress } from '../addresses';
import type { SandboxContext } from '../context';
import { compareDecimals, formatAmount, parseAmount } from '../../domain/decimal';
import { badRequest, notFound } from '../errors';
import { isToken, tokenToFiat } from '../pricing';
import type { TransactionRecord, WalletRecord } from '../state';
import { chainOf, createOrder, createTransaction, updateOrder, updateTransaction } from './records';

export const offRampDepositRequest = z.strictObject({
  /** A deposit-wallet address (one returned by GetWalletAddresses). */
  address: z.string().min(1),
  /** Any asset code: one the operator does not convert stays in the deposit wallet. */
  coin: z.string().regex(/^[A-Z][A-Z0-9]{1,9}$/, 'must be an upper-case asset code such as USDT'),
  amount: positiveDecimalString,
});
export type OffRampDepositRequest = z.output<typeof offRampDepositRequest>;

export type StrandedReason = 'gas_top_up' | 'gas_sweep';
/** Why the operator does not convert a deposit. */
export type NotConvertedReason = 'unsupported_asset' | 'below_minimum';

export interface OffRampRun {
  depositId: string;
  walletId: string;
  network: string;
  chain: ChainCode;
  asset: string;
  amount: string;
  depositConfirmed: boolean;
  /** Set once the sweep is scheduled or started (the run never sweeps twice). */
  sweepScheduled: boolean;
  topUpId: string | null;
  sweepId: string | null;
  orderId: string | null;
  orderTransactionId: string | null;
  stranded: StrandedReason | null;
  notConverted: NotConvertedReason | null;
  status: 'in_progress' | 'stranded' | 'completed' | 'not_converted';
  startedAt: string;
}

export class OffRampFlows {
  readonly runs = new Map<string, OffRampRun>();
  /** wallet/network pairs whose gas top-up is on its way (one top-up per wallet and network, ever). */
  private readonly topUpsPending = new Set<string>();

  constructor(private readonly ctx: SandboxContext) {}

  reset(): void {
    this.runs.clear();
    this.topUpsPending.clear();
  }

  start(request: OffRampDepositRequest): OffRampRun {
    const { state } = this.ctx;
    const account = state.requireAccount();
    const owner = state.addresses.get(request.address);
    if (!owner) throw notFound('deposit address', request.address);
    if (owner.walletId === account.masterWalletId || owner.walletId === account.gasWalletId) {
      throw badRequest(
        'not_a_deposit_wallet',
        'The address belongs to the master or the gas wallet, not to a deposit wallet',
      );
    }
    const chain = chainOf(owner.network);
    if (chain === null) throw badRequest('unsupported_network', `Network ${owner.network} has no Autoswap`);
    if (!state.wallet(account.gasWalletId).addresses.has(owner.network)) {
      throw badRequest('gas_wallet_network_missing', `The gas wallet has no address on ${owner.network}`);
    }
    parseAmount(request.amount);
    const deposit = createTransaction(this.ctx, {
      status: 'created',
      ...TRANSACTION_KINDS.deposit,
      walletId: owner.walletId,
      network: owner.network,
      asset: request.coin,
      amount: formatAmount(parseAmount(request.amount)),
      fromAddress: chain === 'TRX' ? tronAddress(this.ctx.random) : ethereumAddress(this.ctx.random),
      toAddress: request.address,
      relatedTransactionId: null,
      orderId: null,
    });
    const run: OffRampRun = {
      depositId: deposit.id,
      walletId: owner.walletId,
      network: owner.network,
      chain,
      asset: request.coin,
      amount: deposit.amount,
      depositConfirmed: false,
      sweepScheduled: false,
      topUpId: null,
      sweepId: null,
      orderId: null,
      orderTransactionId: null,
      stranded: null,
      notConverted: this.notConverted(request),
      status: 'in_progress',
      startedAt: deposit.createdAt,
    };
    this.runs.set(run.depositId, run);
    const { stepDelayMs: step, confirmationDelayMs: confirm } = this.ctx.config;
    this.ctx.scheduler.after(step, () => {
      if (run.notConverted === null) this.ensureApproval(run);
      updateTransaction(this.ctx, deposit, 'mined');
      this.ctx.scheduler.after(confirm, () => {
        state.credit(run.walletId, run.network, run.asset, parseAmount(run.amount));
        updateTransaction(this.ctx, deposit, 'confirmed');
        run.depositConfirmed = true;
        if (run.notConverted !== null) {
          run.status = 'not_converted';
          return;
        }
        this.advance(run);
      });
    });
    return run;
  }

  /** Why the operator would not convert this deposit, or null when it converts it. */
  private notConverted(request: OffRampDepositRequest): NotConvertedReason | null {
    if (!isToken(request.coin)) return 'unsupported_asset';
    if (compareDecimals(request.amount, this.ctx.config.conversionMinimums.token) < 0) return 'below_minimum';
    return null;
  }

  /** Called whenever the gas wallet is credited: retries every stranded run, oldest first. */
  resumeStranded(): void {
    for (const run of this.runs.values()) {
      if (run.stranded === null) continue;
      const reason = run.stranded;
      run.stranded = null;
      run.status = 'in_progress';
      this.ctx.logger.info({ depositId: run.depositId, reason }, 'resuming stranded Autoswap');
      if (reason === 'gas_top_up') this.ensureApproval(run);
      this.advance(run);
    }
  }

  private wallet(run: OffRampRun): WalletRecord {
    return this.ctx.state.wallet(run.walletId);
  }

  private key(run: OffRampRun): string {
    return `${run.walletId}/${run.network}`;
  }

  /** Makes sure the deposit wallet has (or is getting) its one-time sponsor approval on the run's network. */
  private ensureApproval(run: OffRampRun): void {
    if (this.wallet(run).approvedNetworks.has(run.network) || this.topUpsPending.has(this.key(run))) return;
    const { state } = this.ctx;
    const account = state.requireAccount();
    const nativeAsset = CHAINS[run.chain].nativeAsset;
    const cost = parseAmount(this.ctx.config.gas[run.chain].topUp);
    if (!state.tryDebit(account.gasWalletId, run.network, nativeAsset, cost)) {
      this.strand(run, 'gas_top_up');
      return;
    }
    this.topUpsPending.add(this.key(run));
    const gasWallet = state.wallet(account.gasWalletId);
    const topUp = createTransaction(this.ctx, {
      status: 'published',
      ...TRANSACTION_KINDS.gasTopUp,
      walletId: account.gasWalletId,
      network: run.network,
      asset: nativeAsset,
      amount: formatAmount(cost),
      fromAddress: gasWallet.addresses.get(run.network) ?? null,
      toAddress: this.wallet(run).addresses.get(run.network) ?? null,
      relatedTransactionId: run.depositId,
      orderId: null,
      fee: { asset: nativeAsset, amount: formatAmount(cost) },
    });
    run.topUpId = topUp.id;
    this.ctx.scheduler.after(this.ctx.config.confirmationDelayMs, () => {
      state.credit(run.walletId, run.network, nativeAsset, cost);
      this.wallet(run).approvedNetworks.add(run.network);
      this.topUpsPending.delete(this.key(run));
      updateTransaction(this.ctx, topUp, 'confirmed');
      for (const other of this.runs.values()) {
        if (other.walletId === run.walletId && other.network === run.network) this.advance(other);
      }
    });
  }

  /** Schedules the sweep once the deposit is confirmed and the wallet approved. */
  private advance(run: OffRampRun): void {
    if (!run.depositConfirmed || run.sweepScheduled || run.stranded !== null) return;
    if (!this.wallet(run).approvedNetworks.has(run.network)) {
      if (!this.topUpsPending.has(this.key(run))) this.ensureApproval(run);
      return;
    }
    run.sweepScheduled = true;
    this.ctx.scheduler.after(this.ctx.config.stepDelayMs, () => this.sweep(run));
  }

  private sweep(run: OffRampRun): void {
    const { state } = this.ctx;
    const account = state.requireAccount();
    const nativeAsset = CHAINS[run.chain].nativeAsset;
    const cost = parseAmount(this.ctx.config.gas[run.chain].sweep);
    if (!state.tryDebit(account.gasWalletId, run.network, nativeAsset, cost)) {
      run.sweepScheduled = false;
      this.strand(run, 'gas_sweep');
      return;
    }
    const master = state.wallet(account.masterWalletId);
    const sweep = createTransaction(this.ctx, {
      status: 'published',
      ...TRANSACTION_KINDS.sweep,
      walletId: run.walletId,
      network: run.network,
      asset: run.asset,
      amount: run.amount,
      fromAddress: this.wallet(run).addresses.get(run.network) ?? null,
      toAddress: master.addresses.get(run.network) ?? null,
      relatedTransactionId: run.depositId,
      orderId: null,
      fee: { asset: nativeAsset, amount: formatAmount(cost) },
    });
    run.sweepId = sweep.id;
    // ASSUMED link: the deposit names its sweep once it starts, so a client that lost the webhooks can
    // discover the sweep by polling Get Transaction of the deposit (no event is sent for this change).
    const deposit = state.transactions.get(run.depositId);
    if (deposit) {
      deposit.relatedTransactionId = sweep.id;
      deposit.updatedAt = this.ctx.clock.iso();
    }
    this.ctx.scheduler.after(this.ctx.config.confirmationDelayMs, () => this.confirmSweep(run, sweep));
  }

  private confirmSweep(run: OffRampRun, sweep: TransactionRecord): void {
    const { state } = this.ctx;
    const account = state.requireAccount();
    const units = parseAmount(run.amount);
    // The deposit wallet may have received more since; the sweep moves exactly this deposit's amount.
    state.tryDebit(run.walletId, run.network, run.asset, units);
    state.credit(account.masterWalletId, run.network, run.asset, units);
    updateTransaction(this.ctx, sweep, 'confirmed');

    const token = run.asset as (typeof TOKENS)[number];
    const order = createOrder(
      this.ctx,
      {
        orderReference: `autoswap-${run.depositId}`,
        status: 'awaiting_funds',
        direction: 'off-ramp',
        coinFrom: run.asset,
        coinTo: 'MXN',
        chainFrom: run.chain,
        amountFrom: run.amount,
        amountTo: tokenToFiat(run.amount, token, this.ctx.state.priceOf(token)),
        transactionId: run.depositId,
        quoteId: null,
      },
      true,
    );
    const master = state.wallet(account.masterWalletId);
    const orderTransaction = createTransaction(
      this.ctx,
      {
        status: 'created',
        ...TRANSACTION_KINDS.orderSettlement,
        walletId: account.masterWalletId,
        network: run.network,
        asset: run.asset,
        amount: run.amount,
        fromAddress: master.addresses.get(run.network) ?? null,
        toAddress: null,
        relatedTransactionId: run.depositId,
        orderId: order.id,
      },
      true,
    );
    run.orderId = order.id;
    // ASSUMED link: the sweep names the AutoSwap order it funded (Get Order gives status and fiat amount).
    sweep.orderId = order.id;
    sweep.updatedAt = this.ctx.clock.iso();
    run.orderTransactionId = orderTransaction.id;
    this.ctx.scheduler.after(this.ctx.config.stepDelayMs, () => {
      updateOrder(this.ctx, order, 'executed', true);
      updateTransaction(this.ctx, orderTransaction, 'completed');
      run.status = 'completed';
    });
  }

  private strand(run: OffRampRun, reason: StrandedReason): void {
    run.stranded = reason;
    run.status = 'stranded';
    this.ctx.logger.warn(
      { depositId: run.depositId, walletId: run.walletId, network: run.network, reason },
      'gas wallet cannot pay: Autoswap stranded, deposit stays in the deposit wallet',
    );
  }
}
