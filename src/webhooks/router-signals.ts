/**
 * The receiver's signals to the webhook routers, one in flight per router (group commit). A delivery for a router
 * whose previous signal is still on its way waits for it, then goes with every other delivery that waited, in one
 * signal: under load a router takes one signal per round trip instead of one per delivery, so its rate does not run
 * into what the server serves to one workflow. Each delivery is answered only when the signal that carries it returned,
 * so nothing is answered 200 before it is in Temporal; one that waited past its own deadline is never sent.
 */

/** Deliveries one signal carries at most (a few hundred bytes each, far under the server's payload limit). */
export const MAX_DELIVERIES_PER_SIGNAL = 100;

/** A delivery waiting for its router's signal. */
interface Waiting<D> {
  delivery: D;
  deadlineMs: number;
  sent: () => void;
  failed: (error: unknown) => void;
}

/** Thrown to a delivery whose deadline passed while its router's previous signal was still on its way. */
export class RouterSignalDeadlineError extends Error {
  override readonly name = 'RouterSignalDeadlineError';
  constructor(router: string) {
    super(`The previous signal to ${router} was still on its way at this delivery's deadline`);
  }
}

export class RouterSignals<D> {
  private readonly waiting = new Map<string, Waiting<D>[]>();

  /**
   * `signal` sends deliveries to a router (one signal, answered before `deadlineMs`); `maxPerSignal` bounds one
   * signal's payload.
   */
  constructor(
    private readonly signal: (router: string, deliveries: D[], deadlineMs: number) => Promise<void>,
    private readonly maxPerSignal = MAX_DELIVERIES_PER_SIGNAL,
  ) {}

  /** Resolves once a signal carrying the delivery returned; rejects with that signal's error, or at the deadline. */
  send(router: string, delivery: D, deadlineMs: number): Promise<void> {
    return new Promise<void>((sent, failed) => {
      const queue = this.waiting.get(router);
      const waiting: Waiting<D> = { delivery, deadlineMs, sent, failed };
      if (queue) queue.push(waiting);
      else {
        this.waiting.set(router, [waiting]);
        void this.drain(router);
      }
    });
  }

  /** Sends the router's waiting deliveries, a signal at a time, until none wait. */
  private async drain(router: string): Promise<void> {
    const queue = this.waiting.get(router)!;
    while (queue.length > 0) {
      const now = Date.now();
      const batch = queue.splice(0, this.maxPerSignal).filter((waiting) => {
        if (waiting.deadlineMs > now) return true;
        waiting.failed(new RouterSignalDeadlineError(router));
        return false;
      });
      if (batch.length === 0) continue;
      const deadlineMs = Math.min(...batch.map((waiting) => waiting.deadlineMs));
      try {
        await this.signal(
          router,
          batch.map((waiting) => waiting.delivery),
          deadlineMs,
        );
        for (const waiting of batch) waiting.sent();
      } catch (error) {
        for (const waiting of batch) waiting.failed(error);
      }
    }
    this.waiting.delete(router);
  }
}
