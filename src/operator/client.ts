/**
 * The typed operator client: one method per operation of the operator's API specification (docs/operator.md),
 * every response checked
 * against the shared schemas (unknown fields kept), every failure an OperatorError classified for retries.
 * It does not retry on its own (that is the activities' retry policy), except the one re-login on a 401.
 */
import type { Logger } from 'pino';
import { type z } from 'zod';
import type { OperatorConfig } from '../config/operator';
import type { OperatorProfile, RouteName } from '../domain/operator-profile';
import { formatIssues } from '../domain/errors';
import { OperatorError, OperatorResponseError, OperatorValidationError } from './errors';
import { type FetchLike, type OperatorRequest, type OperatorResponse, OperatorTransport } from './http';
import { profileSchemas } from './profile-schemas';
import {
  createRecipientsRequest,
  createWalletRequest,
  type CreateWalletRequest,
  type Order,
  type Quote,
  quoteRequest,
  type QuoteRequest,
  type RecipientKind,
  type RecipientPagination,
  RECIPIENT_KINDS,
  type Transaction,
  type Wallet,
  type WalletAddress,
  type WalletAddressesPagination,
  type WebhookRecipient,
} from './schemas';
import { SessionManager, type SessionStatus } from './session';
import { routeParameterIssue } from '../validation/identifiers';

export interface OperatorClientOptions {
  config: OperatorConfig;
  logger: Logger;
  /** Defaults to Node's global fetch. */
  fetch?: FetchLike;
  /** Clock in epoch milliseconds (token refresh timing). */
  now?: () => number;
}

export interface PageRequest {
  page?: number;
  limit?: number;
}

export interface WalletAddressesPageResult {
  data: WalletAddress[];
  pagination: WalletAddressesPagination;
}

export interface RecipientPageResult {
  data: WebhookRecipient[];
  pagination: RecipientPagination;
}

/** Stops a paging loop whose totalPage keeps growing or lies; far above any real list of ours. */
export const MAX_PAGES = 1000;

export const RECIPIENT_ROUTES: Record<
  RecipientKind,
  { list: RouteName; get: RouteName; create: RouteName; remove: RouteName }
> = {
  transaction: {
    list: 'listTransactionRecipients',
    get: 'getTransactionRecipient',
    create: 'createTransactionRecipients',
    remove: 'deleteTransactionRecipient',
  },
  order: {
    list: 'listOrderRecipients',
    get: 'getOrderRecipient',
    create: 'createOrderRecipients',
    remove: 'deleteOrderRecipient',
  },
};

/** What each operation's answer parses to (profile-schemas.ts holds the schemas). */
interface Answers {
  currentVaultNetworks: { data: unknown };
  createWallet: { data: Wallet };
  getWalletAddresses: WalletAddressesPageResult;
  createQuote: { data: Quote };
  listRecipients: RecipientPageResult;
  getRecipient: { data: WebhookRecipient };
  createRecipients: { data: WebhookRecipient[] };
  getTransaction: { data: Transaction };
  getOrder: { data: Order };
  listWalletTransactions: { data: Transaction[] };
}

export class OperatorClient {
  readonly #transport: OperatorTransport;
  readonly #session: SessionManager;
  readonly #profile: OperatorProfile;
  readonly #pageSize: number;
  readonly #requestTimeoutMs: number;

