/**
 * The HTTP API over the typed client, for backends in other languages. Every route needs the API key (but
 * GET /openapi.json, the API's description, generated from the routes' own schemas: src/api/openapi.ts); every
 * answer, errors included, is JSON; every Temporal call behind a route has a deadline (503 with Retry-After past it).
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
import { accountRouter } from './routes/account';
import { alertsRouter } from './routes/alerts';
import { idempotency, type IdempotencyStore } from './idempotency';
import { methodNotAllowed } from './methods';
import { openApiDocument } from './openapi';
import { endUsersRouter } from './routes/end-users';
import { eventsRouter } from './routes/events';
import { quotesRouter } from './routes/quotes';
import { rampsRouter } from './routes/ramps';
import { statementRouter } from './routes/statement';
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
  app.get('/openapi.json', (_req, res) => {
    res.status(200).json(openApiDocument());
  });
  // Before the key: which methods a path serves is in the public document anyway.
  app.use(methodNotAllowed(openApiDocument().paths as Record<string, Record<string, unknown>>));
  app.use(requireApiKey(deps.apiKey));
  app.use(express.json({ limit: '64kb', strict: true }));
  app.use(
    idempotency({
      store: deps.idempotency,
      call,
      retentionMs: deps.idempotencyRetentionMs ?? DEFAULT_IDEMPOTENCY_RETENTION_MS,
      logger: deps.logger,
      paths: openApiDocument().paths as Record<string, Record<string, unknown>>,
    }),
  );
  app.use(endUsersRouter(deps.ramp, call));
  app.use(quotesRouter(deps.ramp, call));
  app.use(accountRouter(deps.ramp, call));
  app.use(alertsRouter(deps.ramp, call));
  app.use(rampsRouter(deps.ramp, call));
  app.use(eventsRouter(deps.ramp, call));
  app.use(statementRouter(deps.ramp, call, deps.logger));
  app.use(notFoundRoute);
  app.use(errorHandler(deps.logger, timeoutMs));
  return app;
}
