import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';

/**
 * Runs a Temporal client call that can wait on a workflow (an update, a query) so that it ends when this activity
 * is cancelled: on worker shutdown, timeout or workflow cancellation the call is aborted instead of holding the
 * worker open until it answers.
 */
export function cancellable<T>(temporal: Client, call: () => Promise<T>): Promise<T> {
  // Outside an activity (the outcome dispatcher) there is nothing to be cancelled by.
  let signal: AbortSignal;
  try {
    signal = Context.current().cancellationSignal;
  } catch {
    return call();
  }
  return temporal.withAbortSignal(signal, call);
}