  constructor(options: OperatorClientOptions) {
    const { config, logger } = options;
    this.#profile = config.profile;
    this.#transport = new OperatorTransport({
      baseUrl: config.baseUrl,
      profile: config.profile,
      timeoutMs: config.requestTimeoutMs,
      logger,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.#session = new SessionManager({
      transport: this.#transport,
      profile: config.profile,
      email: config.email,
      passcode: config.passcode,
      tokenLifetimeMs: config.tokenLifetimeMs,
      ...(config.tokenRefreshMarginMs === undefined ? {} : { refreshMarginMs: config.tokenRefreshMarginMs }),
      logger,
      ...(options.now ? { now: options.now } : {}),
    });
    this.#pageSize = config.pageSize ?? config.profile.paging.defaultLimit;
    this.#requestTimeoutMs = config.requestTimeoutMs;
  }

  /** How long one request may take before it is abandoned. */
  get requestTimeoutMs(): number {
    return this.#requestTimeoutMs;
  }

  /** Logs in now unless the session is current, so that the next call goes out without a login first. */
  ensureSession(): Promise<void> {
    return this.#session.ready();
  }

  /** Forces a new login (the session-refresh activity). */
  refreshSession(): Promise<SessionStatus> {
    return this.#session.refresh();
  }

  sessionStatus(): SessionStatus {
    return this.#session.status();
  }

  // ------------------------------------------------------------------------------------------ wallets

  /** The spec shows no payload for this call, so its `data` is returned unchecked. */
  async getCurrentVaultNetworks(): Promise<unknown> {
    const response = await this.#authenticated({ operation: 'currentVaultNetworks' });
    return this.#parse<Answers['currentVaultNetworks']>('currentVaultNetworks', response).data;
  }

  /**
   * `deadlineMs` (on the deadline clock, deadline-clock.ts) bounds the whole call, a re-login's second send
   * included: past it nothing more is sent, and a send in flight is abandoned (OperatorError `deadline_passed` or
   * `timeout`).
   */
  async createWallet(request: CreateWalletRequest, options: { deadlineMs?: number } = {}): Promise<Wallet> {
    const body = validate('createWallet', createWalletRequest, request);
    const response = await this.#authenticated({ operation: 'createWallet', body, ...deadlineOf(options) });
    return this.#parse<Answers['createWallet']>('createWallet', response).data;
  }

  async getWalletAddressesPage(
    walletId: string,
    page: number,
    limit: number = this.#pageSize,
  ): Promise<WalletAddressesPageResult> {
    validatePaging('getWalletAddresses', page, limit);
    const response = await this.#authenticated({
      operation: 'getWalletAddresses',
      params: { id: requireId('getWalletAddresses', walletId) },
      query: this.#paging(page, limit),
    });
    const { data, pagination } = this.#parse<Answers['getWalletAddresses']>('getWalletAddresses', response);
    return { data, pagination };
  }

  /** Every address of the wallet, all pages concatenated. */
  async getWalletAddresses(walletId: string): Promise<WalletAddress[]> {
    return collectPages('getWalletAddresses', (page) => this.getWalletAddressesPage(walletId, page));
  }

  // ------------------------------------------------------------------------------------------ quotes

  /** Validated locally first: bad input fails without any HTTP call. */
  async createQuote(request: QuoteRequest): Promise<Quote> {
    const body = validate('createQuote', quoteRequest, request);
    const response = await this.#authenticated({ operation: 'createQuote', body });
    return this.#parse<Answers['createQuote']>('createQuote', response).data;
  }

  // ------------------------------------------------------------------------------------------ webhook recipients

  async listRecipients(kind: RecipientKind, paging: PageRequest = {}): Promise<RecipientPageResult> {
    const operation = recipientRoutes(kind).list;
    const page = paging.page ?? 1;
    const limit = paging.limit ?? this.#pageSize;
    validatePaging(operation, page, limit);
    const response = await this.#authenticated({ operation, query: this.#paging(page, limit) });
    const { data, pagination } = this.#parse<Answers['listRecipients']>(operation, response);
    return { data, pagination };
  }

  async listAllRecipients(kind: RecipientKind): Promise<WebhookRecipient[]> {
    return collectPages(recipientRoutes(kind).list, async (page) => {
      const { data, pagination } = await this.listRecipients(kind, { page });
      return { data, pagination: { totalPage: pagination.totalPage } };
    });
  }

  async getRecipient(kind: RecipientKind, id: string): Promise<WebhookRecipient> {
    const operation = recipientRoutes(kind).get;
    const response = await this.#authenticated({ operation, params: { id: requireId(operation, id) } });
    return this.#parse<Answers['getRecipient']>(operation, response).data;
  }

  /** Every URL must begin with https://; checked locally first, so a bad URL makes no call. */
  async createRecipients(kind: RecipientKind, urls: string[]): Promise<WebhookRecipient[]> {
    const operation = recipientRoutes(kind).create;
    const body = validate(operation, createRecipientsRequest, { urls });
    const response = await this.#authenticated({ operation, body });
    return this.#parse<Answers['createRecipients']>(operation, response).data;
  }

  async deleteRecipient(kind: RecipientKind, id: string): Promise<void> {
    const operation = recipientRoutes(kind).remove;
    await this.#authenticated({ operation, params: { id: requireId(operation, id) } });
  }

  // ------------------------------------------------------------------------------------------ transactions and orders

  /** `deadlineMs` (deadline clock) bounds the read as it bounds createWallet's call. */
  async getTransaction(id: string, options: { deadlineMs?: number } = {}): Promise<Transaction> {
    const response = await this.#authenticated({
      operation: 'getTransaction',
      params: { id: requireId('getTransaction', id) },
      ...deadlineOf(options),
    });
    return this.#parse<Answers['getTransaction']>('getTransaction', response).data;
  }

  async getOrder(id: string, options: { deadlineMs?: number } = {}): Promise<Order> {
    const response = await this.#authenticated({
      operation: 'getOrder',
      params: { id: requireId('getOrder', id) },
      ...deadlineOf(options),
    });
    return this.#parse<Answers['getOrder']>('getOrder', response).data;
  }

  /** ASSUMED route: every transaction of a wallet, newest first (reconciliation only). */
  async listWalletTransactions(walletId: string): Promise<Transaction[]> {
    const response = await this.#authenticated({
      operation: 'listWalletTransactions',
      params: { id: requireId('listWalletTransactions', walletId) },
    });
    return this.#parse<Answers['listWalletTransactions']>('listWalletTransactions', response).data;
  }

  // ------------------------------------------------------------------------------------------ plumbing

  /** The answer of `operation`, checked against its schema under the profile (and in our words). */
  #parse<T>(operation: RouteName, response: OperatorResponse): T {
    const result = profileSchemas(this.#profile).responses[operation].safeParse(response.body);
    if (!result.success)
      throw new OperatorResponseError(operation, response.status, formatIssues(result.error.issues));
    return result.data as T;
  }

  /** Page and page size under the profile's parameter names. */
  #paging(page: number, limit: number): Record<string, number> {
    const { pageParam, limitParam } = this.#profile.paging;
    return { [pageParam]: page, [limitParam]: limit };
  }

  #authenticated(request: OperatorRequest): Promise<OperatorResponse> {
    return this.#session.call((headers) => this.#transport.send({ ...request, headers }));
  }

  toJSON(): Record<string, unknown> {
    return { session: this.#session.status() };
  }
}

