/**
 * A router holds the deliveries of many resources, so its history can grow without bound while no worker runs it
 * (workers down, or a workflow task that keeps failing): past the server's hard limit (51,200 events) the server
 * would terminate it with the deliveries it holds. A router continues as new long before that when its worker keeps
 * up (ROUTER_HISTORY_EVENTS), so a history far past that point means it is not being run. While a router's history
 * is that long, or while its memo says it holds as many resources as it should (MAX_ROUTER_LANES: lanes carried over
 * continue-as-new must fit its input), the receiver answers its deliveries 503: the operator retries them, and
 * nothing accepted waits in a workflow the server may end or overfill.
 */
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { Logger } from 'pino';
import { routerOverloaded } from '../../workflows/ramps/router/state';

/** Five times the length at which a running router hands over, well under the server's limit of 51,200. */
export const ROUTER_OVERFLOW_HISTORY_EVENTS = 20_000;

/** How long a router's history length is trusted before it is read again: one read per router at a time. */
export const ROUTER_CHECK_INTERVAL_MS = 5_000;

/** Thrown for a delivery whose router is not keeping up: answered 503, so the operator retries it. */
export class RouterOverloadedError extends Error {
  override readonly name = 'RouterOverloadedError';
  constructor(router: string) {
    super(`${router} is not keeping up with its deliveries`);
  }
}

interface Checked {
  historyLength: number;
  /** The router's memo says it holds as many resources as it should. */
  overloaded: boolean;
  atMs: number;
}

export class RouterOverflowGuard {
  readonly #checked = new Map<string, Checked>();
  readonly #inFlight = new Map<string, Promise<Checked>>();

  constructor(
    private readonly options: {
      temporal: Client;
      logger: Logger;
      /** Tests shorten both. */
      checkEveryMs?: number;
      overflowAtEvents?: number;
    },
  ) {}

  /** True when the router's history (read at most once per check interval, shared) or its memo says it is full. */
  async overflowing(routerId: string): Promise<boolean> {
    let checked = this.#checked.get(routerId);
    if (!checked || Date.now() - checked.atMs >= (this.options.checkEveryMs ?? ROUTER_CHECK_INTERVAL_MS))
      checked = await this.#read(routerId);
    return this.#over(checked);
  }

  #over(checked: Omit<Checked, 'atMs'>): boolean {
    return (
      checked.overloaded ||
      checked.historyLength >= (this.options.overflowAtEvents ?? ROUTER_OVERFLOW_HISTORY_EVENTS)
    );
  }

  #read(routerId: string): Promise<Checked> {
    const pending = this.#inFlight.get(routerId);
    if (pending) return pending;
    const read = (async () => {
      const before = this.#checked.get(routerId);
      const { historyLength, memo } = await this.options.temporal.workflow
        .getHandle(routerId)
        .describe()
        .catch((error: unknown) => {
          if (error instanceof WorkflowNotFoundError) return { historyLength: 0, memo: undefined };
          throw error;
        });
      const checked = { historyLength, overloaded: routerOverloaded(memo), atMs: Date.now() };
      this.#checked.set(routerId, checked);
      const over = this.#over(checked);
      if (over !== (before !== undefined && this.#over(before)))
        this.options.logger[over ? 'error' : 'info'](
          { workflowId: routerId, historyLength, overloaded: checked.overloaded },
          over
            ? 'Router is not keeping up: its deliveries are answered 503 until it does (the operator retries them)'
            : 'Router keeps up again: deliveries go to it',
        );
      return checked;
    })().finally(() => this.#inFlight.delete(routerId));
    this.#inFlight.set(routerId, read);
    return read;
  }
}
