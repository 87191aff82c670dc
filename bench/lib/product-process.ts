/**
 * A process of the product (`npm run worker`, `npm run api`) started as a shell starts it, from a project checkout
 * (this one by default, or another one a leg compares with): Node with tsx, the entry file, the checkout as its
 * folder, configured by its environment alone. Resolves once its health route answers 200.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../src/http/free-port';

/** This checkout. */
export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/** Every product process still alive, killed if the bench exits without stopping them (its deadline, say). */
const live = new Set<ChildProcess>();
process.on('exit', () => live.forEach((child) => child.kill('SIGKILL')));

export interface ProductProcess {
  pid: number | undefined;
  /** Where its health route is served. */
  port: number;
  /** The last lines it wrote (stdout and stderr). */
  output(): string;
  /** SIGTERM, then SIGKILL after 15 s. */
  stop(): Promise<void>;
}

export interface ProductProcessOptions {
  /** The entry file under the checkout, e.g. src/entry/worker.ts. */
  entry: string;
  /** The checkout's folder (default: this one). */
  root?: string;
  env: Record<string, string>;
  /** The variable that names the port its /healthz is served on (WORKER_HEALTH_PORT, API_PORT). */
  portVariable: string;
  timeoutMs: number;
}

export async function startProductProcess(options: ProductProcessOptions): Promise<ProductProcess> {
  const root = options.root ?? PROJECT_ROOT;
  const port = await freePort();
  // As a shell would start it: its WORKER_* settings and its Node options (a heap limit sizes the cache).
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => (name.startsWith('WORKER_') && name !== 'WORKER_HEALTH_PORT') || name === 'NODE_OPTIONS',
    ),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, options.entry)], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'warn',
      ...inherited,
      ...options.env,
      [options.portVariable]: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      live.delete(child);
      resolve();
    }),
  );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  const name = path.basename(options.entry, '.ts');
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the ${name} process exited: ${output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) })
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return { pid: child.pid, port, output: () => output, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`the ${name} process did not serve within ${options.timeoutMs / 1000} s: ${output}`);
}
