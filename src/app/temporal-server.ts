/**
 * The Temporal server the product runs against: the one named by TEMPORAL_ADDRESS, or a local dev server this
 * process provisions and starts (SQLite under .data/, so workflows survive a restart).
 */
import path from 'node:path';
import type { TemporalConfig } from '../config/temporal';
import { startDevServer } from '../temporal/dev-server';
import { ensureTemporalCli } from '../temporal/install-cli';

export interface TemporalServer {
  address: string;
  uiUrl: string | null;
  /** True when this process started the server (and so stops it). */
  local: boolean;
  stop(): Promise<void>;
}

export async function useTemporalServer(
  config: TemporalConfig,
  log: (line: string) => void,
  extraDevServerArgs: string[] = [],
): Promise<TemporalServer> {
  if (config.address) {
    log(`[temporal] using the Temporal server at ${config.address} (namespace ${config.namespace})`);
    return { address: config.address, uiUrl: null, local: false, stop: () => Promise.resolve() };
  }
  const cli = await ensureTemporalCli({ log });
  const server = await startDevServer({
    cliPath: cli.path,
    namespace: config.namespace,
    ip: config.devServer.ip,
    port: config.devServer.port,
    uiPort: config.devServer.uiPort,
    dbFile: path.join(config.devServer.dataDir, 'temporal.sqlite'),
    log,
    extraArgs: extraDevServerArgs,
  });
  return { address: server.address, uiUrl: server.uiUrl, local: true, stop: () => server.stop() };
}
