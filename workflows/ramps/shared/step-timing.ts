/**
 * Timing shared by the ramp processes: how long to wait for the next event of a step before polling the operator,
 * and the poll backoff. Pure functions of the process's clock (Date.now() is deterministic in workflow code).
 */
import type { WorkflowTimings } from '../../../src/domain/timings';
import { failureReason } from '../../../src/domain/errors';

export interface StepWait {
  /** When the current step's next event is due. */
  deadlineMs: number;
  /** True once the deadline has passed: the process polls with backoff. */
  late: boolean;
  /** How long to wait for an event before acting: until the deadline, a poll interval, or the process timeout. */
  waitMs: number;
}

export function nextStepWait(
  timings: WorkflowTimings,
  clock: { startedAtMs: number; stepStartedMs: number; pollDelayMs: number },
  options: { canPoll: boolean } = { canPoll: true },
): StepWait {
  const now = Date.now();
  const deadlineMs = clock.stepStartedMs + timings.stepDeadlineMs;
  const late = now >= deadlineMs;
  const remainingMs = clock.startedAtMs + timings.processTimeoutMs - now;
  // Without anything to poll the process can only wait for an event (or its timeout).
  const untilNextAction = !options.canPoll ? remainingMs : late ? clock.pollDelayMs : deadlineMs - now;
  return { deadlineMs, late, waitMs: Math.max(1, Math.min(untilNextAction, remainingMs)) };
}

export function nextPollDelayMs(timings: WorkflowTimings, current: number): number {
  return Math.min(current * 2, timings.pollMaximumMs);
}

/** What a process shows (state.lastFailure) when an operator read failed and it will try again. */
export function failureNote(what: string, error: unknown): { what: string; message: string; at: string } {
  return { what, message: failureReason(error), at: new Date().toISOString() };
}
