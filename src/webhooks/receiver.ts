/**
 * The webhook receiver: HTTPS (or plain HTTP behind TLS that ends in front of it), one path per recipient kind, each with the secret segment of its recipient URL
 * (`/webhooks/transactions/<secret>`, `/webhooks/orders/<secret>`; the operator does not sign deliveries, so the
 * URL is the credential and a wrong secret gets 404, checked before the body is read).
 *
 * A delivery goes through three steps (docs/architecture.md, "A delivery's way to its process"):
 * 1. parse (delivery.ts): 400 for a body that is not the spec's `{ data: { eventType, payload } }`, or whose IDs
 *    are not identifiers; 413 too large, 415 not JSON or an unknown encoding; every other client error a JSON 4xx
 *    (src/http/errors.ts). An event kind the spec does not list is kept in webhooks/unknown-events.
 * 2. forward (direct-forward.ts): the receiver re-reads the resource and signals its process itself, when it has
 *    the operator, within a short budget.
 * 3. hand over (hand-over.ts): whatever it could not forward goes to the router its resource hashes to.
 * It answers 200 only once the event is durably in Temporal, and 503 when Temporal cannot take it in time (or its
 * router is not keeping up), so the operator retries: a 5xx is never the input's fault. The request URL (it carries
 * the secret) is never logged.
 */
import type { Client } from '@temporalio/client';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { listen } from '../http/listen';
import { requestLogger } from '../http/request-logging';
import type { HttpServerTimeouts } from '../http/server';
import {
  DIRECT_FORWARD_TIMEOUT_MS,
  orderRecipientUrl,
  RECEIVER_BODY_LIMIT,
  RECEIVER_TEMPORAL_TIMEOUT_MS,
  type ReceiverConfig,
  transactionRecipientUrl,
} from '../config/receiver';
import { UNKNOWN_EVENTS_WORKFLOW_ID, WORKFLOW_TYPES } from '../domain/ids';
import type { WorkflowTimings } from '../domain/timings';
import { RESOURCE_KIND_OF_PATH, type ResourceKind } from '../domain/vocabulary';
import { jsonErrorHandler, sendAnswer, sendError, temporalUnavailableAnswer } from '../http/errors';
import { healthRouter, type HealthRouterOptions, warnIfMetricsClosed } from '../observability/health';
import { RampMetrics } from '../observability/metrics';
import { serverSpans } from '../http/spans';
import { sameSecret } from '../secrets/compare';
import { createHop } from '../routing/hop';
import { snapshotReads } from '../../activities/shared/snapshots';
import type { OperatorClient } from '../operator/client';
import { unknownEventSignal } from '../../workflows/ramps/unknown-events/messages';
import { type ParsedDelivery, parseDelivery } from './delivery';
import { DeliveryHeaderLog } from './delivery-headers';
import { createDirectForward, type DirectForward } from './direct-forward';
import { createHandOver, type HandOverOptions } from './hand-over';
import { receiverTransport } from './receiver-transport';
import { RouterOverloadedError } from './router-overflow';

export interface ReceiverDeps {
  /** Client of the namespace the worker serves. */
  temporal: Client;
  taskQueue: string;
  /** Passed to the workflows the receiver starts (workflows cannot read the environment). */
  timings: WorkflowTimings;
  logger: Logger;
  /** PEM key and certificate, in place of what RECEIVER_TLS says (tests). */
  tls?: { key: string; cert: string };
  /** /readyz checks beyond Temporal (operator login) and /metrics (delivery counters): src/observability/health.ts. */
  observability?: Omit<HealthRouterOptions, 'temporal' | 'bindHost'>;
  /** Header, request and keep-alive timeouts; default HTTP_SERVER_TIMEOUTS. */
  timeouts?: HttpServerTimeouts;
  /**
   * The operator the receiver re-reads a delivery's resource from, to forward it to its process itself
   * (direct-forward.ts); absent: every delivery goes to a router.
   */
  operator?: OperatorClient;
  /** Tests shorten the router overflow guard's reads and limit. */
  routerOverflow?: HandOverOptions['overflow'];
}

export interface RunningReceiver {
  /** scheme://host:port actually bound (secret-free). */
  url: string;
  port: number;
  /** The recipient URLs to register with the operator. SECRETS: never log them. */
  recipientUrls: { transaction: string; order: string };
  close(): Promise<void>;
}

