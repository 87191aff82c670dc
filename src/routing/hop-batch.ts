/**
 * A router's batch of hops in one activity task (routeEvents): each hop is the whole hop on its own, side by side,
 * and fails on its own. A failure is part of the answer, for the router to retry that hop alone; one hop that hangs is
 * reported failed before the task's own start-to-close, so the others' answers are not thrown away with it.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { errorMessage } from '../domain/errors';
import type {
  HopFailure,
  HopResult,
  RoutedEvent,
  RouteEventInput,
  RouteEventsInput,
} from '../../workflows/ramps/router/types';

/** The share of the task's start-to-close a hop may take before it is reported failed (and retried). */
export const HOP_DEADLINE_SHARE = 0.8;

/** A hop's error as routeEvent's activity would have failed with it (the operator's type and details kept). */
export function hopFailure(error: unknown): HopFailure {
  if (error instanceof ApplicationFailure)
    return {
      type: error.type ?? 'Error',
      message: error.message,
      nonRetryable: error.nonRetryable === true,
      ...(error.details?.length ? { details: [...error.details] } : {}),
    };
  return {
    type: error instanceof Error ? error.name : 'Error',
    message: errorMessage(error),
    nonRetryable: false,
  };
}

/** Settles with the call's answer, or rejects once `deadlineMs` passes without one. */
async function withinDeadline<T>(call: Promise<T>, deadlineMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          ApplicationFailure.retryable(`Hop did not finish within ${deadlineMs} ms`, 'HopDeadlineExceeded'),
        ),
      deadlineMs,
    );
  });
  try {
    return await Promise.race([call, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Routes every hop of the batch with `routeEvent`, each answered in the order asked. */
export function routeEachHop(
  routeEvent: (input: RouteEventInput) => Promise<RoutedEvent>,
  { timings, hops }: RouteEventsInput,
  deadlineMs: number,
): Promise<HopResult[]> {
  return Promise.all(
    hops.map((hop) =>
      withinDeadline(routeEvent({ ...hop, timings }), deadlineMs).then(
        (routed): HopResult => ({ routed }),
        (error: unknown): HopResult => ({ failed: hopFailure(error) }),
      ),
    ),
  );
}
