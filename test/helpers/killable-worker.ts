/**
 * The test worker in a process of its own (`worker-process.ts`), for tests that kill it with SIGKILL at a chosen
 * instant (a real crash, not a graceful shutdown) or freeze it there.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export interface KillableWorker {
  child: ChildProcess;
  /** Resolves once the process has printed `line` (a `kill-point:<name>`, say); rejects if it exits first. */
  printed(line: string, timeoutMs?: number): Promise<void>;
  /** SIGKILL, resolved once the process is gone; nothing when it already is. */
  kill(): Promise<void>;
  /** SIGSTOP: a stalled worker, not a dead one. Its timers and sockets wait, and go on at `thaw` (SIGCONT). */
  freeze(): void;
  thaw(): void;
  /** SIGUSR2: goes on from a `pause-point`. */
  resume(): void;
}

/** Every worker process started and not yet gone: killed when this process exits, frozen or paused or not. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts the worker process with `env` over this process's environment; resolves once it polls its task queue. */
export async function startWorkerProcess(env: Record<string, string>): Promise<KillableWorker> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'worker-process.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  const waiters: Array<{ line: string; resolve: () => void }> = [];
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    for (const waiter of [...waiters]) {
      if (output.includes(waiter.line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const printed = (line: string, timeoutMs = 60_000) =>
    new Promise<void>((resolve, reject) => {
      if (output.includes(line)) return resolve();
      const timer = setTimeout(
        () => reject(new Error(`worker process never printed ${line}:\n${output}`)),
        timeoutMs,
      );
      waiters.push({ line, resolve: () => (clearTimeout(timer), resolve()) });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`worker process exited (${code}) before ${line}:\n${output}`));
      });
    });
  const kill = async () => {
    if (gone()) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  try {
    await printed('worker-ready');
  } catch (error) {
    await kill();
    throw error;
  }
  return {
    child,
    printed,
    kill,
    freeze: () => child.kill('SIGSTOP'),
    thaw: () => child.kill('SIGCONT'),
    resume: () => child.kill('SIGUSR2'),
  };
}