export function createReceiverApp(config: ReceiverConfig, deps: ReceiverDeps): express.Express {
  const { temporal, logger } = deps;
  const temporalTimeoutMs = config.temporalTimeoutMs ?? RECEIVER_TEMPORAL_TIMEOUT_MS;
  const metrics = deps.observability?.metrics ?? new RampMetrics();
  const record = recording(deps, metrics, receiverHop(config, deps, temporalTimeoutMs));
  const headerLog = new DeliveryHeaderLog(logger);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(serverSpans('receiver'));
  app.use(requestLogger(logger));
  app.use(
    metrics.deliveryCounter(),
    healthRouter({
      temporal,
      logger,
      ...deps.observability,
      metrics,
      bindHost: config.host,
      details: () => ({ deliveryHeaders: headerLog.report() }),
    }),
  );
  app.post('/webhooks/:kind/:secret', checkRecipientPath(config));
  app.post(
    '/webhooks/:kind/:secret',
    express.json({ limit: config.bodyLimit ?? RECEIVER_BODY_LIMIT, strict: true }),
    receiveDelivery(deps, record, temporalTimeoutMs, headerLog),
  );
  app.use((_req: Request, res: Response) => sendError(res, 404, 'not_found', 'Not found'));
  // Body-parser and router errors (malformed JSON or percent-encoding, too large, encodings) are JSON 4xx; anything
  // else is ours (500). Never echoes the URL: it carries the secret.
  app.use(jsonErrorHandler({ logger, component: 'Receiver' }));
  return app;
}

type Accepted = Exclude<ParsedDelivery, { invalid: unknown }>;

/**
 * The POST handler: parse, then record within Temporal's time (200), or answer 400 or 503. The header names of a
 * delivery that parsed are kept (delivery-headers.ts).
 */
function receiveDelivery(
  { temporal, logger }: ReceiverDeps,
  record: (delivery: Accepted, deadlineMs: number) => Promise<string>,
  temporalTimeoutMs: number,
  headerLog: DeliveryHeaderLog,
) {
  return async (req: Request, res: Response): Promise<void> => {
    const delivery = parseDelivery(req.body, res.locals.kind as ResourceKind, new Date().toISOString());
    if ('invalid' in delivery) {
      sendError(res, 400, 'invalid_delivery', delivery.invalid.message, delivery.invalid.issues);
      return;
    }
    headerLog.record(
      'known' in delivery ? delivery.known.signal.eventType : 'unknown',
      Object.keys(req.headers),
    );
    /** Temporal has until then to take the delivery, or the operator is answered 503. */
    const deadlineMs = Date.now() + temporalTimeoutMs;
    const log = deliveryLogFields(delivery);
    try {
      const workflowId = await temporal.withDeadline(deadlineMs, () => record(delivery, deadlineMs));
      logger.info({ ...log, workflowId }, 'Webhook delivery recorded');
      res.status(200).json({ received: true, workflowId });
    } catch (error) {
      logger.error(
        { ...log, err: { name: (error as Error).name, message: (error as Error).message } },
        'Could not hand the delivery to Temporal: answering 503 so the operator retries',
      );
      sendAnswer(res, {
        ...temporalUnavailableAnswer(temporalTimeoutMs),
        message:
          error instanceof RouterOverloadedError
            ? 'The event could not be recorded now (its router is not keeping up); retry later'
            : 'The event could not be recorded; retry later',
      });
    }
  };
}

/**
 * Puts a delivery in Temporal and answers the workflow that holds it: an unknown event kind in
 * webhooks/unknown-events, a known one forwarded by the receiver itself, else handed over to its router.
 */
