/**
 * Ack latency under load: deliveries arrive on a fixed schedule (open loop) at a share (50 %) of the raw maximum
 * measured in the same run, to the receiver on the npm-start server; the baseline is a raw signalWithStart open loop
 * at the same rate on the WAL baseline server. Without the signal path in the run, a raw closed loop measures the
 * maximum first.
 */
import { openLoop, type LoadResult } from './lib/load';
import { deliveryBody, signalLikeReceiver } from './lib/context';
import { type Measurement, resourceIdOf, RUN_TAG } from './lib/measurement';
import { rawMaximum } from './lib/rates';

export const ackLatency: Measurement = {
  name: 'ack-latency',
  description: 'open-loop ack latency at a share of the raw maximum: receiver vs raw',
  async run(context, settings, shared, log) {
    const rawMax = await rawMaximum(context, settings, shared, log);
    const rate = rawMax * settings.openLoopShare;
    const run = (leg: string, send: (id: string) => Promise<boolean>): Promise<LoadResult> => {
      const idOf = resourceIdOf(`al-${RUN_TAG}-${leg}`, settings.ids);
      return openLoop({
        ratePerSecond: rate,
        durationMs: settings.openLoopDurationMs,
        maxInFlight: settings.maxInFlight,
        drainMs: settings.drainMs,
        send: (index) => send(idOf(index)),
      });
    };
    const receiver = await run(
      'receiver',
      async (id) =>
        (await context.post(context.receiver.recipientUrls.transaction, deliveryBody(id))) === 200,
    );
    const raw = await run('raw', async (id) => {
      await signalLikeReceiver(context.baseline.temporal, context.timings, id);
      return true;
    });
    for (const [leg, result] of [
      ['receiver@npm-start', receiver],
      ['raw@baseline', raw],
    ] as const)
      log(
        `[ack-latency] ${leg} at ${rate.toFixed(1)}/s: p50 ${result.latency.p50.toFixed(1)} ms, p99 ${result.latency.p99.toFixed(1)} ms, errors ${result.errors}`,
      );
    const what = `receiver, npm-start server, ${rate.toFixed(1)}/s for ${settings.openLoopDurationMs / 1000} s`;
    const baseline = 'raw, WAL baseline server, same rate';
    return {
      figures: [
        {
          measurement: 'ack latency (open loop)',
          what: `p50, ${what}`,
          value: receiver.latency.p50,
          unit: 'ms',
          baseline: { what: baseline, value: raw.latency.p50 },
          comparison: 'difference',
          target: '<= 20 ms',
          met: receiver.latency.p50 <= 20,
        },
        {
          measurement: 'ack latency (open loop)',
          what: `p99, ${what}`,
          value: receiver.latency.p99,
          unit: 'ms',
          baseline: { what: baseline, value: raw.latency.p99 },
          target: '<= 100 ms',
          met: receiver.latency.p99 <= 100,
        },
        {
          measurement: 'ack latency (open loop)',
          what: `errors, ${what}`,
          value: receiver.errors,
          unit: '',
          baseline: { what: baseline, value: raw.errors },
          comparison: 'difference',
          target: '0',
          met: receiver.errors === 0,
          ...(receiver.firstError ? { note: `first error: ${receiver.firstError}` } : {}),
        },
      ],
      legs: { rate, rawMax, 'receiver@npm-start': receiver, 'raw@baseline': raw },
    };
  },
};
