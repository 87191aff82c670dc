import { ApplicationFailure } from '@temporalio/activity';
import { OperatorError } from '../../src/operator/errors';

/**
 * Runs one operator call and turns its error into the failure Temporal's retry policy understands:
 * retryable operator errors are rethrown as retryable, the rest as non-retryable `OperatorRejected`, so a
 * 4xx fails the activity at once instead of burning its schedule-to-close budget.
 */
export async function callOperator<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof OperatorError) {
      throw ApplicationFailure.create({
        type: error.retryable ? 'OperatorUnavailable' : 'OperatorRejected',
        message: error.message,
        nonRetryable: !error.retryable,
        details: [{ operation: error.operation, code: error.code, status: error.status ?? null }],
      });
    }
    throw error;
  }
}
