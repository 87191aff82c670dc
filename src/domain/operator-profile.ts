/**
 * The operator profile: every choice the operator's spec leaves open, in one typed value with our defaults
 * (docs/operator.md lists each key, why we assumed it, and how `npm run operator:probe` checks it). A JSON file named
 * by OPERATOR_PROFILE overrides any part of it (src/config/operator-profile.ts validates it at start); the sandbox
 * serves one too (SANDBOX_PROFILE).
 *
 * The operator client speaks the profile's words on the wire and hands the rest of the product our own words
 * (./vocabulary.ts): a transaction's type, subtype and status, an order's status and direction and the fields that
 * link resources are translated where answers are parsed (src/operator/schemas.ts), so workflows never see the
 * profile. Workflow-safe all the same: no Node built-ins, no zod.
 */
import {
  ORDER_STATUSES,
  RAMP_DIRECTIONS,
  type RampDirection,
  TRANSACTION_KINDS,
  TRANSACTION_STATUSES,
} from './vocabulary';

/** Route templates, `METHOD /path`; `{id}` is replaced with the URL-encoded identifier. */
export const DEFAULT_ROUTES = {
  /** ASSUMED path; POST with body `{}`. */
  startSession: 'POST /auth/private/v1/sessions',
  /** ASSUMED path; the body's field names are `login.fields`. */
  authenticate: 'POST /auth/private/v1/sessions/authenticate',
  /** From the spec. */
  currentVaultNetworks: 'GET /api/wallets/private/v1/current-vault-networks',
  createWallet: 'POST /wallets/private/v1/wallets',
  getWalletAddresses: 'GET /wallets/private/v1/wallets/{id}/addresses',
  createQuote: 'POST /core-conversions/private/v1/quotes',
  /** Create is from the spec; list, get and delete paths are ASSUMED. */
  listTransactionRecipients: 'GET /webhooks/private/v1/recipients',
  getTransactionRecipient: 'GET /webhooks/private/v1/recipients/{id}',
  createTransactionRecipients: 'POST /webhooks/private/v1/recipients',
  deleteTransactionRecipient: 'DELETE /webhooks/private/v1/recipients/{id}',
  listOrderRecipients: 'GET /webhooks/private/v1/order-recipients',
  getOrderRecipient: 'GET /webhooks/private/v1/order-recipients/{id}',
  createOrderRecipients: 'POST /webhooks/private/v1/order-recipients',
  deleteOrderRecipient: 'DELETE /webhooks/private/v1/order-recipients/{id}',
  /** ASSUMED paths. */
  getTransaction: 'GET /wallets/private/v1/transactions/{id}',
  getOrder: 'GET /core-conversions/private/v1/orders/{id}',
  /**
   * ASSUMED (not in the spec): the transactions of one wallet, newest first, unpaged. Reconciliation uses it to
   * find deposits whose every webhook was lost; without it only balances can be checked (see docs/operations.md).
   */
  listWalletTransactions: 'GET /wallets/private/v1/wallets/{id}/transactions',
} as const;

export type RouteName = keyof typeof DEFAULT_ROUTES;
export type Routes = Record<RouteName, string>;
export const ROUTE_NAMES = Object.keys(DEFAULT_ROUTES) as RouteName[];

/** The routes whose template names the resource: a profile may move `{id}` but not drop it. */
export const ROUTES_WITH_ID: readonly RouteName[] = ROUTE_NAMES.filter((name) =>
  DEFAULT_ROUTES[name].includes('{id}'),
);

export type TransactionKindName = keyof typeof TRANSACTION_KINDS;
export type TransactionStatusWord = (typeof TRANSACTION_STATUSES)[number];
export type OrderStatusWord = (typeof ORDER_STATUSES)[number];

export interface TransactionKindWords {
  type: string;
  /** Null: any subtype (or none) of that type is this kind. */
  subtype: string | null;
}

export interface OperatorProfile {
  routes: Routes;
  /** The CSRF value is sent under every one of these names. */
  csrfHeaderNames: readonly string[];
  login: {
    /** Field names of the Authentication body (the spec names the three values, not their fields). */
    fields: { sessionId: string; email: string; passcode: string };
  };
  errors: {
    /** Dotted paths of the operator's error code and message in an error answer's body. */
    body: { code: string; message: string };
    /**
     * The statuses that mean: the bearer token is missing, invalid or expired (the session logs in again and sends
     * the call once more); the CSRF value is missing or wrong; the resource does not exist.
     */
    statuses: { unauthenticated: number; csrf: number; notFound: number };
  };
  paging: { pageParam: string; limitParam: string; defaultLimit: number; maxLimit: number };
  /** Our words (./vocabulary.ts) -> the operator's. */
  vocabulary: {
    transactionKinds: Record<TransactionKindName, TransactionKindWords>;
    transactionStatuses: Record<TransactionStatusWord, string>;
    orderStatuses: Record<OrderStatusWord, string>;
    orderDirections: Record<RampDirection, string>;
  };
  /** Our field names -> the operator's, for the fields that link one resource to another. */
  links: {
    transaction: { walletId: string; relatedTransactionId: string; orderId: string };
    order: { transactionId: string };
  };
}

const identity = <K extends string>(words: readonly K[]): Record<K, string> =>
  Object.fromEntries(words.map((word) => [word, word])) as unknown as Record<K, string>;

/** Our assumptions: the operator speaks our words. */
export const DEFAULT_OPERATOR_PROFILE: OperatorProfile = {
  routes: DEFAULT_ROUTES,
  /** The spec names both; which is authoritative is not shown, so the value goes under both. */
  csrfHeaderNames: ['x-csrf-token', 'x-irs-csrf-token'],
  login: { fields: { sessionId: 'sessionId', email: 'email', passcode: 'passcode' } },
  errors: {
    body: { code: 'error.code', message: 'error.message' },
    statuses: { unauthenticated: 401, csrf: 403, notFound: 404 },
  },
  /** 10 is the spec's observed page size; 100 is ASSUMED. */
  paging: { pageParam: 'page', limitParam: 'limit', defaultLimit: 10, maxLimit: 100 },
  vocabulary: {
    transactionKinds: TRANSACTION_KINDS,
    transactionStatuses: identity(TRANSACTION_STATUSES),
    orderStatuses: identity(ORDER_STATUSES),
    orderDirections: identity(RAMP_DIRECTIONS),
  },
  links: {
    transaction: { walletId: 'walletId', relatedTransactionId: 'relatedTransactionId', orderId: 'orderId' },
    order: { transactionId: 'transactionId' },
  },
};

/** The value at a dotted path (`error.code`) of a JSON body, or undefined. */
export function valueAtPath(body: unknown, path: string): unknown {
  let current: unknown = body;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A body with `value` at each dotted path (`{ 'error.code': 'x' }` -> `{ error: { code: 'x' } }`). */
export function bodyWithPaths(values: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(values)) {
    const keys = path.split('.');
    let node = body;
    for (const key of keys.slice(0, -1)) {
      const next = node[key];
      node[key] = typeof next === 'object' && next !== null ? next : {};
      node = node[key] as Record<string, unknown>;
    }
    node[keys.at(-1)!] = value;
  }
  return body;
}
