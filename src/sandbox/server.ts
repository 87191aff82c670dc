/**
 * startSandbox(): the sandbox operator on a real HTTP port (0 = ephemeral), bound to 127.0.0.1 by default.
 * Configuration is `base` (an entry point passes loadSandboxConfig(env); the defaults otherwise) with the other
 * fields on top. It never reads the environment itself.
 */
import { listen } from '../http/listen';
import { createHttpServer, type HttpServerTimeouts } from '../http/server';
import { loadSandboxConfig, validateSandboxConfig, type SandboxConfig } from '../config/sandbox';
import type { FaultsConfigInput } from '../config/sandbox-faults';
import { createSandboxApp } from './app';
import { createSandboxCore, type SandboxCore } from './core';
import type { SandboxContext } from './context';
import type { DeliveryAttemptRecord, SandboxEvent } from './delivery';
import type { OffRampFlows } from './flows/offramp';
import type { CallRecord, SandboxState } from './state';
import type { FaultsConfig } from '../config/sandbox-faults';
import { loadSnapshot, restoreState, saveSnapshot, snapshotState } from './persistence';

export interface SandboxOverrides extends Partial<Omit<SandboxConfig, 'faults'>> {
  /** The configuration the overrides apply to; loadSandboxConfig({}) (every default) when absent. */
  base?: SandboxConfig;
  /** Header, request and keep-alive limits; HTTP_SERVER_TIMEOUTS when absent. */
  timeouts?: HttpServerTimeouts;
  faults?: FaultsConfigInput;
  /** Keep wallets, recipients, the account step, orders and transactions in this JSON file across restarts. */
  stateFile?: string;
}

/** How often a persisted sandbox writes its state when it changed. */
const STATE_SAVE_INTERVAL_MS = 1000;

export interface RunningSandbox {
  /** http://<host>:<port> */
  url: string;
  port: number;
  config: SandboxConfig;
  state: SandboxState;
  ctx: SandboxContext;
  offramp: OffRampFlows;
  /** Every delivery attempt so far (a live view). */
  deliveries(): readonly DeliveryAttemptRecord[];
  events(): readonly SandboxEvent[];
  calls(): readonly CallRecord[];
  setFaults(faults: FaultsConfigInput): FaultsConfig;
  reset(): void;
  close(): Promise<void>;
}

export async function startSandbox(overrides: SandboxOverrides = {}): Promise<RunningSandbox> {
  const { stateFile, base = loadSandboxConfig({}), timeouts, ...configOverrides } = overrides;
  const config = validateSandboxConfig({
    ...base,
    ...configOverrides,
    faults: (overrides.faults ?? base.faults) as FaultsConfig,
  });
  const core: SandboxCore = createSandboxCore(config);
  const persistence = stateFile ? persistState(core, stateFile) : undefined;
  const app = createSandboxApp(core);
  // The same header, request and keep-alive limits as our own servers.
  const server = createHttpServer(app, timeouts);

  const listening = await listen(server, config.port, config.host, 'http');
  const { url, port } = listening;
  core.ctx.logger.info({ url, seed: config.seed, timeScale: config.timeScale }, 'sandbox operator listening');

  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    config,
    state: core.ctx.state,
    ctx: core.ctx,
    offramp: core.offramp,
    deliveries: () => core.ctx.delivery.attempts,
    events: () => core.ctx.delivery.events,
    calls: () => core.ctx.state.calls,
    setFaults: (faults) => core.ctx.faults.set(faults),
    reset: () => core.reset(),
    close() {
      closing ??= (async () => {
        persistence?.stop();
        core.close();
        await listening.close();
      })();
      return closing;
    },
  };
}

/** Restores the state file if present, then saves whenever the state changed (and once more on close). */
function persistState(core: SandboxCore, file: string): { stop(): void } {
  const snapshot = loadSnapshot(file);
  if (snapshot) {
    restoreState(core.ctx.state, snapshot);
    core.ctx.logger.info({ file, wallets: snapshot.wallets.length }, 'sandbox state restored');
  }
  let lastSaved = '';
  const save = () => {
    const { savedAt: _savedAt, ...content } = snapshotState(core.ctx.state);
    const text = JSON.stringify(content);
    if (text === lastSaved) return;
    saveSnapshot(file, snapshotState(core.ctx.state));
    lastSaved = text;
  };
  const timer = setInterval(save, STATE_SAVE_INTERVAL_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      save();
    },
  };
}
