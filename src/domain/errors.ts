/**
 * How errors become text. Workflow-safe, and free of zod so that configuration can use it too (issues are typed
 * by their shape).
 */

/** The message of anything thrown: an Error's message, otherwise its string form. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The parts of a validation issue (a zod issue, for one) that are shown. */
export interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * Validation issues as `path: message` lines (`(root)` for the value itself), each after `prefix`. Messages
 * describe the rule, never the offending value, so the lines may reach logs and answers.
 */
export function formatIssues(issues: readonly IssueLike[], prefix = ''): string[] {
  return issues.map((issue) => `${prefix}${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`);
}
