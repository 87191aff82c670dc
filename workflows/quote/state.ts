/** Pure rules of the quote workflow. Workflow-safe: no Temporal calls. */
import type { WorkflowTimings } from '../../src/domain/timings';

/**
 * The Create quote activity's timeouts: its whole budget is the quote's own life (an answer later than that is of
 * no use to the waiting caller), and one attempt never outlasts the budget.
 */
export function quoteActivityBudget(timings: WorkflowTimings): {
  startToCloseTimeout: number;
  scheduleToCloseTimeout: number;
} {
  const budgetMs = Math.min(timings.activityScheduleToCloseMs, timings.quoteTtlMs);
  return {
    startToCloseTimeout: Math.min(timings.activityStartToCloseMs, budgetMs),
    scheduleToCloseTimeout: budgetMs,
  };
}
