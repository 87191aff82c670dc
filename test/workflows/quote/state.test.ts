import type { WorkflowTimings } from '../../../src/domain/timings';
import { quoteActivityBudget } from '../../../workflows/quote/state';

const timings = (activityStartToCloseMs: number, activityScheduleToCloseMs: number, quoteTtlMs: number) =>
  ({ activityStartToCloseMs, activityScheduleToCloseMs, quoteTtlMs }) as WorkflowTimings;

describe('quote activity budget', () => {
  test("a quote that lives longer than the activity's budget keeps the activity timeouts", () => {
    expect(quoteActivityBudget(timings(10_000, 60_000, 300_000))).toEqual({
      startToCloseTimeout: 10_000,
      scheduleToCloseTimeout: 60_000,
    });
  });

  test("a short-lived quote caps the whole budget and every attempt at the quote's life", () => {
    expect(quoteActivityBudget(timings(10_000, 60_000, 30_000))).toEqual({
      startToCloseTimeout: 10_000,
      scheduleToCloseTimeout: 30_000,
    });
    expect(quoteActivityBudget(timings(10_000, 60_000, 4_000))).toEqual({
      startToCloseTimeout: 4_000,
      scheduleToCloseTimeout: 4_000,
    });
  });
});
