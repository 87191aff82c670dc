/**
 * The HTTP client of the ramp-orchestrator API for TypeScript backends: only the API's URL and key, no Temporal.
 * Every call is one request, retried on a 5xx (after Retry-After when given), on a network failure and on 409
 * idempotency_key_in_use, with one Idempotency-Key per call for a POST, so a retry never does a thing twice.
 */
import { randomUUID } from 'node:crypto';
import { RampApiError } from './errors';
import type {
  AccountSetupResult,
  AccountSetupState,
  ApiErrorBody,
  DepositQuote,
  DepositWallet,
  EndUser,
  EventListFilter,
  EventPage,
  EventRecord,
  Incident,
  IncidentAction,
  IncidentListFilter,
  IncidentPage,
  OffRamp,
  OffRampQuoteRequest,
  OnRamp,
  Quote,
  QuoteRequest,
  RampListFilter,
  RampPage,
  RedeliveryJob,
  RedeliveryRequest,
  RequestOf,
  ResolvedIncident,
  Route,
  AnswerOf,
  StartOnRampRequest,
} from './types';

export interface RampHttpClientOptions {
  /** The API's base URL, e.g. https://ramps.internal:8080. */
  baseUrl: string;
  /** The API_KEY it was given. */
  apiKey: string;
  /** Retries after the first attempt (default 3). */
  retries?: number;
  /** One attempt's time limit (default 30 s). */
  timeoutMs?: number;
  /** The first retry's delay, doubling up to 5 s (default 250 ms); a 503's Retry-After wins. */
  retryDelayMs?: number;
}

const MAX_RETRY_DELAY_MS = 5_000;

export class RampHttpClient {
  readonly #base: string;
  readonly #apiKey: string;
  readonly #retries: number;
  readonly #timeoutMs: number;
  readonly #retryDelayMs: number;

  constructor(options: RampHttpClientOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#retries = options.retries ?? 3;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#retryDelayMs = options.retryDelayMs ?? 250;
  }

  // ------------------------------------------------------------------------------------------ end users

