/** Polling for tests that wait on something asynchronous. */

/** Polls `probe` until it answers a truthy value; fails after `timeoutMs` with the last value seen. */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  description: string,
  timeoutMs = 10_000,
  intervalMs = 10,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last;
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${description}; last value: ${JSON.stringify(last)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
