/**
 * The webhook receiver: HTTPS, one path per recipient kind, each with the secret segment of its recipient URL
 * (`/webhooks/transactions/<secret>`, `/webhooks/orders/<secret>`; the operator does not sign deliveries, so the
 * URL is the credential and a wrong secret gets 404).
 *
 * Answers:
 * - 200 only once the event is durably in Temporal: forwarded by the receiver itself to the process that owns it
 *   (direct-forward.ts: re-read, routed and signalled-with-start, when the receiver is given the operator and
 *   its budget is not 0), or else signal-with-start of transaction/<id> or order/<id> (webhookRouterWorkflow),
 *   or, with shard routers (DEFAULT_ROUTER_SHARDS), of the shard router its resource hashes to
 *   (routes/<task queue>/<n>, webhookShardRouterWorkflow), or, for an event kind the spec does not list, of
 *   webhooks/unknown-events;
 * - 400 for a body that is not the spec's `{ data: { eventType, payload } }`, or whose IDs are not identifiers
 *   (src/validation/identifiers.ts: a lone surrogate, `..` or a path separator can never reach Temporal or the
 *   operator); 413 too large, 415 not JSON or an unknown encoding; every other client error a JSON 4xx too
 *   (src/http/errors.ts);
 * - 503 only when Temporal cannot be reached within RECEIVER_TEMPORAL_TIMEOUT_MS, so the operator retries: a 5xx is
 *   never the input's fault.
 * The payload's status is never acted on: the receiver's hop or the router re-reads the resource by ID.
 * The request URL (it carries the secret) is never logged.
 */
import { readFile } from 'node:fs/promises';
import type { Client } from '@temporalio/client';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { listen } from '../http/listen';
import { requestLogger } from '../http/request-logging';
import type { HttpServerTimeouts } from '../http/server';
import {
  DEFAULT_ROUTER_SHARDS,
  DIRECT_FORWARD_TIMEOUT_MS,
  orderRecipientUrl,
  RECEIVER_BODY_LIMIT,
  RECEIVER_TEMPORAL_TIMEOUT_MS,
  type ReceiverConfig,
  SHARD_CHECK_INTERVAL_MS,
  transactionRecipientUrl,
} from '../config/receiver';
import { formatIssues } from '../domain/errors';
import {
  routerShardWorkflowId,
  routerWorkflowId,
  UNKNOWN_EVENTS_WORKFLOW_ID,
  WORKFLOW_TYPES,
} from '../domain/ids';
import type { WorkflowTimings } from '../domain/timings';
import {
  KNOWN_EVENT_TYPES,
  RESOURCE_KIND_OF_PATH,
  type ResourceKind,
  TRANSACTION_EVENT_TYPES,
} from '../domain/vocabulary';
import { jsonErrorHandler, sendAnswer, sendError, temporalUnavailableAnswer } from '../http/errors';
import { createHttpsServer } from '../http/server';
import { healthRouter, type HealthRouterOptions, warnIfMetricsClosed } from '../observability/health';
import { RampMetrics } from '../observability/metrics';
import { knownEvent, webhookDelivery } from '../operator/schemas';
import { sameSecret } from '../secrets/compare';
import { getLocalCertificate } from '../tls/local-certificate';
import { createHop } from '../../activities/ramps/router/hop';
import type { OperatorClient } from '../operator/client';
import { createDirectForward, type DirectForward } from './direct-forward';
import { SHARD_OVERFLOW_HISTORY_EVENTS, ShardOverflowGuard } from './shard-overflow';
import { MAX_DELIVERIES_PER_SIGNAL, ShardSignals } from './shard-signals';
import { identifierIssue } from '../validation/identifiers';
import {
  shardEventSignal,
  shardEventsSignal,
  webhookEventSignal,
} from '../../workflows/ramps/router/messages';
import type { ShardEventSignal, WebhookEventSignal } from '../../workflows/ramps/router/types';
import { unknownEventSignal } from '../../workflows/ramps/unknown-events/messages';
import type { UnknownEventRecord } from '../../workflows/ramps/unknown-events/types';
import { PATCH_BASELINE } from '../../workflows/shared/patch-baseline';

export interface ReceiverDeps {
  /** Client of the namespace the worker serves. */
  temporal: Client;
  taskQueue: string;
  /** Passed to the workflows the receiver starts (workflows cannot read the environment). */
  timings: WorkflowTimings;
  logger: Logger;
  /** PEM key and certificate; default: RECEIVER_TLS_KEY/CERT files, else the generated local certificate. */
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
}

export interface RunningReceiver {
  /** https://host:port actually bound (secret-free). */
  url: string;
  port: number;
  /** The recipient URLs to register with the operator. SECRETS: never log them. */
  recipientUrls: { transaction: string; order: string };
  close(): Promise<void>;
}

