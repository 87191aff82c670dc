/**
 * The outcome dispatcher: delivers the events the ledger holds to the client's backend, in each process's order,
 * each with its own webhook-id and body on every attempt. Every worker runs one; they share the work through the
 * database (an event is leased to one dispatcher per attempt, and taken over when that dispatcher dies).
 *
 * - A new event wakes the dispatchers at once (LISTEN/NOTIFY); otherwise they look every DISPATCH_POLL_MS.
 * - A refused attempt is retried with doubling waits (the timings' retryInitialMs to retryMaximumMs) until the event's
 *   retry time (CLIENT_WEBHOOK_RETRY_FOR) runs out: it is then `failed`, and counts on its endpoints'
 *   `outcome-event-undelivered` incident (one per endpoint: the first event it missed opens it, each later one is an
 *   occurrence).
 * - An endpoint that confirms an event gets everything that waits for it at once: the queues an outage built go out
 *   in seconds, not on their backoff; its incident is resolved.
 */
import type pg from 'pg';
import type { Logger } from 'pino';
import type { ClientWebhookConfig } from '../config/client-webhooks';
import type { Database } from '../database/connection';
import { errorMessage } from '../domain/errors';
import type { OutcomeDeliveryTimings } from '../domain/timings';
import {
  type AttemptOutcome,
  type ClaimedEvent,
  claimDueEvents,
  endpointsGaveUp,
  endpointsRefused,
  EVENTS_CHANNEL,
  recordAttempt,
  releaseAttempt,
  retryNowFor,
} from '../ledger/outcome-events';
import { underTraceParent } from '../http/spans';
import { attemptDelivery } from './send';

/** How often a dispatcher looks for due events when nothing woke it: a retry falls due without a notification. */
export const DISPATCH_POLL_MS = 1_000;
/** Events delivered at once by one dispatcher: enough for a burst, few enough for one client endpoint. */
export const DISPATCH_CONCURRENCY = 20;

export interface DispatcherIncidents {
  /** An endpoint missed an event for good: one incident per endpoint, each event it misses an occurrence. */
  undelivered(endpoint: string, event: ClaimedEvent, error: string): Promise<void>;
  /** An endpoint whose incident is open confirmed an event again. */
  recovered(endpoint: string): Promise<void>;
}

export interface DispatcherOptions {
  database: Database;
  clientWebhooks: ClientWebhookConfig | undefined;
  timings: OutcomeDeliveryTimings;
  logger: Logger;
  incidents?: DispatcherIncidents;
}

export interface RunningDispatcher {
  /** Looks for due events now (tests, and a redelivery request in this process). */
  wake(): void;
  stop(): Promise<void>;
}

/** The wait before the attempt after `attempt` (1-based): doubling from the first, capped. */
export function retryDelayMs(timings: OutcomeDeliveryTimings, attempt: number): number {
  return Math.min(timings.retryMaximumMs, timings.retryInitialMs * 2 ** Math.max(0, attempt - 1));
}

/** What one attempt's result means for the event. */
export function attemptOutcome(
  timings: OutcomeDeliveryTimings,
  claimed: ClaimedEvent,
  result: { receiving: string[]; confirmed: string[]; failures: string[] },
  now: number,
): AttemptOutcome {
  if (result.receiving.length === 0) return { kind: 'no-endpoint' };
  const confirmed = [...new Set([...claimed.confirmedEndpoints, ...result.confirmed])];
  if (result.failures.length === 0) return { kind: 'confirmed', confirmed };
  const error = result.failures.join('; ');
  const retryInMs = retryDelayMs(timings, claimed.attempt);
  if (now + retryInMs >= Date.parse(claimed.giveUpAt)) return { kind: 'given-up', confirmed, error };
  return { kind: 'refused', confirmed, error, retryInMs };
}

export function startDispatcher(options: DispatcherOptions): RunningDispatcher {
  const { database, clientWebhooks, timings, logger } = options;
  const leaseMs = (clientWebhooks?.timeoutMs ?? timings.attemptTimeoutMs) + 5_000;
  const inFlight = new Set<Promise<void>>();
  const abort = new AbortController();
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  // A wake-up while a look is under way asks for one more look after it (the new event may have missed it).
  let woken = false;
  // Every delivery slot was taken: a finished delivery makes room for what waits.
  let full = false;
  let lastFailureLogged = 0;
  const wake = () => {
    woken = true;
    wakeUp?.();
  };

  async function claimAndDeliver(): Promise<boolean> {
    const room = DISPATCH_CONCURRENCY - inFlight.size;
    full = room <= 0;
    if (full) return false;
    const claimed = await claimDueEvents(database.db, room, leaseMs);
    for (const event of claimed) {
      // Its delivery joins the trace of the work that raised it.
      const delivery = underTraceParent(event.traceParent, () => deliver(options, event, abort.signal))
        .then((next) => {
          if (next === 'look-again') wake();
        })
        .catch((error: unknown) => {
          // The lease runs out and another attempt takes it over.
          logger.warn(
            { webhookId: event.webhookId, error: errorMessage(error) },
            'outcome delivery not recorded',
          );
        })
        .finally(() => {
          inFlight.delete(delivery);
          if (full) wake();
        });
      inFlight.add(delivery);
    }
    return claimed.length === room;
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      woken = false;
      let more = false;
      try {
        more = await claimAndDeliver();
      } catch (error) {
        // The database is away: the events wait there, and the next look finds them.
        if (Date.now() - lastFailureLogged > 60_000) {
          lastFailureLogged = Date.now();
          logger.warn({ error: errorMessage(error) }, 'outcome dispatcher cannot read the ledger; retrying');
        }
      }
      if (more || woken || stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, DISPATCH_POLL_MS);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = undefined;
    }
  }

  const listener = listen(database.pool, wake, () => stopped);
  const running = loop();
  return {
    wake,
    async stop() {
      stopped = true;
      wake();
      await running;
      abort.abort();
      await Promise.allSettled([...inFlight]);
      await listener.close();
    },
  };
}

