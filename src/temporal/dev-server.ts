/**
 * Starts `temporal server start-dev` for local use and tests: SQLite under `.data/` (workflows survive a restart),
 * the Web UI, our namespace and our search attributes. Resolves once the frontend answers; `stop()` ends it cleanly.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import type { DevServerTuning } from '../config/temporal';
import { freePort } from '../http/free-port';
import { devServerSearchAttributeArgs } from './search-attributes';

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
  /** SQLite pragmas and dynamic config (src/config/temporal.ts); none means SQLite's and the CLI's defaults. */
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

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const killTimer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(killTimer);
        resolve();
      });
      child.kill('SIGTERM');
    });
    return stopping;
  };

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