/** A request's deadline field, absent when the caller set none (exactOptionalPropertyTypes). */
const deadlineOf = (options: { deadlineMs?: number }): { deadlineMs?: number } =>
  options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs };

function recipientRoutes(kind: RecipientKind) {
  const routes = (RECIPIENT_ROUTES as Partial<Record<string, (typeof RECIPIENT_ROUTES)[RecipientKind]>>)[
    kind
  ];
  if (!routes) {
    throw new OperatorValidationError('recipients', [`kind: must be one of ${RECIPIENT_KINDS.join(', ')}`]);
  }
  return routes;
}

function validate<T extends z.ZodType>(operation: string, schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw new OperatorValidationError(operation, formatIssues(result.error.issues));
  return result.data;
}

/** Checked before the login, so a value that cannot be a path parameter costs no call at all. */
function requireId(operation: string, id: string): string {
  const issue = routeParameterIssue(id);
  if (issue) throw new OperatorValidationError(operation, [`id: ${issue}`]);
  return id;
}

function validatePaging(operation: string, page: number, limit: number): void {
  const issues: string[] = [];
  if (!Number.isInteger(page) || page < 1) issues.push('page: must be an integer of at least 1');
  if (!Number.isInteger(limit) || limit < 1) issues.push('limit: must be an integer of at least 1');
  if (issues.length > 0) throw new OperatorValidationError(operation, issues);
}

/** Fetches pages 1..totalPage (re-read from each page) and concatenates them; stops on an empty page. */
async function collectPages<T>(
  operation: string,
  fetchPage: (page: number) => Promise<{ data: T[]; pagination: { totalPage: number } }>,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page += 1) {
    if (page > MAX_PAGES) {
      throw new OperatorError(`operator ${operation} reported more than ${MAX_PAGES} pages`, {
        operation,
        code: 'too_many_pages',
        retryable: false,
      });
    }
    const { data, pagination } = await fetchPage(page);
    items.push(...data);
    if (data.length === 0 || page >= pagination.totalPage) return items;
  }
}
