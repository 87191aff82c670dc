/**
 * The maxima later measurements scale their load by, taken from `shared` when an earlier measurement of the run
 * measured them, otherwise measured here with the same closed loop (settings' deliveries, concurrency, ID spread and
 * leg time limit), and left in `shared` for the next ones.
 */
import { type BenchContext, deliveryBody, signalLikeReceiver } from './context';
import { closedLoop } from './load';
import { type BenchSettings, resourceIdOf, RUN_TAG, type Shared } from './measurement';

/** Raw signalWithStart on the WAL baseline server (the signal path's raw@baseline leg). */
export async function rawMaximum(
  context: BenchContext,
  settings: BenchSettings,
  shared: Shared,
  log: (line: string) => void,
): Promise<number> {
  if (shared.rawMaxThroughput !== undefined) return shared.rawMaxThroughput;
  const idOf = resourceIdOf(`rm-${RUN_TAG}`, settings.ids);
  const result = await closedLoop({
    count: settings.deliveries,
    concurrency: settings.concurrency,
    timeLimitMs: settings.legTimeLimitMs,
    send: async (index) => {
      await signalLikeReceiver(context.baseline.temporal, context.timings, idOf(index));
      return true;
    },
  });
  shared.rawMaxThroughput = result.throughput;
  log(`[bench] raw maximum (closed loop, WAL baseline server) ${result.throughput.toFixed(1)}/s`);
  return result.throughput;
}

/** The receiver on the npm-start server, no worker (the signal path's receiver@npm-start leg). */
export async function receiverMaximum(
  context: BenchContext,
  settings: BenchSettings,
  shared: Shared,
  log: (line: string) => void,
): Promise<number> {
  if (shared.receiverThroughput !== undefined) return shared.receiverThroughput;
  const idOf = resourceIdOf(`rv-${RUN_TAG}`, settings.ids);
  const result = await closedLoop({
    count: settings.deliveries,
    concurrency: settings.concurrency,
    timeLimitMs: settings.legTimeLimitMs,
    send: async (index) =>
      (await context.post(context.receiver.recipientUrls.transaction, deliveryBody(idOf(index)))) === 200,
  });
  shared.receiverThroughput = result.throughput;
  log(`[bench] receiver maximum (closed loop, npm-start server) ${result.throughput.toFixed(1)}/s`);
  return result.throughput;
}
