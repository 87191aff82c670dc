/**
 * The one vocabulary of the operator's world that the operator client, the sandbox, configuration and the
 * workflows share: networks, chains, currencies, transaction kinds, statuses, ramp directions, resource kinds,
 * event types and the account's wallet roles. Workflow-safe (the workflow bundle includes it): no Node built-ins,
 * no zod, no I/O.
 *
 * Values marked ASSUMED are not in the operator's spec (docs/operator.md lists them). Order matters
 * where an array drives a loop that schedules activities (ACCOUNT_WALLET_ROLES, RESOURCE_KINDS): recorded workflow
 * histories hold the commands in that order.
 */

/** Observed network names; the complete list is not shown in the spec. */
export const NETWORKS = {
  ethereum: 'networks/ethereum-mainnet',
  tron: 'networks/tron-mainnet',
} as const;

/** ASSUMED mapping of the quote's chain codes to network names and native (gas) assets. */
export const CHAINS = {
  ETH: { network: NETWORKS.ethereum, nativeAsset: 'ETH', displayName: 'Ethereum Mainnet' },
  TRX: { network: NETWORKS.tron, nativeAsset: 'TRX', displayName: 'Tron Mainnet' },
} as const;
export type ChainCode = keyof typeof CHAINS;

/** The network of a chain code (ETH, TRX), or undefined for a code we do not know. */
export function networkOfChain(code: string): string | undefined {
  return Object.hasOwn(CHAINS, code) ? CHAINS[code as ChainCode].network : undefined;
}

/** The chain code of a network name (networks/tron-mainnet -> TRX), or undefined for a network we do not know. */
export function chainOfNetwork(network: string): ChainCode | undefined {
  return (Object.keys(CHAINS) as ChainCode[]).find((code) => CHAINS[code].network === network);
}

/** The native (gas) asset of a network name, or undefined for a network we do not know. */
export function nativeAssetOfNetwork(network: string): string | undefined {
  return Object.values(CHAINS).find((chain) => chain.network === network)?.nativeAsset;
}

/** ASSUMED currency corridors: the fiat and tokens the quote endpoint accepts (MXN and USDT are observed). */
export const FIAT_CURRENCIES = ['MXN'] as const;
export const TOKENS = ['USDT', 'USDC'] as const;

/**
 * ASSUMED transaction types and subtypes the sandbox emits and the product routes on:
 * - `Deposit`/`external` incoming crypto (end-user deposit wallet, or the master wallet on on-ramp);
 * - `Internal Transfer`/`gas-top-up` from the gas wallet to a deposit wallet on its first deposit;
 * - `AutoSweep`/`sponsored-sweep` from the deposit wallet to the master wallet, gas paid by the gas wallet;
 * - `AutoSwap`/`order-settlement` the order transaction that ends `completed` when fiat is settled.
 */
export const TRANSACTION_KINDS = {
  deposit: { type: 'Deposit', subtype: 'external' },
  gasTopUp: { type: 'Internal Transfer', subtype: 'gas-top-up' },
  sweep: { type: 'AutoSweep', subtype: 'sponsored-sweep' },
  orderSettlement: { type: 'AutoSwap', subtype: 'order-settlement' },
} as const;

export const ORDER_STATUSES = ['awaiting_funds', 'executed', 'expired', 'failed'] as const;

/** The spec's transaction statuses plus `completed`, which the off-ramp's final order transaction carries. */
export const TRANSACTION_STATUSES = [
  'created',
  'published',
  'mined',
  'confirmed',
  'completed',
  'failed',
  'declined',
  'canceled',
  'dropped',
  'expired',
] as const;

/** The two directions of a conversion: an order's `direction`, a quote's, a ramp process's. */
export const RAMP_DIRECTIONS = ['on-ramp', 'off-ramp'] as const;
export type RampDirection = (typeof RAMP_DIRECTIONS)[number];

/** The operator resources that have webhooks (and recipients of their own); the account setup keeps this order. */
export const RESOURCE_KINDS = ['transaction', 'order'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** The path segment of our recipient URLs that names the kind of resource a delivery is about. */
export const RESOURCE_KIND_OF_PATH: Readonly<Record<string, ResourceKind>> = {
  transactions: 'transaction',
  orders: 'order',
};

export const KNOWN_EVENT_TYPES = [
  'transaction-created',
  'transaction-updated',
  'order-created',
  'order-updated',
] as const;
export const TRANSACTION_EVENT_TYPES: readonly string[] = ['transaction-created', 'transaction-updated'];
export const ORDER_EVENT_TYPES: readonly string[] = ['order-created', 'order-updated'];

/** The account's two wallets, in the order the account setup creates them (its histories hold that order). */
export const ACCOUNT_WALLET_ROLES = ['master', 'gas'] as const;
export type AccountWalletRole = (typeof ACCOUNT_WALLET_ROLES)[number];

export interface AddressOnNetwork {
  network: string;
  address: string;
}
