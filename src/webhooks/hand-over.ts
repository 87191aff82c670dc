/**
 * The receiver's last step for a delivery it could not forward itself: the durable fallback. The delivery is
 * signalled-with-start into the webhook router its resource hashes to (routes/<task queue>/<n>), which re-reads,
 * routes and retries it (workflows/ramps/router). Deliveries that wait for their router's previous signal go
 * together in the next one (router-signals.ts); a router that is not keeping up is not sent more (router-overflow.ts).
 */
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { routerWorkflowId, WORKFLOW_TYPES } from '../domain/ids';
import type { WorkflowTimings } from '../domain/timings';
import { webhookDeliveriesSignal } from '../../workflows/ramps/router/messages';
import type { RouterDelivery } from '../../workflows/ramps/router/types';
import { RouterOverflowGuard, RouterOverloadedError } from './router-overflow';
import { RouterSignals } from './router-signals';

export interface HandOverOptions {
  temporal: Client;
  taskQueue: string;
  timings: WorkflowTimings;
  logger: Logger;
  /** Tests shorten the overflow guard's reads and limit. */
  overflow?: { checkEveryMs?: number; overflowAtEvents?: number };
}

/** Answers the router's workflow ID once the delivery is in its history; throws when it could not be put there. */
export type HandOver = (delivery: RouterDelivery, deadlineMs: number) => Promise<string>;

export function createHandOver({
  temporal,
  taskQueue,
  timings,
  logger,
  overflow,
}: HandOverOptions): HandOver {
  const guard = new RouterOverflowGuard({ temporal, logger, ...overflow });
  const signals = new RouterSignals<RouterDelivery>((router, deliveries, deadlineMs) =>
    temporal.withDeadline(deadlineMs, async () => {
      await temporal.workflow.signalWithStart(WORKFLOW_TYPES.webhookRouter, {
        workflowId: router,
        taskQueue,
        args: [{ router, timings }],
        signal: webhookDeliveriesSignal,
        signalArgs: [{ deliveries, timings }],
      });
    }),
  );
  return async (delivery, deadlineMs) => {
    const router = routerWorkflowId(taskQueue, delivery.kind, delivery.event.resourceId);
    if (await guard.overflowing(router)) throw new RouterOverloadedError(router);
    await signals.send(router, delivery, deadlineMs);
    return router;
  };
}
