/**
 * Starts `temporal server start-dev` for local use and tests: SQLite under `.data/` (workflows survive a restart),
 * the Web UI, our namespace and our search attributes. Resolves once the frontend answers; `stop()` ends it cleanly.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { childStopper } from '../child-process';
import { freePort } from '../http/free-port';
import { devServerSearchAttributeArgs } from './search-attribute-args';

export interface DevServerOptions {
  cliPath: string;
  namespace: string;
  ip?: string;
  /** 0 picks a free port. */
  port?: number;
  /** 0 picks a free port; null runs headless (no UI). */
  uiPort?: number | null;
  /** SQLite file; omit for an in-memory server (tests). */
  dbFile?: string;
  startTimeoutMs?: number;
  log?: (line: string) => void;
  /** SQLite pragmas and dynamic config (DEV_SERVER_TUNING as the product runs it); none: SQLite's and the CLI's defaults. */
  tuning?: DevServerTuning;
  /** Extra `start-dev` arguments, e.g. a codec endpoint for the Web UI. */
  extraArgs?: string[];
}

export interface RunningDevServer {
  address: string;
  uiUrl: string | null;
  namespace: string;
  /** The server's process (tests pause it to play a Temporal that stalls). */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** How a dev server is launched beyond addresses and files: SQLite pragmas and dynamic config. */
export interface DevServerTuning {
  /** `--sqlite-pragma` values. */
  sqlitePragmas: readonly string[];
  /** `--dynamic-config-value` values (JSON values). */
  dynamicConfig: readonly string[];
}

/**
 * WAL lets readers and the one writer proceed together and turns each commit into an append to the OS; with
 * synchronous=OFF nothing waits for the disk. A killed server process loses nothing it acknowledged (the OS holds the
 * writes); an OS crash or power loss can corrupt this local file, which is why production runs a cluster
 * (docs/architecture.md, "The dev server's SQLite").
 */
const DEV_SQLITE_PRAGMAS = ['journal_mode=WAL', 'synchronous=OFF'];

/**
 * `temporal server start-dev` turns off the server's cache of search attribute definitions unless told otherwise, so
 * that an attribute added while it runs is seen at once; it then reads them from SQLite each time it checks one. The
 * cache on roughly halves the persistence requests of an off-ramp (docs/architecture.md, "The dev server's search
 * attribute cache"). The launcher registers every attribute the product uses before the server serves anything
 * (`--search-attribute`), so the cache never misses one; an attribute added by hand to a running server is seen only
 * once the server refreshes its cache (its own interval, which we have not measured).
 */
const DEV_DYNAMIC_CONFIG = [
  'system.forceSearchAttributesCacheRefreshOnRead=false',
  // One partition takes every new task, where the CLI's four left a new workflow's first task waiting about 2 s in
  // a partition no poller was on (docs/architecture.md, "The dev server's task queue partitions"). Reads stay at
  // four, so that tasks an older server wrote to the other three are still handed out.
  'matching.numTaskqueueWritePartitions=1',
  // A worker that schedules an activity on its own task queue gets the activity task in the answer to its workflow
  // task, where the CLI's default sends it through matching: fewer writes per hop (docs/architecture.md, "The dev
  // server hands activities over with the workflow task").
  'system.enableActivityEagerExecution=true',
  // Whether workflows still run on a worker version that is no longer current is read from visibility after a grace
  // period, then refreshed, each three minutes by default for a cluster's lagging visibility; this server's is
  // immediate, so a drained version shows as drained within seconds (npm run release, docs/deployment.md).
  'matching.wv.VersionDrainageStatusVisibilityGracePeriod="5s"',
  'matching.wv.VersionDrainageStatusRefreshInterval="5s"',
];

/** The dev server as npm start, the tests and the chaos run launch it. */
export const DEV_SERVER_TUNING: DevServerTuning = {
  sqlitePragmas: DEV_SQLITE_PRAGMAS,
  dynamicConfig: DEV_DYNAMIC_CONFIG,
};

/** The `start-dev` arguments of a tuning, for every launcher of the dev server. */
export const devServerTuningArgs = (tuning: DevServerTuning | undefined): string[] => [
  ...(tuning?.sqlitePragmas ?? []).flatMap((pragma) => ['--sqlite-pragma', pragma]),
  ...(tuning?.dynamicConfig ?? []).flatMap((value) => ['--dynamic-config-value', value]),
];

async function portIsTaken(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitForFrontend(
  address: string,
  namespace: string,
  child: ChildProcess,
  timeoutMs: number,
  output: () => string,
) {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(
        `temporal server start-dev exited with code ${child.exitCode} before answering:\n${output()}`,
      );
    }
    try {
      const connection = await Connection.connect({ address, connectTimeout: '2s' });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(
    `Temporal dev server at ${address} did not answer within ${timeoutMs} ms: ${String(lastError)}\n${output()}`,
  );
}

export async function startDevServer(options: DevServerOptions): Promise<RunningDevServer> {
  const ip = options.ip ?? '127.0.0.1';
  const port = options.port || (await freePort(ip));
  const uiPort = options.uiPort === null ? null : options.uiPort || (await freePort(ip));
  const log = options.log ?? (() => undefined);
  if (await portIsTaken(port, ip)) {
    throw new Error(
      `Port ${ip}:${port} is already in use (another Temporal dev server?). Stop it, set TEMPORAL_DEV_PORT, or set TEMPORAL_ADDRESS to use it.`,
    );
  }
  const args = [
    'server',
    'start-dev',
    '--ip',
    ip,
    '--port',
    String(port),
    '--namespace',
    options.namespace,
    '--log-level',
    'warn',
  ];
  args.push(...devServerSearchAttributeArgs());
  if (uiPort === null) args.push('--headless');
  else args.push('--ui-port', String(uiPort), '--ui-ip', ip);
  if (options.dbFile) {
    mkdirSync(path.dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
  }
  args.push(...devServerTuningArgs(options.tuning));
  args.push(...(options.extraArgs ?? []));

  const child = spawn(options.cliPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let captured = '';
  const capture = (chunk: Buffer) => {
    captured = (captured + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', capture);
  child.stderr?.on('data', capture);
  const address = `${ip}:${port}`;
  log(
    `[temporal] starting dev server on ${address}${options.dbFile ? ` (data: ${options.dbFile})` : ' (in memory)'}${options.tuning?.sqlitePragmas.length ? `; SQLite ${options.tuning.sqlitePragmas.join(' ')}` : ''}${options.tuning?.dynamicConfig.length ? `; ${options.tuning.dynamicConfig.join(' ')}` : ''}`,
  );

  const stop = childStopper(child, 'SIGTERM');

  try {
    await waitForFrontend(
      address,
      options.namespace,
      child,
      options.startTimeoutMs ?? 60_000,
      () => captured,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const uiUrl = uiPort === null ? null : `http://${ip === '0.0.0.0' ? '127.0.0.1' : ip}:${uiPort}`;
  log(`[temporal] dev server ready on ${address}${uiUrl ? `; Web UI ${uiUrl}` : ''}`);
  return { address, uiUrl, namespace: options.namespace, pid: child.pid, stop };
}
