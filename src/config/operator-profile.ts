/**
 * The operator profile's JSON override (OPERATOR_PROFILE for the product, SANDBOX_PROFILE for the sandbox): any
 * part of the profile (src/domain/operator-profile.ts), every key checked, merged over the defaults and then checked
 * as a whole. A problem is reported with the key it is about, and nothing starts.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { IssueLike } from '../domain/errors';
import {
  DEFAULT_OPERATOR_PROFILE,
  type OperatorProfile,
  ROUTE_NAMES,
  ROUTES_WITH_ID,
} from '../domain/operator-profile';

const ROUTE_TEMPLATE = /^(GET|POST|PUT|PATCH|DELETE) \/\S*$/;

const routeTemplate = z.string().regex(ROUTE_TEMPLATE, 'must look like "GET /path/{id}"');
const headerName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,99}$/, 'must be an HTTP header name')
  .transform((name) => name.toLowerCase());
const fieldName = z.string().regex(/^[^\s.]{1,100}$/, 'must be a field name (no spaces or dots)');
const dottedPath = z
  .string()
  .regex(/^[^\s.]{1,100}(\.[^\s.]{1,100}){0,4}$/, 'must be a field path such as error.code');
const errorStatus = z.number().int().min(400).max(599);
const word = z.string().min(1).max(100);
const pageSize = z.number().int().min(1).max(10_000);

const partial = <T extends Record<string, z.ZodType>>(shape: T) =>
  z
    .strictObject(Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, field.optional()])))
    .optional();
const wordsOf = (keys: Record<string, unknown>) =>
  partial(Object.fromEntries(Object.keys(keys).map((key) => [key, word])));

const { vocabulary } = DEFAULT_OPERATOR_PROFILE;

/** Every key the file may set; all optional, none unknown. */
const profileOverride = z.strictObject({
  /** A note for people: ignored. */
  $comment: z.string().optional(),
  routes: partial(Object.fromEntries(ROUTE_NAMES.map((name) => [name, routeTemplate]))),
  csrfHeaderNames: z.array(headerName).min(1).max(5).optional(),
  login: partial({
    fields: partial({ sessionId: fieldName, email: fieldName, passcode: fieldName }),
  }),
  errors: partial({
    body: partial({ code: dottedPath, message: dottedPath }),
    statuses: partial({ unauthenticated: errorStatus, csrf: errorStatus, notFound: errorStatus }),
  }),
  paging: partial({
    pageParam: fieldName,
    limitParam: fieldName,
    defaultLimit: pageSize,
    maxLimit: pageSize,
  }),
  vocabulary: partial({
    transactionKinds: partial(
      Object.fromEntries(
        Object.keys(vocabulary.transactionKinds).map((kind) => [
          kind,
          partial({ type: word, subtype: word.nullable() }),
        ]),
      ),
    ),
    transactionStatuses: wordsOf(vocabulary.transactionStatuses),
    orderStatuses: wordsOf(vocabulary.orderStatuses),
    orderDirections: wordsOf(vocabulary.orderDirections),
  }),
  links: partial({
    transaction: partial({ walletId: fieldName, relatedTransactionId: fieldName, orderId: fieldName }),
    order: partial({ transactionId: fieldName }),
  }),
});

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `override` over `base`, object by object; arrays and values replace. */
function merged(base: unknown, override: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(override)) return override === undefined ? base : override;
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) result[key] = merged(base[key], value);
  return result;
}

/** Fields a transaction or an order has beside its links: a link may not take one of their names. */
const TRANSACTION_FIELDS = ['id', 'status', 'type', 'subtype', 'network', 'asset', 'amount', 'createdAt'];
const ORDER_FIELDS = ['id', 'orderReference', 'status', 'direction', 'amountFrom', 'amountTo', 'createdAt'];

