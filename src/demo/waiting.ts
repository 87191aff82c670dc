/** How the demo waits on processes: following a state to its end, its outcome events out, and any step in bounds. */
import { isDrained, type Outbox } from '../../workflows/outcomes/outbox';

export interface WaitOptions {
  say: (line: string) => void;
  /** Longest wait for one process to reach its expected end. */
  scenarioTimeoutMs: number;
  /** How often process state is read while waiting. */
  pollIntervalMs?: number;
}

const pause = (options: WaitOptions) =>
  new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 500));

/** Reads a process's state until `done` says so (or the time runs out), printing each new step once. */
export async function follow<S extends { status: string; step: string }>(
  label: string,
  read: () => Promise<S>,
  done: (state: S) => boolean,
  options: WaitOptions,
): Promise<S | undefined> {
  const deadline = Date.now() + options.scenarioTimeoutMs;
  let lastStep = '';
  let last: S | undefined;
  while (Date.now() < deadline) {
    try {
      last = await read();
      if (last.step !== lastStep) {
        options.say(`    ${label}: [${last.status}] ${last.step}`);
        lastStep = last.step;
      }
      if (done(last)) return last;
    } catch {
      // Not started yet (the first webhook is on its way): read again.
    }
    await pause(options);
  }
  return last;
}

/**
 * Waits until each process says every outcome event it raised is delivered or given up, so the story's last lines
 * follow the client's last notifications (a process reads as ended before its last event is sent).
 */
export async function outcomesSent(
  processes: ReadonlyArray<{ label: string; read: () => Promise<{ outcomes?: Outbox }> }>,
  options: WaitOptions,
): Promise<void> {
  const deadline = Date.now() + options.scenarioTimeoutMs;
  let waiting = [...processes];
  while (waiting.length > 0) {
    const states = await Promise.all(waiting.map((process) => process.read().catch(() => undefined)));
    waiting = waiting.filter((_process, index) => {
      const outcomes = states[index]?.outcomes;
      return states[index] === undefined || (outcomes !== undefined && !isDrained(outcomes));
    });
    if (waiting.length === 0) return;
    if (Date.now() >= deadline) {
      const labels = waiting.map((process) => process.label).join(', ');
      options.say(`    outcome events still being sent after ${options.scenarioTimeoutMs} ms: ${labels}`);
      return;
    }
    await pause(options);
  }
}

/** Bounds a step of the story, so a demo that cannot proceed says so instead of waiting forever. */
export async function within<T>(what: string, timeoutMs: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(`${what} did not finish within ${timeoutMs} ms (is the worker failing? see its log)`),
            ),
          timeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
