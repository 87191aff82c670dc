/** What every entry point does around its main(): wait for a stop signal, report a failure, set the exit status. */

/** Resolves on the first SIGINT or SIGTERM (Ctrl-C, `docker stop`). */
export function untilStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

export interface RunMainOptions {
  /** Put before the error message on stderr, e.g. `reconcile failed: `. */
  failurePrefix?: string;
  /** Exit as soon as main() answers (the status it returned), instead of letting the event loop drain. */
  exitWhenDone?: boolean;
}

/**
 * Runs main(): a returned number becomes the exit status; a failure is printed (its message only) and exits 1.
 */
export function runMain(main: () => Promise<number | void>, options: RunMainOptions = {}): void {
  main().then(
    (code) => {
      if (typeof code === 'number') process.exitCode = code;
      if (options.exitWhenDone) process.exit(typeof code === 'number' ? code : 0);
    },
    (error: unknown) => {
      process.stderr.write(
        `${options.failurePrefix ?? ''}${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
