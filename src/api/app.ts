/**
 * The HTTP API over the typed client, for backends in other languages. Every route needs the API key; every
 * answer, errors included, is JSON.
 */
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { SecretString } from '../config/operator';
import { requestLogger } from '../app/request-logging';
import { healthRouter, type HealthRouterOptions } from '../observability/health';
import { requireApiKey } from './auth';
import { errorHandler, notFoundRoute } from './errors';
import { accountRouter } from './routes/account';
import { alertsRouter } from './routes/alerts';
import { endUsersRouter } from './routes/end-users';
import { quotesRouter } from './routes/quotes';
import type { RampApi } from './types';

export interface ApiDeps {
  ramp: RampApi;
  apiKey: SecretString;
  logger: Logger;
  /** /readyz checks (Temporal, operator login) and /metrics; without it /readyz has no checks (always ready). */
  health?: HealthRouterOptions;
}

export function createApiApp(deps: ApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(requestLogger(deps.logger));
  app.use(healthRouter({ logger: deps.logger, ...deps.health }));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use(requireApiKey(deps.apiKey));
  app.use(express.json({ limit: '64kb', strict: true }));
  app.use(endUsersRouter(deps.ramp));
  app.use(quotesRouter(deps.ramp));
  app.use(accountRouter(deps.ramp));
  app.use(alertsRouter(deps.ramp));
  app.use(notFoundRoute);
  app.use(errorHandler(deps.logger));
  return app;
}
