/**
 * Errors the sandbox answers with: `{ error: { code, message } }` and an HTTP status
 * (the ASSUMED error body of src/operator/assumptions.ts). Messages never carry secrets.
 */
import type { z } from 'zod';
import { ERROR_STATUSES } from '../operator/assumptions';

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
  const problems = result.error.issues.map(
    (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
  );
  throw badRequest('validation_error', `Invalid ${what}: ${problems.join('; ')}`);
}

export const errorBodyOf = (error: SandboxError) => ({ error: { code: error.code, message: error.message } });
