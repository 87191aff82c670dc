/**
 * A stubbed fetch that plays the operator for unit tests: the assumed login routes, bearer + CSRF checks,
 * and per-test handlers for everything else. It records every call so tests can count them.
 */
import { randomUUID } from 'node:crypto';
import { loadOperatorConfig, type OperatorConfig } from '../../src/config/operator';
import type { FetchLike } from '../../src/operator/http';

export const PASSCODE = 'unit-test-passcode-9f3b';
export const EMAIL = 'unit@example.com';

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

export interface FakeResponse {
  status: number;
  body?: unknown;
  /** Raw text instead of JSON. */
  text?: string;
}

type Handler = (call: RecordedCall) => FakeResponse | Promise<FakeResponse>;

export class FakeOperator {
  readonly calls: RecordedCall[] = [];
  readonly issuedTokens: string[] = [];
  readonly issuedCsrfTokens: string[] = [];
  readonly validTokens = new Set<string>();
  /** Lets tests hold a login open so concurrent callers pile up behind it. */
  loginDelayMs = 0;
  /** Lifetime of issued tokens, measured on `now()`. */
  tokenLifetimeMs = 24 * 3_600_000;
  /** When false, the authentication response carries no expiresAt. */
  sendExpiresAt = true;
  #handlers: { method: string; pattern: RegExp; handler: Handler }[] = [];

  constructor(readonly now: () => number = Date.now) {}

  handle(method: string, pattern: RegExp, handler: Handler): this {
    this.#handlers.push({ method, pattern, handler });
    return this;
  }

  get logins(): number {
    return this.calls.filter((call) => call.path === '/auth/private/v1/sessions/authenticate').length;
  }

  /** Calls other than the two login steps. */
  get apiCalls(): RecordedCall[] {
    return this.calls.filter((call) => !call.path.startsWith('/auth/'));
  }

  revokeAllTokens(): void {
    this.validTokens.clear();
  }

  readonly fetch: FetchLike = async (input, init) => {
    const url = new URL(input);
    const headers = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const call: RecordedCall = {
      method: init.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    this.calls.push(call);
    const result = await this.#respond(call);
    const text = result.text ?? (result.body === undefined ? '' : JSON.stringify(result.body));
    return new Response(result.status === 204 ? null : text, {
      status: result.status,
      headers: { 'content-type': 'application/json' },
    });
  };

  async #respond(call: RecordedCall): Promise<FakeResponse> {
    if (call.method === 'POST' && call.path === '/auth/private/v1/sessions') {
      return {
        status: 201,
        body: {
          data: {
            id: randomUUID(),
            isCompleted: false,
            identityType: 'business-user',
            class: 'login',
            classId: 'api-email-v1',
            activeStep: '1-auth-with-passcode',
            expiresAt: new Date(this.now() + 600_000).toISOString(),
          },
        },
      };
    }
    if (call.method === 'POST' && call.path === '/auth/private/v1/sessions/authenticate') {
      if (this.loginDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.loginDelayMs));
      const body = call.body as { email?: string; passcode?: string };
      if (body.passcode !== PASSCODE || body.email !== EMAIL) {
        return {
          status: 401,
          body: { error: { code: 'invalid_credentials', message: 'e-mail or passcode is wrong' } },
        };
      }
      const n = this.issuedTokens.length + 1;
      const token = `tok-${n}-${randomUUID()}`;
      const csrfToken = `csrf-${n}-${randomUUID()}`;
      this.issuedTokens.push(token);
      this.issuedCsrfTokens.push(csrfToken);
      this.validTokens.add(token);
      const session: Record<string, unknown> = { token, csrfToken };
      if (this.sendExpiresAt) session.expiresAt = new Date(this.now() + this.tokenLifetimeMs).toISOString();
      return { status: 200, body: { data: { session } } };
    }

    const bearer = /^Bearer (.+)$/.exec(call.headers.authorization ?? '')?.[1];
    if (!bearer || !this.validTokens.has(bearer)) {
      return {
        status: 401,
        body: { error: { code: 'unauthenticated', message: 'token missing, invalid or expired' } },
      };
    }
    const csrfIndex = this.issuedTokens.indexOf(bearer);
    if (call.headers['x-irs-csrf-token'] !== this.issuedCsrfTokens[csrfIndex]) {
      return { status: 403, body: { error: { code: 'csrf', message: 'CSRF value missing or wrong' } } };
    }
    const entry = this.#handlers.find(
      (candidate) => candidate.method === call.method && candidate.pattern.test(call.path),
    );
    if (!entry)
      return {
        status: 404,
        body: { error: { code: 'not_found', message: `no route ${call.method} ${call.path}` } },
      };
    return entry.handler(call);
  }
}

/** The operator configuration `env` gives, with `overrides` set in code (the fields no setting reads). */
export function testConfig(
  env: Record<string, string> = {},
  overrides: Partial<OperatorConfig> = {},
): OperatorConfig {
  return {
    ...loadOperatorConfig({
      OPERATOR_BASE_URL: 'http://operator.test',
      OPERATOR_EMAIL: EMAIL,
      OPERATOR_PASSCODE: PASSCODE,
      ...env,
    }),
    ...overrides,
  };
}

export function networkFixture(slug: string) {
  return { name: `networks/${slug}`, displayName: slug, isCustom: false, isTestnet: false };
}

export function recipientFixture(id: string, url = `https://hooks.example.com/${id}`) {
  const at = '2025-01-01T00:00:00.000Z';
  return { id, url, createdAt: at, updatedAt: at };
}

/** A fixed, movable clock. */
export function movableClock(startMs = Date.parse('2025-06-01T12:00:00.000Z')) {
  let nowMs = startMs;
  return {
    now: () => nowMs,
    advance: (ms: number) => {
      nowMs += ms;
    },
  };
}
