/**
 * Errors the sandbox answers with: `{ error: { code, message } }` and an HTTP status (the operator's ASSUMED error
 * body and statuses, src/domain/operator-routes.ts). Messages never carry secrets.
 *
 * Not our servers' envelope (src/http/errors.ts) on purpose, even where the shapes coincide: the emulator follows
 * the operator's contract, which our operator client parses, and must change only when the operator's does.
 */
import type { z } from 'zod';
import { formatIssues } from '../domain/errors';
import { ERROR_STATUSES } from '../domain/operator-routes';

export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}

export const badRequest = (code: string, message: string) =>
  new SandboxError(ERROR_STATUSES.validation, code, message);
export const notFound = (what: string, id: string) =>
  new SandboxError(ERROR_STATUSES.notFound, 'not_found', `${what} ${id} was not found`);
export const conflict = (code: string, message: string) =>
  new SandboxError(ERROR_STATUSES.conflict, code, message);

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

export const errorBodyOf = (error: SandboxError) => ({ error: { code: error.code, message: error.message } });
