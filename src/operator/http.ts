/**
 * The smallest transport that does what every operator call needs: fill a route template, send JSON with a
 * timeout, return the status and the parsed body, and turn failures into classified OperatorErrors.
 * It knows nothing about login; the session manager hands it the authentication headers.
 */
import { inClientSpan } from '../http/spans';
import type { Logger } from 'pino';
import type { OperatorProfile, RouteName } from '../domain/operator-profile';
import { encodeRouteParameter, RouteParameterError } from '../validation/identifiers';
import { deadlineClockMs } from './deadline-clock';
import { countOperatorCall } from './call-meter';
import {
  deadlinePassed,
  errorFromFetchFailure,
  errorFromResponse,
  OperatorResponseError,
  OperatorValidationError,
} from './errors';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportOptions {
  baseUrl: string;
  /** Its routes, and how its error answers read. */
  profile: OperatorProfile;
  timeoutMs: number;
  logger: Logger;
  fetch?: FetchLike;
}

export interface OperatorRequest {
  operation: RouteName;
  /** Values for the `{name}` placeholders of the route template; each becomes exactly one encoded path segment. */
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * Milliseconds on the deadline clock (deadline-clock.ts) after which the request is neither sent nor awaited: its
   * timeout is cut to the time left.
   * For a call that a retry must not overlap (CreateWallet): no attempt's request outlives the slot it recorded.
   */
  deadlineMs?: number;
}

export interface OperatorResponse {
  status: number;
  /** Parsed JSON, or undefined for an empty body (204). */
  body: unknown;
}

export interface ResolvedRoute {
  method: string;
  path: string;
}

/**
 * `'GET /wallets/{id}/addresses'` + `{ id: 'a b' }` → `{ method: 'GET', path: '/wallets/a%20b/addresses' }`.
 * No value can change the route: `/`, `%` and the like are encoded, `.` and `..` are refused (RouteParameterError).
 */
export function resolveRoute(template: string, params: Record<string, string> = {}): ResolvedRoute {
  const match = /^([A-Z]+)\s+(\/\S*)$/.exec(template.trim());
  if (!match) throw new Error(`route template "${template}" must look like "GET /path/{id}"`);
  const path = match[2]!.replace(/\{(\w+)\}/g, (_placeholder, name: string) => {
    const value = params[name];
    if (value === undefined || value === '')
      throw new Error(`route "${template}" needs a value for {${name}}`);
    return encodeRouteParameter(name, value);
  });
  return { method: match[1]!, path };
}

export class OperatorTransport {
  readonly #options: TransportOptions;
  readonly #fetch: FetchLike;

  constructor(options: TransportOptions) {
    this.#options = options;
    // Late-bound so that tests replacing globalThis.fetch after construction are honoured.
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** Sends the request; resolves for 2xx, throws an OperatorError for anything else. */
  async send(request: OperatorRequest): Promise<OperatorResponse> {
    const { operation } = request;
    let resolved: ResolvedRoute;
    try {
      resolved = resolveRoute(this.#options.profile.routes[operation], request.params);
    } catch (error) {
      if (error instanceof RouteParameterError) throw new OperatorValidationError(operation, [error.message]);
      throw error;
    }
    const { method, path } = resolved;
    const url = new URL(this.#options.baseUrl.replace(/\/+$/, '') + path);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }

    // Whole milliseconds: AbortSignal.timeout refuses a fraction.
    const timeoutMs = Math.floor(
      Math.min(this.#options.timeoutMs, (request.deadlineMs ?? Infinity) - deadlineClockMs()),
    );
    if (timeoutMs <= 0) throw deadlinePassed(operation);
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    // A redirect is not followed: it would carry the CSRF header to wherever it points, and an API call is not
    // meant to be redirected. It fails as a network error, so a CreateWallet stays on record as possibly sent.
    const init: RequestInit = { method, headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' };
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(request.body);
    }

    countOperatorCall();
    const startedAt = performance.now();
    const elapsed = () => Math.round(performance.now() - startedAt);
    let response: Response;
    let text: string;
    try {
      // The span names the operation and its route template: IDs stay out of span names.
      response = await inClientSpan(
        `operator ${operation}`,
        { 'http.request.method': method, 'operator.route': this.#options.profile.routes[operation] },
        headers,
        () => this.#fetch(url.toString(), init),
      );
      text = await response.text();
    } catch (failure) {
      const error = errorFromFetchFailure(operation, failure, timeoutMs);
      this.#options.logger.debug(
        { operation, method, code: error.code, durationMs: elapsed() },
        'operator call failed',
      );
      throw error;
    }
    this.#options.logger.debug(
      { operation, method, status: response.status, durationMs: elapsed() },
      'operator call',
    );

    const body = parseJson(text);
    if (!response.ok)
      throw errorFromResponse(
        this.#options.profile,
        operation,
        response.status,
        body.ok ? body.value : undefined,
      );
    if (!body.ok) throw new OperatorResponseError(operation, response.status, ['(root): body is not JSON']);
    return { status: response.status, body: body.value };
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
