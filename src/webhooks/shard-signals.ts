/**
 * The receiver's signals to shard routers, one in flight per shard (group commit). A delivery for a shard whose
 * previous signal is still on its way waits for it, then goes with every other delivery that waited, in one signal:
 * under load a shard takes one signal per round trip instead of one per delivery, so its rate no longer runs into
 * what the server serves to one workflow. Each delivery is answered only when the signal that carries it returned,
 * so nothing is answered 200 before it is in Temporal; one that waited past its own deadline is never sent.
 */

/** Deliveries one signal carries at most (a few hundred bytes each, far under the server's payload limit). */
export const MAX_DELIVERIES_PER_SIGNAL = 100;

/** A delivery waiting for its shard's signal. */
interface Waiting<D> {
  delivery: D;
  deadlineMs: number;
  sent: () => void;
  failed: (error: unknown) => void;
}

/** Thrown to a delivery whose deadline passed while its shard's previous signal was still on its way. */
export class ShardSignalDeadlineError extends Error {
  override readonly name = 'ShardSignalDeadlineError';
  constructor(shard: string) {
    super(`The previous signal to ${shard} was still on its way at this delivery's deadline`);
  }
}

export class ShardSignals<D> {
  private readonly waiting = new Map<string, Waiting<D>[]>();

  /**
   * `signal` sends deliveries to a shard (one signal, answered before `deadlineMs`); `maxPerSignal` bounds one
   * signal's payload.
   */
  constructor(
    private readonly signal: (shard: string, deliveries: D[], deadlineMs: number) => Promise<void>,
    private readonly maxPerSignal: number,
  ) {}

  /** Resolves once a signal carrying the delivery returned; rejects with that signal's error, or at the deadline. */
  send(shard: string, delivery: D, deadlineMs: number): Promise<void> {
    return new Promise<void>((sent, failed) => {
      const queue = this.waiting.get(shard);
      const waiting: Waiting<D> = { delivery, deadlineMs, sent, failed };
      if (queue) queue.push(waiting);
      else {
        this.waiting.set(shard, [waiting]);
        void this.drain(shard);
      }
    });
  }

  /** Sends the shard's waiting deliveries, a signal at a time, until none wait. */
  private async drain(shard: string): Promise<void> {
    const queue = this.waiting.get(shard)!;
    while (queue.length > 0) {
      const now = Date.now();
      const batch = queue.splice(0, this.maxPerSignal).filter((waiting) => {
        if (waiting.deadlineMs > now) return true;
        waiting.failed(new ShardSignalDeadlineError(shard));
        return false;
      });
      if (batch.length === 0) continue;
      const deadlineMs = Math.min(...batch.map((waiting) => waiting.deadlineMs));
      try {
        await this.signal(
          shard,
          batch.map((waiting) => waiting.delivery),
          deadlineMs,
        );
        for (const waiting of batch) waiting.sent();
      } catch (error) {
        for (const waiting of batch) waiting.failed(error);
      }
    }
    this.waiting.delete(shard);
  }
}
