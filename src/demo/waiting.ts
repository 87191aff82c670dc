/** How the demo waits on processes: following a view to its end, the outcome events out, and any step in bounds. */

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
  done: (state: S) => boolean | Promise<boolean>,
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
      if (await done(last)) return last;
    } catch {
      // Not started yet (the first webhook is on its way): read again.
    }
    await pause(options);
  }
  return last;
}

/**
 * Waits until no outcome event of the story waits to be delivered (each is delivered or given up), so the story's
 * last lines follow the client's last notifications (a ramp reads as ended before its last event is sent).
 */
export async function outcomesSent(waiting: () => Promise<string[]>, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.scenarioTimeoutMs;
  for (;;) {
    const left = await waiting().catch(() => ['(the ledger could not be read)']);
    if (left.length === 0) return;
    if (Date.now() >= deadline) {
      options.say(
        `    outcome events still being sent after ${options.scenarioTimeoutMs} ms: ${left.join(', ')}`,
      );
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
