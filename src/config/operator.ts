import { z } from 'zod';
import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_ROUTES,
  MAX_PAGE_SIZE,
  type RouteName,
  type Routes,
} from '../domain/operator-routes';
import { formatIssues } from '../domain/errors';
import { SecretString } from '../secrets/secret-string';
import { durationMs } from './duration';
import { type Env, parseSection } from './env';

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

const operatorEnv = z.object({
  OPERATOR_BASE_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:4010'),
  OPERATOR_EMAIL: z.string().min(1).default('sandbox@example.com'),
  OPERATOR_PASSCODE: z.string().min(1).default('sandbox-passcode'),
  OPERATOR_TOKEN_LIFETIME: durationMs('24h'),
  OPERATOR_TOKEN_REFRESH_MARGIN: durationMs('5m'),
  OPERATOR_REQUEST_TIMEOUT: durationMs('15s'),
  OPERATOR_ROUTES_JSON: routeOverrides,
  OPERATOR_PAGE_SIZE: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});

export interface OperatorConfig {
  baseUrl: string;
  email: string;
  passcode: SecretString;
  /** Used when the operator's session carries no usable expiresAt. */
  tokenLifetimeMs: number;
  /** Re-login this long before the token's expiresAt (capped at half the token's life). */
  tokenRefreshMarginMs: number;
  requestTimeoutMs: number;
  /** DEFAULT_ROUTES with OPERATOR_ROUTES_JSON's entries applied. */
  routes: Routes;
  pageSize: number;
}

export function loadOperatorConfig(env: Env): OperatorConfig {
  const parsed = parseSection('operator', operatorEnv, env);
  return {
    baseUrl: parsed.OPERATOR_BASE_URL.replace(/\/+$/, ''),
    email: parsed.OPERATOR_EMAIL,
    passcode: new SecretString(parsed.OPERATOR_PASSCODE),
    tokenLifetimeMs: parsed.OPERATOR_TOKEN_LIFETIME,
    tokenRefreshMarginMs: parsed.OPERATOR_TOKEN_REFRESH_MARGIN,
    requestTimeoutMs: parsed.OPERATOR_REQUEST_TIMEOUT,
    routes: { ...DEFAULT_ROUTES, ...parsed.OPERATOR_ROUTES_JSON },
    pageSize: parsed.OPERATOR_PAGE_SIZE,
  };
}
