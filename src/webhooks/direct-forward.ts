/**
 * The receiver's own hop, its second step. Before it answers a delivery, the receiver re-reads the resource and
 * forwards it to its process itself, with the hop the routers and reconciliation make too (src/routing/hop.ts: the
 * same read, owner rule and one-run forward), within a short budget (DIRECT_FORWARD_TIMEOUT_MS). A forward that the
 * process accepted is in that process's history, durable: the delivery is answered 200 from there, and no router
 * takes part. Everything else is handed over to the router (hand-over.ts), which retries, records and raises what it
 * must: a read that failed or ran out of time, a resource the operator does not know yet, a transaction that belongs
 * to no process, a process that has ended. A forward that was cut off by the budget may still land beside the
 * router's; a process applies a status once.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Logger } from 'pino';
import { errorMessage } from '../domain/errors';
import type { WorkflowTimings } from '../domain/timings';
import type { ResourceKind } from '../domain/vocabulary';
import { deadlineClockMs } from '../operator/deadline-clock';
import type { Hop } from '../routing/hop';

/** Why a delivery was not forwarded by the receiver (the router takes it). */
export type NotForwarded = 'failed' | 'timed-out' | 'unroutable' | 'process-ended';

export type DirectForwardResult = { forwardedTo: string } | { notForwarded: NotForwarded };

export interface DirectForwardOptions {
  hop: Hop;
  /** The task queue of the processes a forward starts (the workers' queue). */
  taskQueue: string;
  timings: WorkflowTimings;
  /** The whole hop's budget: reads, a login they wait for, and the forward. */
  timeoutMs: number;
  logger: Logger;
}

export function createDirectForward({ hop, taskQueue, timings, timeoutMs, logger }: DirectForwardOptions) {
  return async function forward(kind: ResourceKind, resourceId: string): Promise<DirectForwardResult> {
    const startedMs = performance.now();
    const deadline = { operatorMs: deadlineClockMs() + timeoutMs, temporalMs: Date.now() + timeoutMs };
    const routing = hop.routeEvent({ kind, resourceId, timings }, { taskQueue, deadline });
    let timer: NodeJS.Timeout | undefined;
    // A login the read waits for is not bounded by the read's deadline; the budget bounds the whole hop.
    const outOfTime = new Promise<'timed-out'>((resolve) => {
      timer = setTimeout(() => resolve('timed-out'), timeoutMs);
    });
    try {
      const routed = await Promise.race([routing, outOfTime]);
      if (routed === 'timed-out') {
        routing.catch(() => undefined);
        return notForwarded('timed-out');
      }
      if ('outcome' in routed)
        return routed.outcome.closed
          ? notForwarded('process-ended')
          : { forwardedTo: routed.outcome.workflowId };
      return notForwarded('unroutable');
    } catch (error) {
      return notForwarded(ranOutOfTime(error, startedMs, timeoutMs) ? 'timed-out' : 'failed', error);
    } finally {
      clearTimeout(timer);
    }

    function notForwarded(why: NotForwarded, error?: unknown): DirectForwardResult {
      logger.info(
        { kind, resourceId, why, ...(error === undefined ? {} : { error: errorMessage(error) }) },
        'Delivery not forwarded by the receiver: handed to its router',
      );
      return { notForwarded: why };
    }
  };
}

export type DirectForward = ReturnType<typeof createDirectForward>;

/** The operator's codes for a read cut off by its deadline. */
const OUT_OF_TIME_CODES: readonly unknown[] = ['timeout', 'deadline_passed'];

/** True for a hop that failed because its budget ran out: a read cut off, or a Temporal call past its deadline. */
function ranOutOfTime(error: unknown, startedMs: number, timeoutMs: number): boolean {
  if (performance.now() - startedMs >= timeoutMs) return true;
  const details = error instanceof ApplicationFailure ? error.details : undefined;
  const code = (details?.[0] as { code?: unknown } | undefined)?.code;
  return OUT_OF_TIME_CODES.includes(code);
}
