/**
 * The HTTP API over the typed client, for backends in other languages: the endpoints declared in src/api/routes,
 * each once. Every route needs the API key (but GET /openapi.json, the API's description, generated from the same
 * declarations: src/api/openapi.ts); every answer, errors included, is JSON; every Temporal call behind a route has a
 * deadline (503 with Retry-After past it).
 */
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { SecretString } from '../secrets/secret-string';
import { requestLogger } from '../http/request-logging';
import { serverSpans } from '../http/spans';
import { HTTP_TEMPORAL_TIMEOUT_MS, withTemporalDeadline } from '../http/errors';
import { healthRouter, type HealthRouterOptions } from '../observability/health';
import { requireApiKey } from './auth';
import { errorHandler, notFoundRoute } from './errors';
import { idempotency, type IdempotencyStore } from './idempotency';
import { methodNotAllowed } from './methods';
import { mountEndpoints } from './mount';
import { DOCUMENT_PATH, openApiDocument } from './openapi';
import { ENDPOINTS } from './routes';
import type { RampApi, TemporalCall } from './types';

export interface ApiDeps {
  ramp: RampApi;
  /** Where Idempotency-Keys live (ledgerIdempotency over the API's database). */
  idempotency: IdempotencyStore;
  apiKey: SecretString;
  logger: Logger;
  /**
   * /readyz checks (Temporal, operator login) and /metrics; without it /readyz has no checks (always ready). Its
   * `bindHost` decides whether /metrics and the /readyz details need the metrics token (src/observability/health.ts).
   */
  health?: HealthRouterOptions;
  /** Deadline of each route's Temporal calls; default HTTP_TEMPORAL_TIMEOUT_MS (tests shorten it). */
  temporalTimeoutMs?: number;
  /** How long the first answer to an Idempotency-Key is kept (IDEMPOTENCY_RETENTION); default 24 h. */
  idempotencyRetentionMs?: number;
}

/** IDEMPOTENCY_RETENTION's default, Stripe's. */
export const DEFAULT_IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

export function createApiApp(deps: ApiDeps): Express {
  const timeoutMs = deps.temporalTimeoutMs ?? HTTP_TEMPORAL_TIMEOUT_MS;
  const call: TemporalCall = (fn) => withTemporalDeadline(timeoutMs, fn, deps.ramp.temporal);
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(serverSpans('api'));
  app.use(requestLogger(deps.logger));
  app.use(healthRouter({ logger: deps.logger, ...deps.health }));
  // The API's description is public: it holds no data.
  app.get(DOCUMENT_PATH, (_req, res) => {
    res.status(200).json(openApiDocument());
  });
  // Before the key: which methods a path serves is in the public document anyway.
  app.use(methodNotAllowed([...ENDPOINTS, { method: 'get', path: DOCUMENT_PATH }]));
  app.use(requireApiKey(deps.apiKey));
  app.use(express.json({ limit: '64kb', strict: true }));
  const idempotent = idempotency({
    store: deps.idempotency,
    call,
    retentionMs: deps.idempotencyRetentionMs ?? DEFAULT_IDEMPOTENCY_RETENTION_MS,
    logger: deps.logger,
  });
  app.use(mountEndpoints(ENDPOINTS, { ramp: deps.ramp, call, idempotent, logger: deps.logger }));
  app.use(notFoundRoute);
  app.use(errorHandler(deps.logger, timeoutMs));
  return app;
}
