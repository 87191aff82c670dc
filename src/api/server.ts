import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { RampClient } from '../client/ramp-client';
import { type ApiConfig, loadApiConfig } from '../config/api';
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
  const health = options.health ?? (owned ? { temporal: owned.temporal, metrics: new RampMetrics({ temporal: owned.temporal, logger }) } : undefined);
  const server = http.createServer(createApiApp({ ramp, apiKey: config.apiKey, logger, ...(health ? { health } : {}) }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  logger.info({ url }, 'HTTP API listening');
  return {
    url,
    port,
    async close() {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      await owned?.close();
    },
  };
}
