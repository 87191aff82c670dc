import type { Logger } from 'pino';
import { listen } from '../http/listen';
import type { ApiConfig } from '../config/api';
import { createHttpServer, type HttpServerTimeouts } from '../http/server';
import { type HealthRouterOptions, warnIfMetricsClosed } from '../observability/health';
import type { Ledger } from '../database/connection';
import { purgeExpiredKeys } from '../ledger/idempotency';
import { createApiApp } from './app';
import { ledgerIdempotency } from './idempotency';
import type { RampApi } from './types';

/** How often the API forgets Idempotency-Keys past their retention (a bounded batch each time). */
const KEY_PURGE_INTERVAL_MS = 60_000;

/** Everything comes from the caller (src/entry/api.ts, src/entry/start.ts): this module reads no environment. */
export interface StartApiOptions {
  config: ApiConfig;
  /** The typed client to serve; the caller owns it (and closes it). */
  ramp: RampApi;
  /** The database of the Idempotency-Keys (the typed client's). */
  ledger: Ledger;
  logger: Logger;
  /** What /readyz checks and /metrics reports (src/observability/health.ts). */
  health?: HealthRouterOptions;
  /** Shorter limits for tests: server timeouts, and the deadline of the routes' Temporal calls. */
  http?: ApiHttpLimits;
}

export interface ApiHttpLimits {
  /** Default HTTP_SERVER_TIMEOUTS. */
  timeouts?: HttpServerTimeouts;
  /** Default HTTP_TEMPORAL_TIMEOUT_MS. */
  temporalTimeoutMs?: number;
}

export interface RunningApiServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startApiServer(options: StartApiOptions): Promise<RunningApiServer> {
  const { config, ramp, logger } = options;
  const http = options.http ?? {};
  // The bound host decides whether /metrics and the /readyz details need the token (open on loopback only).
  const boundHealth = options.health
    ? { ...options.health, bindHost: config.host }
    : { bindHost: config.host };
  const server = createHttpServer(
    createApiApp({
      ramp,
      idempotency: ledgerIdempotency(options.ledger),
      apiKey: config.apiKey,
      idempotencyRetentionMs: config.idempotencyRetentionMs,
      logger,
      health: boundHealth,
      ...(http.temporalTimeoutMs === undefined ? {} : { temporalTimeoutMs: http.temporalTimeoutMs }),
    }),
    http.timeouts,
  );
  const listening = await listen(server, config.port, config.host, 'http');
  logger.info({ url: listening.url }, 'HTTP API listening');
  warnIfMetricsClosed(boundHealth, logger, 'HTTP API');
  const purge = setInterval(() => {
    purgeExpiredKeys(options.ledger).catch(() => undefined);
  }, KEY_PURGE_INTERVAL_MS);
  purge.unref();
  return {
    url: listening.url,
    port: listening.port,
    close: () => {
      clearInterval(purge);
      options.health?.metrics?.close();
      return listening.close();
    },
  };
}
