/**
 * Load drivers. `send(index)` performs one delivery and resolves true on success; a throw or false is an error.
 * - closedLoop: `concurrency` senders, each sending the next delivery as soon as its last one answered, until
 *   `count` are sent or `timeLimitMs` passes (throughput is what the system under test allows).
 * - openLoop: deliveries start on a fixed schedule (`ratePerSecond`) whatever the answers, for `durationMs`;
 *   latency counts from the scheduled start, so a stall is not hidden by senders waiting (coordinated omission).
 *   Beyond `maxInFlight` a due delivery is not sent and counts as an error.
 */
import { summarize, type LatencySummary } from './stats';

export interface LoadResult {
  sent: number;
  ok: number;
  errors: number;
  seconds: number;
  /** Successful deliveries per second of the whole leg. */
  throughput: number;
  latency: LatencySummary;
  /** First error message seen, to say why. */
  firstError?: string;
  /** True when the leg stopped at its time limit before sending everything. */
  timedOut: boolean;
}

type Send = (index: number) => Promise<boolean>;

function recorder() {
  const latencies: number[] = [];
  const state = { ok: 0, errors: 0, firstError: undefined as string | undefined };
  const record = async (send: Send, index: number, startedAt: number) => {
    try {
      if (await send(index)) {
        state.ok += 1;
        latencies.push(performance.now() - startedAt);
        return;
      }
      state.firstError ??= 'unexpected answer';
    } catch (error) {
      state.firstError ??= error instanceof Error ? error.message : String(error);
    }
    state.errors += 1;
  };
  return { latencies, state, record };
}

export async function closedLoop(options: {
  count: number;
  concurrency: number;
  timeLimitMs: number;
  send: Send;
}): Promise<LoadResult> {
  const { latencies, state, record } = recorder();
  const startedAt = performance.now();
  const deadline = startedAt + options.timeLimitMs;
  let next = 0;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < options.count && performance.now() < deadline) {
        const index = next++;
        await record(options.send, index, performance.now());
      }
    }),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  return {
    sent: next,
    ok: state.ok,
    errors: state.errors,
    seconds,
    throughput: state.ok / seconds,
    latency: summarize(latencies),
    ...(state.firstError ? { firstError: state.firstError } : {}),
    timedOut: next < options.count,
  };
}

export async function openLoop(options: {
  ratePerSecond: number;
  durationMs: number;
  maxInFlight: number;
  /** How long to wait for the last answers after the schedule ends. */
  drainMs: number;
  send: Send;
}): Promise<LoadResult> {
  const { latencies, state, record } = recorder();
  const intervalMs = 1000 / options.ratePerSecond;
  const total = Math.max(1, Math.floor((options.durationMs / 1000) * options.ratePerSecond));
  const startedAt = performance.now();
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  let dropped = 0;
  for (let index = 0; index < total; index += 1) {
    const due = startedAt + index * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    if (inFlight.size >= options.maxInFlight) {
      dropped += 1;
      continue;
    }
    sent += 1;
    const delivery = record(options.send, index, due).finally(() => inFlight.delete(delivery));
    inFlight.add(delivery);
  }
  let timedOut = false;
  if (inFlight.size > 0) {
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      Promise.all(inFlight).then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), options.drainMs))),
    ]);
    clearTimeout(timer);
    timedOut = !drained;
  }
  const seconds = (performance.now() - startedAt) / 1000;
  const errors = state.errors + dropped + (timedOut ? inFlight.size : 0);
  return {
    sent,
    ok: state.ok,
    errors,
    seconds,
    throughput: state.ok / seconds,
    latency: summarize(latencies),
    ...(state.firstError || dropped > 0
      ? { firstError: state.firstError ?? `${dropped} deliveries not sent: ${options.maxInFlight} in flight` }
      : {}),
    timedOut,
  };
}
