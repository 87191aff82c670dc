/**
 * Identifiers that reach us from outside, checked here and nowhere else: end user IDs and order references (the
 * client's backend, through the typed client or the HTTP API), operator resource IDs (webhook payload IDs, deposit
 * transaction IDs), and the path parameters the operator client puts into the operator's routes.
 *
 * The alphabet of an identifier: ASCII letters and digits and `.` `_` `:` `@` `-`, the first character a letter or
 * a digit; 1-128 characters for an end user ID, 1-200 for the others. Why so narrow:
 * - these values become Temporal workflow IDs (`end-user/<id>`, `offramp/<id>`, `onramp/<reference>`), the
 *   routers' resource keys (`transaction/<id>`), visibility values that queries quote, and path segments of operator URLs; so no path
 *   separator (`/`, `\`), no quote, no whitespace, and never `.` or `..` (a URL parser resolves those);
 * - ASCII only gives one spelling per ID (Unicode has several spellings of one visible name, which would be two
 *   workflows and two wallets for one user), is well-formed Unicode by construction (a lone surrogate, which
 *   Temporal refuses, is not in it) and holds no control or format character.
 * Every ID the sandbox issues (UUIDs) fits, and so does every ID the typed client accepted before. One more rule for an
 * end user ID that names a new end user, wallet, deposit quote or ramp: it is never shaped like an e-mail address (no
 * `.` after an `@`), since it becomes part of a workflow ID Temporal shows in clear; reads and filters take any, so
 * that an end user named so before stays readable.
 *
 * Issues name the rule, never the value: they may reach logs, answers and workflow history.
 */
import { z } from 'zod';
import { InvalidInputError } from './errors';

/** `resource ID`: any ID the operator issues (webhook payload IDs); a deposit transaction ID is one of them. */
export type IdentifierKind = 'end user ID' | 'order reference' | 'resource ID' | 'deposit transaction ID';

export const MAX_IDENTIFIER_LENGTH: Record<IdentifierKind, number> = {
  'end user ID': 128,
  'order reference': 200,
  'resource ID': 200,
  'deposit transaction ID': 200,
};

export const IDENTIFIER_ALPHABET = 'ASCII letters, digits and . _ : @ -, starting with a letter or digit';

/** The whole rule once the length is right: it leaves out separators, controls, `.` and `..` and all non-ASCII. */
const ALPHABET = /^[A-Za-z0-9][A-Za-z0-9._:@-]*$/;
// With the u flag a lone surrogate is the code point U+D800..U+DFFF, i.e. category Cs.
const LONE_SURROGATE = /\p{Cs}/u;
const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** An end user ID shaped like an e-mail address has a `.` after an `@`: this one has none. */
const NOT_AN_EMAIL_ADDRESS = /^[A-Za-z0-9][A-Za-z0-9._:-]*(?:@[A-Za-z0-9_:@-]*)?$/;

/** The first rule `value` breaks, or undefined when it is a valid identifier of that kind. */
export function identifierIssue(value: unknown, kind: IdentifierKind): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  const max = MAX_IDENTIFIER_LENGTH[kind];
  if (value.length === 0 || value.length > max) return `must be 1-${max} characters`;
  if (LONE_SURROGATE.test(value)) return 'must be well-formed Unicode (no lone surrogate)';
  if (CONTROL_OR_FORMAT.test(value)) return 'must not contain control or format characters';
  if (/[/\\]/.test(value)) return 'must not contain a path separator (/ or \\)';
  if (value === '.' || value === '..') return 'must not be . or ..';
  if (!ALPHABET.test(value)) return `must be ${IDENTIFIER_ALPHABET}`;
  return undefined;
}

/** The first rule an end user ID for something new breaks: an identifier's, then the e-mail rule. */
export function newEndUserIdIssue(value: unknown): string | undefined {
  const issue = identifierIssue(value, 'end user ID');
  if (issue !== undefined || NOT_AN_EMAIL_ADDRESS.test(value as string)) return issue;
  return 'must not be an e-mail address (no . after an @): the ID is shown in clear, use an opaque one such as your user UUID';
}

