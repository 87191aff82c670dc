/** What every check of the probe shares: its options, its calls, its report and, once logged in, the session. */
import type { OperatorProfile, RouteName } from '../domain/operator-profile';
import type { SecretString } from '../secrets/secret-string';
import type { ProbeReport } from './report';
import type { Wire, WireAnswer, WireRequest } from './wire';

export interface ProbeOptions {
  baseUrl: string;
  email: string;
  passcode: SecretString;
  timeoutMs: number;
  /** The profile under test: the product's (OPERATOR_PROFILE). */
  profile: OperatorProfile;
  /** A profile whose login is known to work, to check the rest when the login under test fails. */
  loginProfile?: OperatorProfile;
  /** Wallets to read (the account's master and gas wallets, say). */
  wallets: readonly string[];
  transactions: readonly string[];
  orders: readonly string[];
  /** Creates one labelled probe wallet and, one at a time, a recipient of each kind that it deletes again. */
  allowWrites: boolean;
  /** The receiver's /readyz, whose details say which headers deliveries carried. */
  receiver?: { readyzUrl: string; token?: SecretString };
}

export interface ProbeSession {
  token: string;
  csrfToken: string;
  /** The CSRF header names the operator accepted, each alone. */
  csrfHeaderNames: string[];
}

export interface ProbeContext {
  options: ProbeOptions;
  wire: Wire;
  report: ProbeReport;
  session?: ProbeSession;
}

/** Authorization and CSRF headers; the CSRF value under `names` (default: every name accepted). */
export function authHeaders(
  session: ProbeSession,
  overrides: { names?: readonly string[]; csrf?: string; token?: string | null } = {},
): Record<string, string> {
  const headers: Record<string, string> = {};
  const token = overrides.token === undefined ? session.token : overrides.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  for (const name of overrides.names ?? session.csrfHeaderNames)
    headers[name] = overrides.csrf ?? session.csrfToken;
  return headers;
}

/** One call of a profile route with the session's headers. */
export function callRoute(
  ctx: ProbeContext,
  operation: RouteName,
  request: Omit<WireRequest, 'operation' | 'template'> = {},
): Promise<WireAnswer> {
  return ctx.wire.send({
    operation,
    template: ctx.options.profile.routes[operation],
    ...request,
    headers: { ...(ctx.session ? authHeaders(ctx.session) : {}), ...request.headers },
  });
}

/** A short account of an answer for the table: its status and, for an error, the operator's code if any. */
export function describeAnswer(answer: WireAnswer): string {
  if (answer.status === 0) return `no answer (${answer.failure ?? 'network error'})`;
  return `HTTP ${answer.status}${bodyHint(answer.body)}`;
}

function bodyHint(body: unknown): string {
  if (typeof body === 'string') return ` (not JSON)`;
  if (typeof body !== 'object' || body === null) return '';
  return ` ${shapeOf(body)}`;
}

/** The structure of a JSON value, its leaves as types: `{error:{code:string,message:string}}`. */
export function shapeOf(value: unknown, depth = 0): string {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${shapeOf(value[0], depth + 1)}, ...]`;
  if (typeof value === 'object' && value !== null) {
    if (depth > 2) return '{...}';
    const entries = Object.entries(value).slice(0, 12);
    return `{${entries.map(([key, item]) => `${key}:${shapeOf(item, depth + 1)}`).join(',')}}`;
  }
  return value === null ? 'null' : typeof value;
}
