/**
 * A shard router holds the deliveries of many resources, so unlike a router per resource its history can grow
 * without bound while no worker runs it (workers down, or a workflow task that keeps failing): past the server's
 * hard limit (51,200 events) the server would terminate it with the deliveries it holds. A shard continues as new
 * long before that when its worker keeps up (SHARD_HISTORY_EVENTS), so a history far past that point means it is
 * not being run. While a shard's history is that long, or while its memo says it holds as many resources as it
 * should (MAX_SHARD_LANES: lanes carried over continue-as-new must fit its input), the receiver sends its resources'
 * deliveries to routers of their own instead: nothing accepted waits in a workflow the server may end or overfill.
 */
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { Logger } from 'pino';
import { shardOverloaded } from '../../workflows/ramps/router/shard-state';

/** Five times the length at which a running shard hands over, well under the server's limit of 51,200. */
export const SHARD_OVERFLOW_HISTORY_EVENTS = 20_000;

interface Checked {
  historyLength: number;
  /** The shard's memo says it holds as many resources as it should. */
  overloaded: boolean;
  atMs: number;
}

export class ShardOverflowGuard {
  readonly #checked = new Map<string, Checked>();
  readonly #inFlight = new Map<string, Promise<Checked>>();

  constructor(
    private readonly options: {
      temporal: Client;
      /** How long a shard's history length is trusted before it is read again. */
      checkEveryMs: number;
      overflowAtEvents: number;
      logger: Logger;
    },
  ) {}

  /**
   * True when a delivery for `shardId` should go to a router of its own: the shard's history, read at most once
   * per `checkEveryMs` (concurrent deliveries share the read), has reached `overflowAtEvents`.
   */
  async overflowing(shardId: string): Promise<boolean> {
    let checked = this.#checked.get(shardId);
    if (!checked || Date.now() - checked.atMs >= this.options.checkEveryMs)
      checked = await this.#read(shardId);
    return this.#over(checked);
  }

  #over(checked: Omit<Checked, 'atMs'>): boolean {
    return checked.overloaded || checked.historyLength >= this.options.overflowAtEvents;
  }

  #read(shardId: string): Promise<Checked> {
    const pending = this.#inFlight.get(shardId);
    if (pending) return pending;
    const read = (async () => {
      const before = this.#checked.get(shardId);
      const { historyLength, memo } = await this.options.temporal.workflow
        .getHandle(shardId)
        .describe()
        .catch((error: unknown) => {
          if (error instanceof WorkflowNotFoundError) return { historyLength: 0, memo: undefined };
          throw error;
        });
      const checked = { historyLength, overloaded: shardOverloaded(memo), atMs: Date.now() };
      this.#checked.set(shardId, checked);
      const over = this.#over(checked);
      if (over !== (before !== undefined && this.#over(before)))
        this.options.logger[over ? 'warn' : 'info'](
          { workflowId: shardId, historyLength, overloaded: checked.overloaded },
          over
            ? 'Shard router is not keeping up: its resources go to routers of their own until it does'
            : 'Shard router keeps up again: deliveries go to it',
        );
      return checked;
    })().finally(() => this.#inFlight.delete(shardId));
    this.#inFlight.set(shardId, read);
    return read;
  }
}
