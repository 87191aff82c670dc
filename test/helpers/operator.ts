/** Helpers of the operator-client tests that drive the real sandbox over HTTP. */
import { loadOperatorConfig, type OperatorConfig } from '../../src/config/operator';
import type { Logger } from '../../src/logging';
import { OperatorClient } from '../../src/operator/client';
import type { FetchLike } from '../../src/operator/http';
import type { RunningSandbox, SandboxOverrides } from '../../src/sandbox/server';
import { captureLogger } from './logs';
import { startSandboxOnLoopback } from './sandbox';

export const EMAIL = 'client-tests@example.com';
export const PASSCODE = 'client-tests-passcode-7c1e';

export function startTestSandbox(overrides: SandboxOverrides = {}): Promise<RunningSandbox> {
  return startSandboxOnLoopback({ seed: 4242, email: EMAIL, passcode: PASSCODE, ...overrides });
}

export function clientConfig(sandbox: RunningSandbox, env: Record<string, string> = {}): OperatorConfig {
  return loadOperatorConfig({
    OPERATOR_BASE_URL: sandbox.url,
    OPERATOR_EMAIL: EMAIL,
    OPERATOR_PASSCODE: PASSCODE,
    ...env,
  });
}

/**
 * Wraps global fetch and remembers every credential that crossed the wire (sent headers and the
 * Authentication response), so tests can assert none of them surfaces anywhere else.
 */
export function credentialSpy(): { fetch: FetchLike; secrets: Set<string> } {
  const secrets = new Set<string>();
  const spy: FetchLike = async (input, init) => {
    const headers = (init.headers ?? {}) as Record<string, string>;
    for (const [name, value] of Object.entries(headers)) {
      if (name.toLowerCase() === 'authorization') secrets.add(value.replace(/^Bearer /, ''));
      if (name.toLowerCase().includes('csrf')) secrets.add(value);
    }
    const response = await fetch(input, init);
    if (input.endsWith('/authenticate') && response.ok) {
      const body = (await response.clone().json()) as {
        data?: { session?: { token?: string; csrfToken?: string } };
      };
      if (body.data?.session?.token) secrets.add(body.data.session.token);
      if (body.data?.session?.csrfToken) secrets.add(body.data.session.csrfToken);
    }
    return response;
  };
  return { fetch: spy, secrets };
}

export function newClient(
  sandbox: RunningSandbox,
  options: {
    env?: Record<string, string>;
    /** Fields set in code, which no setting reads (page size, refresh margin). */
    config?: Partial<OperatorConfig>;
    logger?: Logger;
    fetch?: FetchLike;
    now?: () => number;
  } = {},
) {
  return new OperatorClient({
    config: { ...clientConfig(sandbox, options.env), ...options.config },
    logger: options.logger ?? captureLogger().logger,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
}

/** JSON call to a sandbox simulation endpoint (no authentication). */
export async function sandboxCall<T = unknown>(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

export interface CallRecordView {
  route: string | null;
  method: string;
  status: number;
  path: string;
}

/** The sandbox's log of operator calls, through its HTTP endpoint. */
export async function operatorCalls(sandbox: RunningSandbox, route?: string): Promise<CallRecordView[]> {
  const query = route ? `?route=${encodeURIComponent(route)}` : '';
  return (await sandboxCall<{ data: CallRecordView[] }>(sandbox, 'GET', `/sandbox/v1/calls${query}`)).body
    .data;
}
