/**
 * Every timer of the sandbox goes through here: delays of the simulation are multiplied by the time
 * scale, and close() clears whatever is still pending so the process (and jest) can exit.
 */
import type { Logger } from 'pino';

export class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly timeScale: number,
    private readonly logger: Logger,
  ) {}

  /** Real milliseconds for a simulated duration. */
  scaled(ms: number): number {
    return Math.max(0, Math.round(ms * this.timeScale));
  }

  /** Runs `task` after the simulated duration `ms` (multiplied by the time scale). */
  after(ms: number, task: () => void | Promise<void>): void {
    this.afterReal(this.scaled(ms), task);
  }

  /** Runs `task` after `ms` wall-clock milliseconds (not scaled). */
  afterReal(ms: number, task: () => void | Promise<void>): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.closed) return;
      try {
        const result = task();
        if (result instanceof Promise)
          result.catch((error: unknown) => this.logger.error({ err: error }, 'scheduled task failed'));
      } catch (error) {
        this.logger.error({ err: error }, 'scheduled task failed');
      }
    }, ms);
    this.timers.add(timer);
  }

  get pending(): number {
    return this.timers.size;
  }

  /** Cancels every pending timer (used by reset); the scheduler stays usable. */
  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  close(): void {
    this.closed = true;
    this.clear();
  }
}
