import { z } from 'zod';
import { InvalidInputError } from './errors';

/** End user IDs become workflow IDs people type into the Web UI: keep them readable and safe. */
export const endUserIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/, 'must be 1-128 characters of letters, digits and . _ : @ -');

export function parseEndUserId(value: unknown): string {
  const result = endUserIdSchema.safeParse(value);
  if (!result.success) throw new InvalidInputError('Invalid end user ID', result.error.issues.map((issue) => issue.message));
  return result.data;
}

export const endUserWorkflowId = (endUserId: string) => `end-user/${endUserId}`;
export const ACCOUNT_SETUP_WORKFLOW_ID = 'account-setup';
