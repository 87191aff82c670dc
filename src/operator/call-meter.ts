/**
 * Counts the operator calls a piece of work makes, wherever in it they are sent (its own reads, the router's hop
 * it calls, a re-login): reconciliation holds its runs to a budget of calls with it. Every request the transport
 * sends counts once, whatever its answer.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const meters = new AsyncLocalStorage<{ calls: number }[]>();

/** Runs `work`, answering its result and how many operator calls it sent (nested meters each count theirs). */
export async function meterOperatorCalls<T>(work: () => Promise<T>): Promise<{ result: T; calls: number }> {
  const meter = { calls: 0 };
  const result = await meters.run([...(meters.getStore() ?? []), meter], work);
  return { result, calls: meter.calls };
}

/** Called by the transport for each request it sends. */
export function countOperatorCall(): void {
  for (const meter of meters.getStore() ?? []) meter.calls += 1;
}