function recording(deps: ReceiverDeps, metrics: RampMetrics, directForward: DirectForward | undefined) {
  const { temporal, taskQueue, timings, logger } = deps;
  const handOver = createHandOver({ temporal, taskQueue, timings, logger, overflow: deps.routerOverflow });
  return async (delivery: Accepted, deadlineMs: number): Promise<string> => {
    if ('unknown' in delivery) {
      const { eventType, resourceId, kindPath } = delivery.unknown;
      logger.warn(
        { eventType, resourceId, kind: kindPath },
        'Webhook of an unknown event kind: accepted and kept in webhooks/unknown-events',
      );
      await temporal.workflow.signalWithStart(WORKFLOW_TYPES.unknownEvents, {
        workflowId: UNKNOWN_EVENTS_WORKFLOW_ID,
        taskQueue,
        args: [{}],
        signal: unknownEventSignal,
        signalArgs: [delivery.unknown],
      });
      return UNKNOWN_EVENTS_WORKFLOW_ID;
    }
    const { kind, resourceId, signal } = delivery.known;
    if (directForward) {
      const forwarded = await directForward(kind, resourceId);
      metrics.directForwards.inc({
        kind,
        result: 'forwardedTo' in forwarded ? 'forwarded' : forwarded.notForwarded,
      });
      if ('forwardedTo' in forwarded) return forwarded.forwardedTo;
    }
    return handOver({ kind, event: signal }, deadlineMs);
  };
}

/** The secret is checked before the body is read: an unauthenticated caller gets 404 and nothing is parsed. */
function checkRecipientPath(config: ReceiverConfig) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const kind = RESOURCE_KIND_OF_PATH[String(req.params.kind)];
    const expected =
      kind === 'transaction'
        ? config.transactionSecret.reveal()
        : kind === 'order'
          ? config.orderSecret.reveal()
          : undefined;
    if (!kind || expected === undefined || !sameSecret(String(req.params.secret), expected)) {
      sendError(res, 404, 'not_found', 'Not found');
      return;
    }
    res.locals.kind = kind;
    if (!req.is('application/json')) {
      sendError(res, 415, 'unsupported_media_type', 'Deliveries must be application/json');
      return;
    }
    next();
  };
}

/** What a delivery's log lines say of it (never the payload, never the URL). */
function deliveryLogFields(delivery: Accepted) {
  return 'unknown' in delivery
    ? { eventType: delivery.unknown.eventType, resourceId: delivery.unknown.resourceId }
    : {
        eventType: delivery.known.signal.eventType,
        kind: delivery.known.kind,
        resourceId: delivery.known.resourceId,
      };
}

/** The receiver's own hop's budget, at most half of Temporal's time; 0: off. */
export function directForwardBudgetMs(config: ReceiverConfig, temporalTimeoutMs: number): number {
  return Math.min(
    config.directForwardTimeoutMs ?? DIRECT_FORWARD_TIMEOUT_MS,
    Math.floor(temporalTimeoutMs / 2),
  );
}

/**
 * The receiver's own hop, when it has the operator and a budget. The budget never takes more than half of
 * Temporal's time for the delivery, so that a hop that runs out of time leaves the router's hand-off room.
 */
function receiverHop(
  config: ReceiverConfig,
  deps: ReceiverDeps,
  temporalTimeoutMs: number,
): DirectForward | undefined {
  const budgetMs = directForwardBudgetMs(config, temporalTimeoutMs);
  if (!deps.operator || budgetMs <= 0) return undefined;
  return createDirectForward({
    hop: createHop({ reads: snapshotReads(deps.operator), temporal: deps.temporal, logger: deps.logger }),
    taskQueue: deps.taskQueue,
    timings: deps.timings,
    timeoutMs: budgetMs,
    logger: deps.logger,
  });
}

/**
 * Starts the receiver on config.host:config.port (0 = ephemeral): HTTPS, or plain HTTP when TLS ends in front of it
 * (receiver-transport.ts).
 */
export async function startReceiver(config: ReceiverConfig, deps: ReceiverDeps): Promise<RunningReceiver> {
  const transport = await receiverTransport(config, createReceiverApp(config, deps), {
    logger: deps.logger,
    ...(deps.timeouts ? { timeouts: deps.timeouts } : {}),
    ...(deps.tls ? { pem: deps.tls } : {}),
  });
  const listening = await listen(transport.server, config.port, config.host, transport.scheme);
  const { url, port } = listening;
  const close = async () => {
    transport.stop();
    await listening.close();
  };
  // With an ephemeral port the public URL cannot be known in advance: the bound one is the public one.
  const base = config.port === 0 ? url : config.publicUrl;
  deps.logger.info({ url }, 'Webhook receiver listening');
  warnIfMetricsClosed({ ...deps.observability, bindHost: config.host }, deps.logger, 'webhook receiver');
  return {
    url,
    port,
    recipientUrls: {
      transaction: transactionRecipientUrl({ ...config, publicUrl: base }),
      order: orderRecipientUrl({ ...config, publicUrl: base }),
    },
    close,
  };
}
