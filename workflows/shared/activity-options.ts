import type { ActivityOptions } from '@temporalio/workflow';
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
