/**
 * The Temporal server the product runs against: the one named by TEMPORAL_ADDRESS, or a local dev server this
 * process provisions and starts (SQLite under .data/, so workflows survive a restart).
 */
import path from 'node:path';
import type { TemporalConfig } from '../config/temporal';
import { freePort } from '../http/free-port';
import { DEV_SERVER_TUNING, startDevServer } from './dev-server';
import { ensureTemporalCli } from './install-cli';

export interface TemporalServer {
  address: string;
  uiUrl: string | null;
  /** True when this process started the server (and so stops it). */
  local: boolean;
  stop(): Promise<void>;
}

/** Where the Web UI is served, as its browser origin sees it. */
export interface WebUiAddress {
  ip: string;
  port: number;
}

/**
 * Where the Web UI will be: the local dev server's (TEMPORAL_DEV_IP, TEMPORAL_UI_PORT; a port of 0 becomes a free
 * port now), or, against TEMPORAL_ADDRESS, the UI on this machine at TEMPORAL_UI_PORT (docker-compose publishes it
 * on 127.0.0.1:8233). Decided before anything starts, so that the codec server can allow the UI's origin.
 */
export async function plannedWebUi(config: TemporalConfig): Promise<WebUiAddress> {
  const { ip, uiPort } = config.devServer;
  if (config.address) return { ip: '127.0.0.1', port: uiPort || 8233 };
  return { ip: ip === '0.0.0.0' ? '127.0.0.1' : ip, port: uiPort || (await freePort(ip)) };
}

export async function useTemporalServer(
  config: TemporalConfig,
  log: (line: string) => void,
  extraDevServerArgs: string[] = [],
  webUi: WebUiAddress | undefined,
  /** Where the CLI provisioning reads TEMPORAL_CLI_PATH, PATH and the rest (src/temporal/install-cli.ts). */
  env: NodeJS.ProcessEnv,
): Promise<TemporalServer> {
  if (config.address) {
    log(`[temporal] using the Temporal server at ${config.address} (namespace ${config.namespace})`);
    return { address: config.address, uiUrl: null, local: false, stop: () => Promise.resolve() };
  }
  const cli = await ensureTemporalCli({ log, env });
  const server = await startDevServer({
    cliPath: cli.path,
    namespace: config.namespace,
    ip: config.devServer.ip,
    port: config.devServer.port,
    uiPort: webUi?.port ?? config.devServer.uiPort,
    dbFile: path.join(config.devServer.dataDir, 'temporal.sqlite'),
    tuning: DEV_SERVER_TUNING,
    log,
    extraArgs: extraDevServerArgs,
  });
  return { address: server.address, uiUrl: server.uiUrl, local: true, stop: () => server.stop() };
}
