/**
 * A lane whose resource the operator does not know. The operator's read can lag its own webhook for a moment,
 * so a 404 is read again; but a resource it never knows (a forged or misrouted event) must not keep a lane
 * re-reading for the whole process timeout. Pure rules, workflow-safe.
 */
import type { WorkflowTimings } from '../../../src/domain/timings';
import type { LaneState } from './types';

/**
 * True when a failed activity is the operator's answer that the resource does not exist: the `not_found` code
 * activities/shared/operator-failure.ts puts in the details, whatever status the operator profile gives it.
 */
export function isOperatorNotFound(error: unknown): boolean {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause) {
    const failure = cause as { type?: unknown; details?: unknown };
    if (failure.type === 'OperatorRejected' && Array.isArray(failure.details)) {
      return failure.details.some(
        (detail) =>
          typeof detail === 'object' &&
          detail !== null &&
          (detail as { code?: unknown }).code === 'not_found',
      );
    }
  }
  return false;
}

/**
 * The wait before the next read of an unknown resource: doubling without the poll maximum, so the reads of one
 * lane are logarithmic in the timeout (a rate limit per process), and never past the give-up time.
 */
export function unknownResourceRetry(
  timings: WorkflowTimings,
  clock: { firstNotFoundAtMs: number; delayMs: number; nowMs: number },
): { giveUp: boolean; waitMs: number; nextDelayMs: number } {
  const remainingMs = clock.firstNotFoundAtMs + timings.unknownResourceTimeoutMs - clock.nowMs;
  if (remainingMs <= 0) return { giveUp: true, waitMs: 0, nextDelayMs: clock.delayMs };
  return {
    giveUp: false,
    waitMs: Math.max(1, Math.min(clock.delayMs, remainingMs)),
    nextDelayMs: clock.delayMs * 2,
  };
}

/** Counts one more 404 read; the first one records since when the operator has not known the resource. */
export function recordNotFound(
  state: LaneState,
  firstNotFoundAtMs: number,
): NonNullable<LaneState['unknownResource']> {
  const unknown = (state.unknownResource ??= {
    firstNotFoundAt: new Date(firstNotFoundAtMs).toISOString(),
    reads: 0,
  });
  unknown.reads += 1;
  return unknown;
}

/** Records that the lane gave up (after recordNotFound) and answers why. */
export function recordGiveUp(
  state: LaneState,
  timings: WorkflowTimings,
  dropped: number,
  at: string,
): string {
  const unknown = state.unknownResource!;
  unknown.gaveUpAt = at;
  unknown.eventsDropped = dropped;
  return `the operator answered 404 for ${state.kind} ${state.resourceId} for ${Math.round(timings.unknownResourceTimeoutMs / 1000)} s (${unknown.reads} reads): gave up`;
}
