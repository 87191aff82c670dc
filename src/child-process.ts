/** Stopping a local server this process started as a child: the embedded PostgreSQL and the Temporal dev server. */
import type { ChildProcess } from 'node:child_process';

/** How long a child may take to exit after its stop signal before it is killed. */
const KILL_AFTER_MS = 10_000;

/**
 * The child's stop, once however often it is called: `signal`, then SIGKILL if it has not exited in time. Resolves
 * when it exited (at once when it already had).
 */
export function childStopper(child: ChildProcess, signal: NodeJS.Signals): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
      child.once('exit', () => {
        clearTimeout(killTimer);
        resolve();
      });
      child.kill(signal);
    });
    return stopping;
  };
}
