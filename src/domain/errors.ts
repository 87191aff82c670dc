/**
 * How errors become text. Workflow-safe, and free of zod so that configuration can use it too (issues are typed
 * by their shape).
 */

/** The message of anything thrown: an Error's message, otherwise its string form. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Why a caught failure happened: the messages of its cause chain, outermost first. The outermost error is left out
 * when it has a cause, because there it is Temporal's wrapper around an activity's or a child's failure, whose own
 * message ("Activity task failed") says nothing a person can act on.
 */
export function failureReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const messages: string[] = [];
  for (let cause: unknown = error.cause ?? error; cause instanceof Error; cause = cause.cause) {
    if (cause.message && !messages.includes(cause.message)) messages.push(cause.message);
  }
  return messages.length > 0 ? messages.join(': ') : error.message;
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