  /** The end user's deposit wallet, created on the first call (any number of calls give one wallet). */
  async ensureDepositWallet(endUserId: string): Promise<DepositWallet> {
    const route = 'POST /v1/end-users/{id}/deposit-wallet';
    return (await this.#send(route, { params: { id: endUserId } })).body.data;
  }

  /** Asks for an off-ramp quote and records it as shown to the end user: their next deposit is compared with it. */
  async showDepositQuote(endUserId: string, request: OffRampQuoteRequest): Promise<DepositQuote> {
    const route = 'POST /v1/end-users/{id}/deposit-quote';
    return (await this.#send(route, { params: { id: endUserId }, body: request })).body.data;
  }

  /** The end user's state and newest ramps. */
  async getEndUser(endUserId: string): Promise<EndUser> {
    return (await this.#send('GET /v1/end-users/{id}', { params: { id: endUserId } })).body.data;
  }

  // ------------------------------------------------------------------------------------------ quotes and ramps

  /** A quote from the operator, never one already expired. */
  async quote(request: QuoteRequest): Promise<Quote> {
    return (await this.#send('POST /v1/quotes', { body: request })).body.data;
  }

  /** Starts (or attributes) an on-ramp; `created` is false when it already was this end user's. */
  async startOnRamp(request: StartOnRampRequest): Promise<{ created: boolean; state: OnRamp }> {
    const answer = await this.#send('POST /v1/on-ramps', { body: request });
    return { created: answer.status === 201, state: answer.body.data };
  }

  async getOnRamp(orderReference: string): Promise<OnRamp> {
    return (await this.#send('GET /v1/on-ramps/{orderReference}', { params: { orderReference } })).body.data;
  }

  async getOffRamp(depositTransactionId: string): Promise<OffRamp> {
    const route = 'GET /v1/off-ramps/{depositTransactionId}';
    return (await this.#send(route, { params: { depositTransactionId } })).body.data;
  }

  /** One page of ramps, newest first; pass `pagination.nextPageToken` back as `pageToken`. */
  async listRamps(filter: RampListFilter = {}): Promise<RampPage> {
    return (await this.#send('GET /v1/ramps', { query: filter })).body;
  }

  // ------------------------------------------------------------------------------------------ outcome events

  /** One page of outcome events with their delivery, newest first. */
  async listEvents(filter: EventListFilter = {}): Promise<EventPage> {
    return (await this.#send('GET /v1/events', { query: filter })).body;
  }

  async getEvent(webhookId: string): Promise<EventRecord> {
    return (await this.#send('GET /v1/events/{webhookId}', { params: { webhookId } })).body.data;
  }

  /** Sends one event again, with its webhook-id and body. */
  async redeliverEvent(webhookId: string): Promise<EventRecord> {
    return (await this.#send('POST /v1/events/{webhookId}/redeliver', { params: { webhookId } })).body.data;
  }

  /** Redelivers every event a filter matches (e.g. every failed one since T) as one job. */
  async redeliverEvents(filter: RedeliveryRequest): Promise<RedeliveryJob> {
    return (await this.#send('POST /v1/events/redeliver', { body: filter })).body.data;
  }

  async getRedeliveryJob(jobId: string): Promise<RedeliveryJob> {
    return (await this.#send('GET /v1/events/redeliveries/{jobId}', { params: { jobId } })).body.data;
  }

  /** Sends a signed test.ping to every endpoint; read its delivery with getEvent. */
  async sendTestEvent(): Promise<EventRecord> {
    return (await this.#send('POST /v1/events/test')).body.data;
  }

  // ------------------------------------------------------------------------------------------ account and alerts

  async setupAccount(): Promise<AccountSetupResult> {
    return (await this.#send('POST /v1/account/setup')).body.data;
  }

  async getAccount(): Promise<AccountSetupState> {
    return (await this.#send('GET /v1/account')).body.data;
  }

  /** One page of incidents, newest first: the open ones, or `status: 'resolved'`. */
  async listAlerts(filter: IncidentListFilter = {}): Promise<IncidentPage> {
    return (await this.#send('GET /v1/alerts', { query: filter })).body;
  }

  /** Someone on call takes an open incident (who and why). */
  async acknowledgeIncident(action: IncidentAction): Promise<Incident> {
    return (await this.#send('POST /v1/alerts/acknowledge', { body: action })).body.data;
  }

  /** Someone closes an open incident by hand (who and why). */
  async resolveIncident(action: IncidentAction): Promise<ResolvedIncident> {
    return (await this.#send('POST /v1/alerts/resolve', { body: action })).body.data;
  }

  // ------------------------------------------------------------------------------------------ transport

  /** One call of a route the server declares: its attempts share one Idempotency-Key. */
  async #send<R extends Route>(
    route: R,
    // Optional where nothing of it is required.
    ...[request]: Record<string, never> extends RequestOf<R> ? [RequestOf<R>?] : [RequestOf<R>]
  ): Promise<{ status: number; body: AnswerOf<R> }> {
    const [method, template] = route.split(' ') as ['GET' | 'POST', string];
    const { params = {}, query = {}, body } = (request ?? {}) as Parts;
    const path = template.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(params[name]!));
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#apiKey}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
    };
    for (let attempt = 0; ; attempt += 1) {
      let response: Response;
      try {
        response = await fetch(`${this.#base}${path}${queryString(query)}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(this.#timeoutMs),
        });
      } catch (error) {
        if (attempt >= this.#retries) throw error;
        await sleep(this.#backoff(attempt));
        continue;
      }
      const json: unknown = await response.json().catch(() => undefined);
      if (response.ok) return { status: response.status, body: json as AnswerOf<R> };
      const error = (json as ApiErrorBody | undefined)?.error;
      const retryable = response.status >= 500 || error?.code === 'idempotency_key_in_use';
      if (!retryable || attempt >= this.#retries)
        throw new RampApiError(
          response.status,
          error?.code ?? 'unknown',
          error?.message ?? response.statusText,
          error?.issues,
        );
      const retryAfter = Number(response.headers.get('retry-after'));
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : this.#backoff(attempt));
    }
  }

  #backoff(attempt: number): number {
    return Math.min(MAX_RETRY_DELAY_MS, this.#retryDelayMs * 2 ** attempt);
  }
}

/** A request's parts as the transport reads them. */
interface Parts {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function queryString(filter: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
