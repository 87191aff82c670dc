import http from 'node:http';
import { listen } from '../app/listen';
import type { Logger } from 'pino';
import { RampClient } from '../client/ramp-client';
import { type ApiConfig, loadApiConfig } from '../config/api';
import { loadObservabilityConfig } from '../config/observability';
import { createLogger } from '../logging';
import { createApiApp } from './app';
import type { HealthRouterOptions } from '../observability/health';
import { RampMetrics } from '../observability/metrics';
import type { RampApi } from './types';

export interface StartApiOptions {
  config?: ApiConfig;
  /** The typed client to serve; by default RampClient.connect() (closed again by close()). */
  ramp?: RampApi;
  logger?: Logger;
  /** /readyz and /metrics; by default, with the owned client: the Temporal check and process counts. */
  health?: HealthRouterOptions;
}

export interface RunningApiServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startApiServer(options: StartApiOptions = {}): Promise<RunningApiServer> {
  const config = options.config ?? loadApiConfig();
  const logger = options.logger ?? createLogger({ name: 'ramp-api' });
  const owned = options.ramp ? undefined : await RampClient.connect();
  const ramp = options.ramp ?? owned!;
  const observability = loadObservabilityConfig();
  const health =
    options.health ??
    (owned
      ? {
          temporal: owned.temporal,
          metrics: new RampMetrics({ temporal: owned.temporal, logger }),
          metricsToken: observability.metricsToken,
          timeoutMs: observability.readinessTimeoutMs,
        }
      : undefined);
  const server = http.createServer(createApiApp({ ramp, apiKey: config.apiKey, logger, ...(health ? { health } : {}) }));
  const listening = await listen(server, config.port, config.host, 'http');
  logger.info({ url: listening.url }, 'HTTP API listening');
  return {
    url: listening.url,
    port: listening.port,
    async close() {
      await listening.close();
      await owned?.close();
    },
  };
}