/** Why the payload's IDs cannot be used (issues name the field and the rule, never the value), or []. */
function payloadIdIssues(payload: Record<string, unknown>, required: boolean): string[] {
  const issues: string[] = [];
  if (required || payload.id !== undefined) {
    const issue = identifierIssue(payload.id, 'resource ID');
    if (issue) issues.push(`data.payload.id: ${issue}`);
  }
  if (payload.orderReference !== undefined) {
    const issue = identifierIssue(payload.orderReference, 'order reference');
    if (issue) issues.push(`data.payload.orderReference: ${issue}`);
  }
  return issues;
}

/** At most `max` UTF-16 units of `text`, a lone surrogate (or one the cut split) replaced: safe in history and logs. */
const wellFormedPrefix = (text: string, max: number) => text.slice(0, max).replace(/\p{Cs}/gu, '\uFFFD');

export function createReceiverApp(config: ReceiverConfig, deps: ReceiverDeps): express.Express {
  const { temporal, taskQueue, timings, logger } = deps;
  const temporalTimeoutMs = config.temporalTimeoutMs ?? RECEIVER_TEMPORAL_TIMEOUT_MS;
  const routerShards = config.routerShards ?? DEFAULT_ROUTER_SHARDS;
  const directForward = receiverHop(config, deps, temporalTimeoutMs);
  const overflow = new ShardOverflowGuard({
    temporal,
    checkEveryMs: config.shardCheckIntervalMs ?? SHARD_CHECK_INTERVAL_MS,
    overflowAtEvents: config.shardOverflowEvents ?? SHARD_OVERFLOW_HISTORY_EVENTS,
    logger,
  });
  // A delivery alone goes as shardWebhookEvent, as before; those that waited for the shard's previous signal go
  // together as shardWebhookEvents.
  const shardSignals = new ShardSignals<Pick<ShardEventSignal, 'kind' | 'event'>>(
    (shard, deliveries, deadlineMs) =>
      temporal.withDeadline(deadlineMs, async () => {
        const common = {
          workflowId: shard,
          taskQueue,
          args: [{ shard, timings, patchBaseline: PATCH_BASELINE }] as const,
        };
        const [only] = deliveries;
        if (deliveries.length === 1 && only)
          await temporal.workflow.signalWithStart(WORKFLOW_TYPES.webhookShardRouter, {
            ...common,
            signal: shardEventSignal,
            signalArgs: [{ ...only, timings }],
          });
        else
          await temporal.workflow.signalWithStart(WORKFLOW_TYPES.webhookShardRouter, {
            ...common,
            signal: shardEventsSignal,
            signalArgs: [{ deliveries, timings }],
          });
      }),
    MAX_DELIVERIES_PER_SIGNAL,
  );
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  const metrics = deps.observability?.metrics ?? new RampMetrics();
  app.use(requestLogger(logger));
  app.use(
    metrics.deliveryCounter(),
    healthRouter({ temporal, logger, ...deps.observability, metrics, bindHost: config.host }),
  );
  // The secret is checked before the body is read: an unauthenticated caller gets 404 and nothing is parsed.
  app.post('/webhooks/:kind/:secret', (req: Request, res: Response, next: NextFunction) => {
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
  });
  app.post(
    '/webhooks/:kind/:secret',
    express.json({ limit: config.bodyLimit ?? RECEIVER_BODY_LIMIT, strict: true }),
    async (req: Request, res: Response) => {
      const pathKind = res.locals.kind as ResourceKind;
      const parsed = webhookDelivery.safeParse(req.body);
      if (!parsed.success) {
        sendError(
          res,
          400,
          'invalid_delivery',
          'The body is not { data: { eventType, payload } }',
          formatIssues(parsed.error.issues),
        );
        return;
      }
      const { eventType, payload } = parsed.data.data;
      const receivedAt = new Date().toISOString();
      /** Temporal has until then to take the delivery, or the operator is answered 503. */
      const deadlineMs = Date.now() + temporalTimeoutMs;
      const known = knownEvent.safeParse(parsed.data.data);
      let workflowId: string;
      /** The resource the delivery names, for the log line (a shard's workflow ID does not say). */
      let deliveredResourceId: string | null;
      let start: () => Promise<unknown>;
      if (!known.success) {
        if ((KNOWN_EVENT_TYPES as readonly string[]).includes(eventType)) {
          sendError(
            res,
            400,
            'invalid_delivery',
            `The payload of ${eventType} is incomplete`,
            formatIssues(known.error.issues),
          );
          return;
        }
        // Kept as a record only, but an ID we could not use for anything else is not kept either.
        const idIssues = payloadIdIssues(payload, false);
        if (idIssues.length > 0) {
          sendError(res, 400, 'invalid_delivery', 'The payload holds an invalid identifier', idIssues);
          return;
        }
        const record: UnknownEventRecord = {
          eventType: wellFormedPrefix(eventType, 100),
          resourceId: typeof payload.id === 'string' ? payload.id : null,
          kindPath: pathKind,
          receivedAt,
          payloadKeys: Object.keys(payload)
            .slice(0, 20)
            .map((key) => wellFormedPrefix(key, 50)),
        };
        deliveredResourceId = record.resourceId;
        logger.warn(
          { eventType: record.eventType, resourceId: record.resourceId, kind: pathKind },
          'Webhook of an unknown event kind: accepted and kept in webhooks/unknown-events',
        );
        workflowId = UNKNOWN_EVENTS_WORKFLOW_ID;
        start = () =>
          temporal.workflow.signalWithStart(WORKFLOW_TYPES.unknownEvents, {
            workflowId,
            taskQueue,
            args: [{}],
            signal: unknownEventSignal,
            signalArgs: [record],
          });
      } else {
        const event = known.data;
        const resourceKind: ResourceKind = TRANSACTION_EVENT_TYPES.includes(event.eventType)
          ? 'transaction'
          : 'order';
        const resourceId = event.payload.id;
        deliveredResourceId = resourceId;
        const idIssues = payloadIdIssues(event.payload, true);
        if (idIssues.length > 0) {
          sendError(res, 400, 'invalid_delivery', 'The payload holds an invalid identifier', idIssues);
          return;
        }
        if (resourceKind !== pathKind)
          logger.warn(
            { eventType, kind: pathKind },
            'Event delivered to the other kind of recipient; routed by its event type',
          );
        const signal: WebhookEventSignal = {
          eventType: event.eventType,
          resourceId,
          receivedAt,
          ...('newStatus' in event.payload
            ? { newStatus: wellFormedPrefix(String(event.payload.newStatus), 50) }
            : {}),
          ...('orderReference' in event.payload
            ? { orderReference: String(event.payload.orderReference) }
            : {}),
        };
        const ownRouter = () => {
          workflowId = routerWorkflowId(resourceKind, resourceId);
          return temporal.workflow.signalWithStart(WORKFLOW_TYPES.webhookRouter, {
            workflowId,
            taskQueue,
            args: [{ kind: resourceKind, resourceId, timings, patchBaseline: PATCH_BASELINE }],
            signal: webhookEventSignal,
            signalArgs: [signal],
          });
        };
        const shard =
          routerShards > 0
            ? routerShardWorkflowId(taskQueue, resourceKind, resourceId, routerShards)
            : undefined;
        workflowId = shard ?? routerWorkflowId(resourceKind, resourceId);
        start = async () => {
          if (directForward) {
            const forwarded = await directForward(resourceKind, resourceId);
            metrics.directForwards.inc({
              kind: resourceKind,
              result: 'forwardedTo' in forwarded ? 'forwarded' : forwarded.notForwarded,
            });
            if ('forwardedTo' in forwarded) {
              workflowId = forwarded.forwardedTo;
              return;
            }
          }
          if (!shard || (await overflow.overflowing(shard))) return ownRouter();
          return shardSignals.send(shard, { kind: resourceKind, event: signal }, deadlineMs);
        };
      }
      try {
        await temporal.withDeadline(deadlineMs, start);
      } catch (error) {
        logger.error(
          { eventType, workflowId, err: { name: (error as Error).name, message: (error as Error).message } },
          'Could not hand the delivery to Temporal: answering 503 so the operator retries',
        );
        sendAnswer(res, {
          ...temporalUnavailableAnswer(temporalTimeoutMs),
          message: 'The event could not be recorded; retry later',
        });
        return;
      }
      logger.info({ eventType, resourceId: deliveredResourceId, workflowId }, 'Webhook delivery recorded');
      res.status(200).json({ received: true, workflowId });
    },
  );

  app.use((_req: Request, res: Response) => sendError(res, 404, 'not_found', 'Not found'));
  // Body-parser and router errors (malformed JSON or percent-encoding, too large, encodings) are JSON 4xx; anything
  // else is ours (500). Never echoes the URL: it carries the secret.
  app.use(jsonErrorHandler({ logger, component: 'Receiver' }));
  return app;
}

