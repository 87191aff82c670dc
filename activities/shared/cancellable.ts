import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';

/**
 * Runs a Temporal client call that can wait on a workflow (an update, a query) so that it ends when this activity
 * is cancelled: on worker shutdown, timeout or workflow cancellation the call is aborted instead of holding the
 * worker open until it answers.
 */
export function cancellable<T>(temporal: Client, call: () => Promise<T>): Promise<T> {
  return temporal.withAbortSignal(Context.current().cancellationSignal, call);
}
