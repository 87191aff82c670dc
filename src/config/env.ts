import { z } from 'zod';
import { DECIMAL_PATTERN } from '../domain/decimal';
import { formatIssues } from '../domain/errors';
import { withSecretFiles } from './secret-files';

export type Env = Record<string, string | undefined>;

/** Sandbox mode: no real operator configured. */
export function isSandboxMode(env: Env): boolean {
  return !env.OPERATOR_BASE_URL || env.OPERATOR_BASE_URL.trim() === '';
}

/**
 * Parses one configuration section from the environment and fails with every problem listed at once. A secret of
 * the section may be given as a file (`<NAME>_FILE`, src/config/secret-files.ts).
 */
export function parseSection<T extends z.ZodType & { shape: Record<string, z.ZodType> }>(
  section: string,
  schema: T,
  env: Env,
): z.output<T> {
  const files = withSecretFiles(schema.shape, env);
  const result = schema.safeParse(files.env);
  const problems = [
    ...files.problems.map((problem) => `  ${problem}`),
    ...(result.success ? [] : formatIssues(result.error.issues, '  ')),
  ];
  if (problems.length > 0 || !result.success)
    throw new Error(`Invalid ${section} configuration:\n${problems.join('\n')}`);
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