/** Rules across keys, each issue at the key it is about. */
function crossKeyIssues(profile: OperatorProfile): IssueLike[] {
  const issues: IssueLike[] = [];
  const at = (path: string, message: string) => issues.push({ path: path.split('.'), message });
  for (const name of ROUTE_NAMES) {
    const template = profile.routes[name];
    const placeholders = template.match(/\{[^}]*\}/g) ?? [];
    if (ROUTES_WITH_ID.includes(name) && !(placeholders.length === 1 && placeholders[0] === '{id}'))
      at(`routes.${name}`, 'must hold {id} once (the resource it is about)');
    if (!ROUTES_WITH_ID.includes(name) && placeholders.length > 0)
      at(`routes.${name}`, 'takes no placeholder');
  }
  const sameAsEarlier = (path: string, entries: Array<[string, string]>, what: string) => {
    entries.forEach(([key, value], index) => {
      const earlier = entries.slice(0, index).find(([, other]) => other === value);
      if (earlier) at(`${path}.${key}`, `the same ${what} as ${earlier[0]}: each must be told apart`);
    });
  };
  sameAsEarlier(
    'csrfHeaderNames',
    profile.csrfHeaderNames.map((name, index) => [String(index), name]),
    'header name',
  );
  sameAsEarlier('login.fields', Object.entries(profile.login.fields), 'field name');
  if (profile.paging.pageParam === profile.paging.limitParam)
    at('paging.limitParam', 'must differ from paging.pageParam');
  if (profile.paging.defaultLimit > profile.paging.maxLimit)
    at('paging.defaultLimit', 'must not exceed paging.maxLimit');
  const { statuses } = profile.errors;
  if (statuses.notFound === statuses.unauthenticated || statuses.notFound === statuses.csrf)
    at('errors.statuses.notFound', 'must differ from the statuses of a refused token or CSRF value');
  sameAsEarlier(
    'vocabulary.transactionStatuses',
    Object.entries(profile.vocabulary.transactionStatuses),
    'word',
  );
  sameAsEarlier('vocabulary.orderStatuses', Object.entries(profile.vocabulary.orderStatuses), 'word');
  sameAsEarlier('vocabulary.orderDirections', Object.entries(profile.vocabulary.orderDirections), 'word');
  sameAsEarlier(
    'vocabulary.transactionKinds',
    Object.entries(profile.vocabulary.transactionKinds).map(([kind, words]) => [
      kind,
      `${words.type}/${words.subtype ?? '*'}`,
    ]),
    'type and subtype',
  );
  sameAsEarlier('links.transaction', Object.entries(profile.links.transaction), 'field name');
  for (const [link, name] of Object.entries(profile.links.transaction))
    if (TRANSACTION_FIELDS.includes(name))
      at(`links.transaction.${link}`, `${name} is another field of a transaction`);
  if (ORDER_FIELDS.includes(profile.links.order.transactionId))
    at('links.order.transactionId', `${profile.links.order.transactionId} is another field of an order`);
  return issues;
}

/** The profile a parsed JSON value describes, or the issues that stop it (each with the key it is about). */
export function parseOperatorProfile(
  json: unknown,
): { profile: OperatorProfile; issues?: undefined } | { issues: IssueLike[] } {
  const override = profileOverride.safeParse(json);
  if (!override.success) return { issues: override.error.issues };
  const { $comment: _comment, ...parts } = override.data;
  const profile = merged(DEFAULT_OPERATOR_PROFILE, parts) as OperatorProfile;
  const issues = crossKeyIssues(profile);
  return issues.length > 0 ? { issues } : { profile };
}

/** Reads and checks a profile file; throws an Error naming the file and every bad key. */
export function readOperatorProfile(file: string): OperatorProfile {
  const result = operatorProfileFile().safeParse(file);
  if (result.success) return result.data;
  const lines = result.error.issues.map(
    (issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`,
  );
  throw new Error(`Invalid operator profile ${file}:\n  ${lines.join('\n  ')}`);
}

/**
 * The setting's field: a path to a profile file (unset: the defaults). Its issues carry the profile key as their
 * path, so the configuration error reads `OPERATOR_PROFILE.vocabulary.orderStatuses.executed: ...`.
 */
export function operatorProfileFile() {
  return z
    .string()
    .optional()
    .transform((file, ctx): OperatorProfile => {
      if (file === undefined || file.trim() === '') return DEFAULT_OPERATOR_PROFILE;
      let json: unknown;
      try {
        json = JSON.parse(readFileSync(file, 'utf8'));
      } catch (error) {
        const reason = (error as NodeJS.ErrnoException).code ?? 'not JSON';
        ctx.addIssue({ code: 'custom', message: `cannot read the profile file ${file} (${reason})` });
        return z.NEVER;
      }
      const parsed = parseOperatorProfile(json);
      if (parsed.issues) {
        for (const issue of parsed.issues)
          ctx.addIssue({ code: 'custom', path: [...issue.path], message: issue.message });
        return z.NEVER;
      }
      return parsed.profile;
    });
}