/** The receiver's own hop's budget: DIRECT_FORWARD_TIMEOUT_MS, at most half of Temporal's time; 0: off. */
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
    hop: createHop({ operator: deps.operator, temporal: deps.temporal, logger: deps.logger }),
    taskQueue: deps.taskQueue,
    timings: deps.timings,
    timeoutMs: budgetMs,
    logger: deps.logger,
  });
}

async function loadTls(config: ReceiverConfig, deps: ReceiverDeps): Promise<{ key: string; cert: string }> {
  if (deps.tls) return deps.tls;
  if (config.tlsCertPath && config.tlsKeyPath) {
    const [cert, key] = await Promise.all([
      readFile(config.tlsCertPath, 'utf8'),
      readFile(config.tlsKeyPath, 'utf8'),
    ]);
    return { key, cert };
  }
  if (config.tlsCertPath || config.tlsKeyPath)
    throw new Error('Set both RECEIVER_TLS_CERT and RECEIVER_TLS_KEY, or neither (local certificate)');
  return getLocalCertificate();
}

/** Starts the receiver over HTTPS on config.host:config.port (0 = ephemeral). */
export async function startReceiver(config: ReceiverConfig, deps: ReceiverDeps): Promise<RunningReceiver> {
  const tls = await loadTls(config, deps);
  const server = createHttpsServer(
    { key: tls.key, cert: tls.cert },
    createReceiverApp(config, deps),
    deps.timeouts,
  );
  const { url, port, close } = await listen(server, config.port, config.host, 'https');
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
