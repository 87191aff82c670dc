import type { ActivityOptions } from '@temporalio/workflow';
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
