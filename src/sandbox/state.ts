/**
 * The sandbox operator's whole in-memory state: login sessions, tokens, wallets and their balances,
 * recipients, quotes, orders, transactions, the account setup, and the log of API calls.
 * Amounts are BigInt units of 10^-18 inside, decimal strings outside.
 */
import type { OrderDirection, OrderStatus, RecipientKind, TransactionStatus } from '../operator/schemas';
import type { RouteName } from '../domain/operator-profile';
import { formatAmount } from '../domain/decimal';
import type { TOKENS } from '../domain/vocabulary';
import { RATES_MXN_PER_TOKEN } from './pricing';
import { conflict, notFound } from './errors';

export interface LoginSessionRecord {
  id: string;
  expiresAt: number;
  used: boolean;
}

/** Tokens are kept only as SHA-256 digests: the state can be dumped without leaking a credential. */
export interface TokenRecord {
  csrfDigest: string;
  issuedAt: number;
  expiresAt: number;
}

export interface WalletRecord {
  id: string;
  externalUserId: string;
  networks: string[];
  addresses: Map<string, string>;
  /** network -> asset -> units */
  balances: Map<string, Map<string, bigint>>;
  /** Networks on which the one-time sponsor approval (after the gas top-up) is done. */
  approvedNetworks: Set<string>;
  createdAt: string;
}

export interface RecipientRecord {
  id: string;
  kind: RecipientKind;
  url: string;
  createdAt: string;
  updatedAt: string;
}

/** What a quote and an order convert: an amount of one coin (on a chain) into another. */
interface ConversionRecord {
  direction: OrderDirection;
  coinFrom: string;
  coinTo: string;
  chainFrom?: string;
  chainTo?: string;
  amountFrom: string;
}

export interface QuoteRecord extends ConversionRecord {
  id: string;
  targetAmount: string;
  createdAt: string;
  expiresAtMs: number;
  usedAt?: string;
}

export interface OrderRecord extends ConversionRecord {
  id: string;
  orderReference: string;
  status: OrderStatus;
  amountTo: string;
  transactionId: string | null;
  quoteId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TransactionRecord {
  id: string;
  status: TransactionStatus;
  type: string;
  subtype: string | null;
  walletId: string;
  network: string;
  asset: string;
  amount: string;
  fromAddress: string | null;
  toAddress: string | null;
  relatedTransactionId: string | null;
  orderId: string | null;
  /** ASSUMED: the gas the gas wallet paid for it (a top-up: what it sent); absent from records of earlier runs. */
  fee?: { asset: string; amount: string } | null;
  hash: string;
  createdAt: string;
  updatedAt: string;
}

export interface AccountSetup {
  masterWalletId: string;
  gasWalletId: string;
  configuredAt: string;
}

/** One API call received on an operator route (never tokens, bodies or headers). */
export interface CallRecord {
  time: string;
  method: string;
  route: RouteName | null;
  path: string;
  status: number;
  durationMs: number;
  errorCode?: string;
  externalUserId?: string;
  injectedFault?: boolean;
}

export class SandboxState {
  loginSessions = new Map<string, LoginSessionRecord>();
  tokens = new Map<string, TokenRecord>();
  wallets = new Map<string, WalletRecord>();
  /** address -> owner */
  addresses = new Map<string, { walletId: string; network: string }>();
  recipients: Record<RecipientKind, Map<string, RecipientRecord>> = {
    transaction: new Map(),
    order: new Map(),
  };
  quotes = new Map<string, QuoteRecord>();
  orders = new Map<string, OrderRecord>();
  orderReferences = new Set<string>();
  transactions = new Map<string, TransactionRecord>();
  account: AccountSetup | null = null;
  calls: CallRecord[] = [];
  /** MXN per token now, where moved from RATES_MXN_PER_TOKEN (POST /sandbox/v1/prices); quotes keep their own. */
  prices = new Map<string, string>();

  /** Forgets everything (the object stays the same, so every holder of it sees the empty state). */
  clear(): void {
    Object.assign(this, new SandboxState());
  }

  wallet(id: string): WalletRecord {
    const wallet = this.wallets.get(id);
    if (!wallet) throw notFound('wallet', id);
    return wallet;
  }

  /** MXN per one token at this moment. */
  priceOf(token: (typeof TOKENS)[number]): string {
    return this.prices.get(token) ?? RATES_MXN_PER_TOKEN[token];
  }

  requireAccount(): AccountSetup {
    if (!this.account) {
      throw conflict(
        'account_not_configured',
        'The account setup is not done: PUT /sandbox/v1/account with { masterWalletId, gasWalletId } first (the out-of-band step with the account contact).',
      );
    }
    return this.account;
  }

  balance(walletId: string, network: string, asset: string): bigint {
    return this.wallet(walletId).balances.get(network)?.get(asset) ?? 0n;
  }

  /** Adds `units` (negative: takes them away; the caller keeps the balance at zero or more). */
  credit(walletId: string, network: string, asset: string, units: bigint): void {
    const wallet = this.wallet(walletId);
    let assets = wallet.balances.get(network);
    if (!assets) {
      assets = new Map();
      wallet.balances.set(network, assets);
    }
    assets.set(asset, (assets.get(asset) ?? 0n) + units);
  }

  /** Debits when the balance suffices; answers false (and changes nothing) otherwise. */
  tryDebit(walletId: string, network: string, asset: string, units: bigint): boolean {
    const current = this.balance(walletId, network, asset);
    if (current < units) return false;
    this.wallet(walletId)
      .balances.get(network)
      ?.set(asset, current - units);
    return true;
  }

  balancesOf(wallet: WalletRecord, network: string): Array<{ asset: string; amount: string }> {
    return [...(wallet.balances.get(network) ?? new Map<string, bigint>()).entries()].map(
      ([asset, units]) => ({
        asset,
        amount: formatAmount(units),
      }),
    );
  }

  /** Every balance of a wallet, one entry per network and asset (the entry carries its network). */
  allBalancesOf(wallet: WalletRecord): Array<{ asset: string; amount: string; network: string }> {
    return wallet.networks.flatMap((network) =>
      this.balancesOf(wallet, network).map((entry) => ({ ...entry, network })),
    );
  }
}
