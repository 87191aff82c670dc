/**
 * The clock of a ramp process's steps: when the process started, when its current step started, and the poll
 * backoff. One wait of the loop is one timer, cancelled by an event. The only file in ramps/shared that calls
 * Temporal; the timing rules themselves are in step-timing.ts.
 */
import { condition } from '@temporalio/workflow';
import type { WorkflowTimings } from '../../../src/domain/timings';
import { nextPollDelayMs, nextStepWait } from './step-timing';

/** What a wait ended with: an event or a deadline not yet due (look again), or a late step (poll now). */
export type StepWaitOutcome = { poll: false } | { poll: true; late: boolean };

export class StepClock {
  private stepStartedMs: number;
  private pollDelayMs: number;

  constructor(
    private readonly timings: WorkflowTimings,
    readonly startedAtMs: number,
  ) {
    this.stepStartedMs = startedAtMs;
    this.pollDelayMs = timings.pollInitialMs;
  }

  /** A new step: its deadline counts from now, and the poll backoff starts over. */
  stepStarted(): void {
    this.stepStartedMs = Date.now();
    this.pollDelayMs = this.timings.pollInitialMs;
  }

  processTimedOut(): boolean {
    return Date.now() - this.startedAtMs >= this.timings.processTimeoutMs;
  }

  /**
   * Waits for an event (the revision moves), the step's deadline, or a poll interval once the step is late.
   * `canPoll` is read before and after the wait: between the two it can only change through an event.
   * `beforeWait` (the ledger's write) runs after the revision is taken, so an event it overlaps still ends the wait.
   */
  async waitForEventOrDeadline(
    revision: () => number,
    canPoll: () => boolean,
    beforeWait?: () => Promise<void>,
  ): Promise<StepWaitOutcome> {
    const { deadlineMs, late, waitMs } = nextStepWait(
      this.timings,
      { startedAtMs: this.startedAtMs, stepStartedMs: this.stepStartedMs, pollDelayMs: this.pollDelayMs },
      { canPoll: canPoll() },
    );
    const seen = revision();
    if (beforeWait) await beforeWait();
    if (await condition(() => revision() !== seen, waitMs)) return { poll: false };
    if (!canPoll() || Date.now() < deadlineMs) return { poll: false };
    return { poll: true, late };
  }

  /** After a poll: a late step doubles its poll interval (up to the maximum). */
  afterPoll(late: boolean): void {
    if (late) this.pollDelayMs = nextPollDelayMs(this.timings, this.pollDelayMs);
  }
}
