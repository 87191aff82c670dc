import { z } from 'zod';
import { DEFAULT_ROUTES, type RouteName, type Routes } from '../domain/operator-routes';
import { formatIssues } from '../domain/errors';
import { SecretString } from '../secrets/secret-string';
import { durationMs } from './duration';
import { type Env, parseSection } from './env';
import { SANDBOX_DEFAULTS as SANDBOX_OPERATOR } from './sandbox';
import { setting } from './setting';

const READ_BY = ['npm start', 'worker', 'receiver'] as const;

const ROUTE_TEMPLATE = /^(GET|POST|PUT|PATCH|DELETE) \/\S*$/;
const routeNames = Object.keys(DEFAULT_ROUTES) as RouteName[];

const routeOverrides = z
  .string()
  .optional()
  .transform((text, ctx): Partial<Routes> => {
    if (text === undefined || text.trim() === '') return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: 'must be a JSON object such as {"getOrder":"GET /orders/{id}"}',
      });
      return z.NEVER;
    }
    const result = z
      .strictObject(
        Object.fromEntries(
          routeNames.map((name) => [
            name,
            z.string().regex(ROUTE_TEMPLATE, 'must look like "GET /path/{id}"').optional(),
          ]),
        ),
      )
      .safeParse(parsed);
    if (!result.success) {
      for (const message of formatIssues(result.error.issues)) ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return result.data;
  });

export const operatorEnv = z.object({
  OPERATOR_BASE_URL: setting(z.url({ protocol: /^https?$/ }).default(SANDBOX_OPERATOR.url), {
    group: 'production',
    default: 'sandbox mode',
    meaning:
      "The operator's API base URL. Unset is sandbox mode: npm start runs the sandbox operator, and the receiver " +
      'and API accept development defaults for their secrets.',
    readBy: READ_BY,
    required: 'yes',
    example: 'https://api.operator.example',
  }),
  OPERATOR_EMAIL: setting(z.string().min(1).default(SANDBOX_OPERATOR.email), {
    group: 'production',
    default: "the sandbox's",
    meaning: 'The login e-mail of our account at the operator.',
    readBy: READ_BY,
    required: 'yes',
    example: 'ramps@client.example',
  }),
  OPERATOR_PASSCODE: setting(z.string().min(1).default(SANDBOX_OPERATOR.passcode), {
    group: 'production',
    default: "the sandbox's",
    meaning: 'The login passcode of that account.',
    secret: true,
    readBy: READ_BY,
    required: 'yes',
  }),
  OPERATOR_ROUTES_JSON: setting(routeOverrides, {
    group: 'production',
    default: 'the assumed routes',
    meaning:
      'Corrections to the assumed operator routes by name, e.g. `{"getOrder":"GET /orders/{id}"}` ' +
      '(docs/operator.md lists them).',
    readBy: READ_BY,
  }),
  OPERATOR_TOKEN_LIFETIME: setting(durationMs('24h'), {
    group: 'tests shorten',
    default: '24h',
    meaning: "The session's life when the operator's login answer gives no usable expiresAt.",
    readBy: READ_BY,
  }),
  OPERATOR_REQUEST_TIMEOUT: setting(durationMs('15s'), {
    group: 'tests shorten',
    default: '15s',
    meaning: 'One HTTP call to the operator.',
    readBy: READ_BY,
  }),
});

export interface OperatorConfig {
  baseUrl: string;
  email: string;
  passcode: SecretString;
  /** Used when the operator's session carries no usable expiresAt. */
  tokenLifetimeMs: number;
  /** For tests that shorten it; default TOKEN_REFRESH_MARGIN_MS of the session. */
  tokenRefreshMarginMs?: number;
  requestTimeoutMs: number;
  /** DEFAULT_ROUTES with OPERATOR_ROUTES_JSON's entries applied. */
  routes: Routes;
  /** For tests that page through small pages; default DEFAULT_PAGE_SIZE. */
  pageSize?: number;
}

export function loadOperatorConfig(env: Env): OperatorConfig {
  const parsed = parseSection('operator', operatorEnv, env);
  return {
    baseUrl: parsed.OPERATOR_BASE_URL.replace(/\/+$/, ''),
    email: parsed.OPERATOR_EMAIL,
    passcode: new SecretString(parsed.OPERATOR_PASSCODE),
    tokenLifetimeMs: parsed.OPERATOR_TOKEN_LIFETIME,
    requestTimeoutMs: parsed.OPERATOR_REQUEST_TIMEOUT,
    routes: { ...DEFAULT_ROUTES, ...parsed.OPERATOR_ROUTES_JSON },
  };
}
