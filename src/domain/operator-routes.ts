/**
 * What the operator's spec leaves open about its API, apart from the vocabulary (./vocabulary.ts): routes, headers,
 * page sizes, error statuses, delivery signing. The operator client uses these defaults, the sandbox serves exactly
 * these, and docs/operator.md lists them. Routes can be overridden by configuration
 * (OPERATOR_ROUTES_JSON) for a real operator that differs. Workflow-safe: no Node built-ins, no zod.
 */

/** Route templates; `{id}` is replaced with the URL-encoded identifier. */
export const DEFAULT_ROUTES = {
  /** ASSUMED: POST with body `{}`. */
  startSession: 'POST /auth/private/v1/sessions',
  /** ASSUMED: POST with `{ sessionId, email, passcode }`. */
  authenticate: 'POST /auth/private/v1/sessions/authenticate',
  /** From the spec. */
  currentVaultNetworks: 'GET /api/wallets/private/v1/current-vault-networks',
  createWallet: 'POST /wallets/private/v1/wallets',
  /** From the spec; paging parameters `?page=N&limit=M` are ASSUMED. */
  getWalletAddresses: 'GET /wallets/private/v1/wallets/{id}/addresses',
  createQuote: 'POST /core-conversions/private/v1/quotes',
  /** Create is from the spec; list (`?page=N&limit=M`), get and delete paths are ASSUMED. */
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

/** The spec names both; which is authoritative is not shown, so we send both and the sandbox accepts either. */
export const CSRF_HEADER_NAMES = ['x-csrf-token', 'x-irs-csrf-token'] as const;

/** Observed page size of list responses. */
export const DEFAULT_PAGE_SIZE = 10;
/** ASSUMED largest page size the operator accepts. */
export const MAX_PAGE_SIZE = 100;

/**
 * ASSUMED error body: `{ "error": { "code", "message" } }`, with these HTTP statuses:
 * 400 validation, 401 missing/invalid/expired bearer token, 403 missing or wrong CSRF value,
 * 404 not found, 409 conflict, 422 unprocessable, 429 rate limited, 5xx operator fault.
 * ASSUMED as well: a call answered 401 was refused before it was carried out. The session sends it again after
 * logging in, and a CreateWallet refused so is journaled as not sent (src/operator/errors.ts, notCarriedOut): if the
 * operator ever carried out a call it answered 401, both would have to change.
 */
export const ERROR_STATUSES = {
  validation: 400,
  unauthenticated: 401,
  csrf: 403,
  notFound: 404,
  conflict: 409,
  unprocessable: 422,
  rateLimited: 429,
} as const;

/** ASSUMED: deliveries carry no signature; the secret path segment of the recipient URL is the credential. */
export const DELIVERY_IS_SIGNED = false;