/**
 * One attempt at an event, recorded with what it means: the event's next attempt or its end, its endpoints' refusals,
 * incidents and recoveries. Answers 'look-again' when an event may be due now because of it: the next of its
 * process, or itself (hurried while under way).
 */
async function deliver(
  options: DispatcherOptions,
  claimed: ClaimedEvent,
  signal: AbortSignal,
): Promise<'look-again' | 'done'> {
  const { database, clientWebhooks, timings, logger } = options;
  const result = await attemptDelivery(
    clientWebhooks,
    claimed.webhookId,
    claimed.event,
    claimed.confirmedEndpoints,
    signal,
  );
  // Cut off by this dispatcher stopping: not the endpoint's failure; the next dispatcher tries it at once.
  if (signal.aborted) {
    await releaseAttempt(database.db, claimed);
    return 'done';
  }
  const outcome = attemptOutcome(timings, claimed, result, Date.now());
  const recorded = await recordAttempt(database.db, claimed, outcome, result.confirmed);
  // An endpoint that answers again gets whatever waits for it now.
  for (const { label, incidentWasOpen } of recorded.recovered) {
    await retryNowFor(database.db, label);
    if (incidentWasOpen) await options.incidents?.recovered(label).catch(() => undefined);
  }
  if (!recorded.current) return 'done';
  logAttempt(logger, claimed, outcome);
  const refused = result.receiving.filter(
    (label) => !result.confirmed.includes(label) && !claimed.confirmedEndpoints.includes(label),
  );
  await endpointsRefused(database.db, refused);
  if (outcome.kind === 'given-up') {
    await endpointsGaveUp(database.db, refused);
    // Each event given up counts on its endpoint's one incident; the first opens it.
    for (const endpoint of refused)
      await options.incidents?.undelivered(endpoint, claimed, outcome.error).catch(() => undefined);
  }
  return outcome.kind === 'refused' || recorded.laterPending ? 'look-again' : 'done';
}

function logAttempt(logger: Logger, claimed: ClaimedEvent, outcome: AttemptOutcome): void {
  if (outcome.kind === 'refused' || outcome.kind === 'given-up')
    logger.warn(
      {
        webhookId: claimed.webhookId,
        type: claimed.event.type,
        attempt: claimed.attempt,
        error: outcome.error,
      },
      outcome.kind === 'given-up' ? 'outcome event given up' : 'outcome event not confirmed',
    );
  else
    logger.info(
      { webhookId: claimed.webhookId, type: claimed.event.type },
      outcome.kind === 'confirmed' ? 'outcome event delivered' : 'outcome event had no endpoint',
    );
}

/**
 * A connection of its own that LISTENs for new events and wakes the loop; after the database dropped it, another
 * one is taken once it answers. It never goes back to the pool (its LISTEN would go with it).
 */
function listen(pool: pg.Pool, wake: () => void, stopped: () => boolean): { close(): Promise<void> } {
  let client: pg.PoolClient | undefined;
  let retry: NodeJS.Timeout | undefined;
  const drop = (held: pg.PoolClient) => {
    if (client !== held) return;
    client = undefined;
    held.removeAllListeners('notification');
    held.release(true);
  };
  const connect = async () => {
    if (stopped()) return;
    try {
      const connected = await pool.connect();
      client = connected;
      connected.on('notification', wake);
      connected.on('error', () => {
        drop(connected);
        if (!stopped()) retry = setTimeout(() => void connect(), DISPATCH_POLL_MS);
      });
      await connected.query(`listen ${EVENTS_CHANNEL}`);
    } catch {
      if (client) drop(client);
      if (!stopped()) retry = setTimeout(() => void connect(), DISPATCH_POLL_MS);
    }
  };
  void connect();
  return {
    async close() {
      clearTimeout(retry);
      const held = client;
      if (!held) return;
      await held.query(`unlisten ${EVENTS_CHANNEL}`).catch(() => undefined);
      drop(held);
    },
  };
}
