import type { Logger } from 'pino';
import { listen } from '../app/listen';
import { RampClient } from '../client/ramp-client';
import { type ApiConfig, loadApiConfig } from '../config/api';
import { type HttpConfig, loadHttpConfig } from '../config/http';
import { loadObservabilityConfig } from '../config/observability';
import { createHttpServer } from '../http/server';
import { createLogger } from '../logging';
import { type HealthRouterOptions, warnIfMetricsClosed } from '../observability/health';
import { RampMetrics } from '../observability/metrics';
import { createApiApp } from './app';
import type { RampApi } from './types';

export interface StartApiOptions {
  config?: ApiConfig;
  /** The typed client to serve; by default RampClient.connect() (closed again by close()). */
  ramp?: RampApi;
  logger?: Logger;
  /** /readyz and /metrics; by default, with the owned client: the Temporal check and process counts. */
  health?: HealthRouterOptions;
  /** Server timeouts and the Temporal deadline; by default from the environment (src/config/http.ts). */
  http?: HttpConfig;
}

export interface RunningApiServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startApiServer(options: StartApiOptions = {}): Promise<RunningApiServer> {
  const config = options.config ?? loadApiConfig();
  const http = options.http ?? loadHttpConfig();
  const logger = options.logger ?? createLogger({ name: 'ramp-api' });
  const owned = options.ramp ? undefined : await RampClient.connect();
  const ramp = options.ramp ?? owned!;
  const observability = loadObservabilityConfig();
  const health: HealthRouterOptions | undefined =
    options.health ??
    (owned
      ? {
          temporal: owned.temporal,
          metrics: new RampMetrics({
            temporal: owned.temporal,
            logger,
            timeoutMs: http.temporalTimeoutMs,
            cacheTtlMs: observability.metricsCacheTtlMs,
          }),
          metricsToken: observability.metricsToken,
          timeoutMs: observability.readinessTimeoutMs,
        }
      : undefined);
  // The bound host decides whether /metrics and the /readyz details need the token (open on loopback only).
  const boundHealth = health ? { ...health, bindHost: config.host } : { bindHost: config.host };
  const server = createHttpServer(
    createApiApp({
      ramp,
      apiKey: config.apiKey,
      logger,
      health: boundHealth,
      temporalTimeoutMs: http.temporalTimeoutMs,
    }),
    http.timeouts,
  );
  const listening = await listen(server, config.port, config.host, 'http');
  logger.info({ url: listening.url }, 'HTTP API listening');
  warnIfMetricsClosed(boundHealth, logger, 'HTTP API');
  return {
    url: listening.url,
    port: listening.port,
    async close() {
      await listening.close();
      await owned?.close();
    },
  };
}
