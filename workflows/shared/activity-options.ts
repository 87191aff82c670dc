import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';
import type { WorkflowTimings } from '../../src/domain/timings';

/** Failure types the operator retry policy never retries: a 4xx answer, or input no attempt can fix. */
export const OPERATOR_NON_RETRYABLE_ERROR_TYPES: readonly string[] = ['OperatorRejected', 'InvalidInput'];

/** Each retry of an operator call waits this many times longer than the one before, up to the maximum. */
export const OPERATOR_BACKOFF_COEFFICIENT = 2;

/**
 * Retry policy for operator calls: network faults, timeouts, 429 and 5xx are retried with exponential backoff
 * (the activity layer throws them as retryable failures); 4xx answers are thrown as non-retryable and fail at once.
 */
export function operatorActivityOptions(
  timings: WorkflowTimings,
  options: { heartbeat?: boolean } = {},
): ActivityOptions {
  return {
    startToCloseTimeout: timings.activityStartToCloseMs,
    scheduleToCloseTimeout: timings.activityScheduleToCloseMs,
    heartbeatTimeout: options.heartbeat ? timings.activityHeartbeatMs : undefined,
    retry: {
      initialInterval: timings.activityRetryInitialMs,
      maximumInterval: timings.activityRetryMaximumMs,
      backoffCoefficient: OPERATOR_BACKOFF_COEFFICIENT,
      nonRetryableErrorTypes: [...OPERATOR_NON_RETRYABLE_ERROR_TYPES],
    },
  };
}

/**
 * The same budget for an operator call run as a local activity: executed by the worker inside the workflow task
 * that asks for it, recorded as a marker, with no activity task through the server. Only router runs started while
 * routers used local activities take it now, on replay (docs/architecture.md, "A router's hop stays in scheduled
 * activities").
 *
 * Every retry waits on a workflow timer (`localRetryThreshold` 0), not inside the worker: a schedule-to-close
 * deadline that passes while the worker backs off locally is lost (sdk-core 1.24 checks it only on an attempt in
 * flight or a newly scheduled one), so local backoff would retry past the budget, holding the workflow task open
 * and its queries unanswered, for as long as the operator fails. A failed attempt is also a marker in the history.
 */
export function operatorLocalActivityOptions(timings: WorkflowTimings): LocalActivityOptions {
  const { startToCloseTimeout, scheduleToCloseTimeout, retry } = operatorActivityOptions(timings);
  return { startToCloseTimeout, scheduleToCloseTimeout, retry, localRetryThreshold: 0 };
}