export function isIdentifier(value: unknown, kind: IdentifierKind): value is string {
  return identifierIssue(value, kind) === undefined;
}

/**
 * A zod field for an identifier: its length and alphabet as zod's own checks, so that the OpenAPI document
 * publishes them (minLength, maxLength, pattern), with the message of the first rule broken (one issue at most).
 */
export function identifierSchema(kind: IdentifierKind) {
  return checkedString(MAX_IDENTIFIER_LENGTH[kind], ALPHABET, (value) => identifierIssue(value, kind));
}

function checkedString(max: number, pattern: RegExp, issueOf: (value: unknown) => string | undefined) {
  const message = { error: (issue: { input?: unknown }) => issueOf(issue.input), abort: true };
  return z.string({ error: 'must be a string' }).min(1, message).max(max, message).regex(pattern, message);
}

/** The identifier, or InvalidInputError (`Invalid <kind>`, with the broken rule as its issue). */
export function parseIdentifier(value: unknown, kind: IdentifierKind): string {
  return checked(value, kind, identifierIssue(value, kind));
}

function checked(value: unknown, kind: IdentifierKind, issue: string | undefined): string {
  if (issue) throw new InvalidInputError(`Invalid ${kind}`, [`${kind}: ${issue}`]);
  return value as string;
}

export const endUserIdSchema = identifierSchema('end user ID');
export const parseEndUserId = (value: unknown): string => parseIdentifier(value, 'end user ID');
/** An end user ID that names a new end user, deposit quote or ramp (never an e-mail address's shape). */
export const newEndUserIdSchema = checkedString(
  MAX_IDENTIFIER_LENGTH['end user ID'],
  NOT_AN_EMAIL_ADDRESS,
  newEndUserIdIssue,
);
export const parseNewEndUserId = (value: unknown): string =>
  checked(value, 'end user ID', newEndUserIdIssue(value));
export const parseOrderReference = (value: unknown): string => parseIdentifier(value, 'order reference');
export const parseResourceId = (value: unknown): string => parseIdentifier(value, 'resource ID');

// ---------------------------------------------------------------------------------------------- route parameters

/**
 * Why a value cannot be a path parameter of an operator route, or undefined. Looser than the identifier rule (the
 * operator may issue IDs outside our alphabet, and encoding makes any text safe), except for what encoding cannot
 * neutralise: `.` and `..` (URL parsers resolve them whatever their spelling) and text that is not well-formed
 * Unicode (it has no UTF-8 form to encode). Control characters are refused as well: no operator ID holds them.
 */
export function routeParameterIssue(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return 'must be a non-empty string';
  if (value.length > 1000) return 'must be at most 1000 characters';
  if (LONE_SURROGATE.test(value)) return 'must be well-formed Unicode (no lone surrogate)';
  if (CONTROL_OR_FORMAT.test(value)) return 'must not contain control or format characters';
  if (value === '.' || value === '..') return 'must not be . or ..';
  return undefined;
}

export class RouteParameterError extends Error {
  override readonly name = 'RouteParameterError';
  constructor(
    readonly parameter: string,
    readonly issue: string,
  ) {
    super(`${parameter}: ${issue}`);
  }
}

/**
 * `value` as exactly one path segment that cannot change the route: everything but letters, digits and
 * `- _ . ! ~ * ' ( )` is percent-encoded (so `/`, `\`, `%`, `?` and `#` are data, and `%2e%2e` stays the text
 * `%2e%2e`), and the values encoding cannot neutralise are refused (RouteParameterError).
 */
export function encodeRouteParameter(name: string, value: string): string {
  const issue = routeParameterIssue(value);
  if (issue) throw new RouteParameterError(name, issue);
  return encodeURIComponent(value);
}
