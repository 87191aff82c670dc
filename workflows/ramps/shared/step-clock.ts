/**
 * The clock of a ramp process's steps: when the process started, when its current step started, and the poll
 * backoff. The only file in ramps/shared that calls Temporal; the timing rules themselves are in step-timing.ts.
 *
 * A run from a 1.0 history starts one timer per wait, cancelled by an event. A run that records into the ledger keeps
 * its timers: a wait starts one only when none already started fires by its wake-up, and one that fires early just
 * wakes the loop to look again. Every timer is a billable action, and a ramp that moves faster than its deadlines
 * then starts one in all.
 */
import { condition, sleep } from '@temporalio/workflow';
import type { WorkflowTimings } from '../../../src/domain/timings';
import { nextPollDelayMs, nextStepWait } from './step-timing';

/** What a wait ended with: an event or a deadline not yet due (look again), or a late step (poll now). */
export type StepWaitOutcome = { poll: false } | { poll: true; late: boolean };

export class StepClock {
  private stepStartedMs: number;
  private pollDelayMs: number;
  /**
   * When each kept timer fires, or undefined in a run with a timer per wait. A timer is started only when it fires
   * before every one pending, and leaves once fired, so the list holds a handful at most.
   */
  private readonly alarms: number[] | undefined;
  private rings = 0;

  constructor(
    private readonly timings: WorkflowTimings,
    readonly startedAtMs: number,
    options: { keepsTimers: boolean },
  ) {
    this.stepStartedMs = startedAtMs;
    this.pollDelayMs = timings.pollInitialMs;
    this.alarms = options.keepsTimers ? [] : undefined;
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
    if (await this.wait(() => revision() !== seen, waitMs)) return { poll: false };
    if (!canPoll() || Date.now() < deadlineMs) return { poll: false };
    return { poll: true, late };
  }

  /** True when `woken` ended the wait, false when a timer did. */
  private async wait(woken: () => boolean, waitMs: number): Promise<boolean> {
    const alarms = this.alarms;
    if (!alarms) return condition(woken, waitMs);
    const wakeAtMs = Date.now() + waitMs;
    if (!alarms.some((atMs) => atMs <= wakeAtMs)) {
      alarms.push(wakeAtMs);
      sleep(waitMs)
        .then(() => {
          alarms.splice(alarms.indexOf(wakeAtMs), 1);
          this.rings += 1;
        })
        // Only a cancelled run cancels it, and that run's wait ends with the cancellation itself.
        .catch(() => undefined);
    }
    const rings = this.rings;
    await condition(() => woken() || this.rings !== rings);
    return woken();
  }

  /** After a poll: a late step doubles its poll interval (up to the maximum). */
  afterPoll(late: boolean): void {
    if (late) this.pollDelayMs = nextPollDelayMs(this.timings, this.pollDelayMs);
  }
}
