import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';
import type { WorkflowTimings } from '../../src/domain/timings';

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
      backoffCoefficient: 2,
      nonRetryableErrorTypes: ['OperatorRejected', 'InvalidInput'],
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
