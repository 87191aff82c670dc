/**
 * Errors the sandbox answers with: the profile's error body (`{ error: { code, message } }` by default) and an HTTP
 * status, the profile's for a refused token or CSRF value and an unknown resource (src/domain/operator-profile.ts).
 * Messages never carry secrets.
 *
 * Not our servers' envelope (src/http/errors.ts) on purpose, even where the shapes coincide: the emulator follows
 * the operator's contract, which our operator client parses, and must change only when the operator's does.
 */
import type { z } from 'zod';
import { formatIssues } from '../domain/errors';
import { bodyWithPaths, type OperatorProfile } from '../domain/operator-profile';

/** A status the profile decides, or a plain HTTP status. */
export type ErrorStatus = number | keyof OperatorProfile['errors']['statuses'];

export class SandboxError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}

export const badRequest = (code: string, message: string) => new SandboxError(400, code, message);
export const notFound = (what: string, id: string) =>
  new SandboxError('notFound', 'not_found', `${what} ${id} was not found`);
export const conflict = (code: string, message: string) => new SandboxError(409, code, message);

/** Parses a request part with a zod schema or throws a 400 that lists every problem. */
export function parseOr400<T extends z.ZodType>(
  schema: T,
  value: unknown,
  what = 'request body',
): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw badRequest('validation_error', `Invalid ${what}: ${formatIssues(result.error.issues).join('; ')}`);
}

/** The status and body an error is answered with under a profile. */
export function errorAnswer(
  error: SandboxError,
  profile: OperatorProfile,
): { status: number; body: Record<string, unknown> } {
  const { body, statuses } = profile.errors;
  return {
    status: typeof error.status === 'number' ? error.status : statuses[error.status],
    body: bodyWithPaths({ [body.code]: error.code, [body.message]: error.message }),
  };
}
