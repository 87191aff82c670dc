import { z } from 'zod';
import { DECIMAL_PATTERN } from '../domain/decimal';
import { formatIssues } from '../domain/errors';

export type Env = Record<string, string | undefined>;

/** Sandbox mode: no real operator configured. */
export function isSandboxMode(env: Env): boolean {
  return !env.OPERATOR_BASE_URL || env.OPERATOR_BASE_URL.trim() === '';
}

/** Parses one configuration section from the environment and fails with every problem listed at once. */
export function parseSection<T extends z.ZodType>(section: string, schema: T, env: Env): z.output<T> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = formatIssues(result.error.issues, '  ');
    throw new Error(`Invalid ${section} configuration:\n${problems.join('\n')}`);
  }
  return result.data;
}

/** "true"/"1"/"yes" and "false"/"0"/"no" from the environment. */
export const booleanFlag = (defaultValue: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((value) => (value === undefined ? defaultValue : ['true', '1', 'yes'].includes(value)));

export const port = (defaultPort: number) => z.coerce.number().int().min(0).max(65535).default(defaultPort);

/** A non-negative decimal string (amounts are never numbers), with a default; `example` shows the form. */
export const decimalText = (defaultValue: string, example = '0.5') =>
  z.string().regex(DECIMAL_PATTERN, `must be a decimal string such as "${example}"`).default(defaultValue);
