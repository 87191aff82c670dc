/**
 * The signal path: the receiver on the dev server as `npm start` launches it against a raw `signalWithStart` loop on
 * the WAL baseline server, and the raw loop on the npm-start server too (which separates the server's share from
 * the receiver's). Same concurrency and ID spread on every leg; legs interleave within each round, in an order that
 * rotates from round to round; each figure is the median over rounds.
 */
import { closedLoop, type LoadResult } from './lib/load';
import { cpuSeconds } from './lib/machine';
import { type BenchServer, deliveryBody, signalLikeReceiver } from './lib/context';
import { DEFAULT_ROUTER_SHARDS } from '../src/config/receiver';
import { type Measurement, resourceIdOf, RUN_TAG } from './lib/measurement';
import { median } from './lib/stats';

type LegName = 'raw@baseline' | 'raw@npm-start' | 'receiver@npm-start';

/** What the receiver's signal-with-start targets, against the raw loop's one execution per resource ID. */
const ROUTED_AS = `the receiver signals ${DEFAULT_ROUTER_SHARDS} shard routers, running workflows after their first delivery; the raw loop starts one router per resource ID`;
const LEGS: LegName[] = ['raw@baseline', 'raw@npm-start', 'receiver@npm-start'];

export interface LegRound extends LoadResult {
  /** Cores the leg's dev server used while it ran. */
  devServerCores?: number;
}

export const signalPath: Measurement = {
  name: 'signal-path',
  description: 'receiver vs raw signalWithStart, closed loop: throughput and ack percentiles',
  async run(context, settings, shared, log) {
    const rounds: Record<LegName, LegRound[]> = {
      'raw@baseline': [],
      'raw@npm-start': [],
      'receiver@npm-start': [],
    };
    const serverOf = (leg: LegName): BenchServer =>
      leg === 'raw@baseline' ? context.baseline : context.subject;
    for (let round = 0; round < settings.rounds; round += 1) {
      const order = LEGS.map((_, index) => LEGS[(index + round) % LEGS.length]!);
      for (const leg of order) {
        const idOf = resourceIdOf(`sp-${RUN_TAG}-${round}-${leg.replace(/[@]/g, '-')}`, settings.ids);
        const server = serverOf(leg);
        const send = leg.startsWith('raw')
          ? async (index: number) => {
              await signalLikeReceiver(server.temporal, context.timings, idOf(index));
              return true;
            }
          : async (index: number) =>
              (await context.post(context.receiver.recipientUrls.transaction, deliveryBody(idOf(index)))) ===
              200;
        const cpuBefore = await cpuSeconds(server.server.pid);
        const result = await closedLoop({
          count: settings.deliveries,
          concurrency: settings.concurrency,
          timeLimitMs: settings.legTimeLimitMs,
          send,
        });
        const cpuAfter = await cpuSeconds(server.server.pid);
        const devServerCores =
          cpuBefore === undefined || cpuAfter === undefined
            ? undefined
            : (cpuAfter - cpuBefore) / result.seconds;
        rounds[leg].push({ ...result, ...(devServerCores === undefined ? {} : { devServerCores }) });
        log(
          `[signal-path] round ${round + 1} ${leg}: ${result.throughput.toFixed(1)}/s, p50 ${result.latency.p50.toFixed(1)} ms, ` +
            `p99 ${result.latency.p99.toFixed(1)} ms, errors ${result.errors}${result.timedOut ? ' (time limit)' : ''}`,
        );
      }
    }
    const of = (leg: LegName, pick: (round: LegRound) => number) => median(rounds[leg].map(pick));
    const throughput = (leg: LegName) => of(leg, (round) => round.throughput);
    const p50 = (leg: LegName) => of(leg, (round) => round.latency.p50);
    const p99 = (leg: LegName) => of(leg, (round) => round.latency.p99);
    const errors = LEGS.reduce(
      (sum, leg) => sum + rounds[leg].reduce((total, round) => total + round.errors, 0),
      0,
    );
    shared.rawMaxThroughput = throughput('raw@baseline');
    shared.receiverThroughput = throughput('receiver@npm-start');
    const receiverOnSubject = 'receiver, npm-start server';
    const rawOnBaseline = 'raw, WAL baseline server';
    const ratio = throughput('receiver@npm-start') / throughput('raw@baseline');
    return {
      figures: [
        {
          measurement: 'signal path',
          what: `throughput, ${receiverOnSubject}`,
          value: throughput('receiver@npm-start'),
          unit: '/s',
          baseline: { what: rawOnBaseline, value: throughput('raw@baseline') },
          target: '>= 0.8x',
          met: ratio >= 0.8 && errors === 0,
          note: [errors > 0 ? `${errors} errors over all legs` : '', ROUTED_AS].filter(Boolean).join('; '),
        },
        {
          measurement: 'signal path',
          what: `ack p50, ${receiverOnSubject}`,
          value: p50('receiver@npm-start'),
          unit: 'ms',
          baseline: { what: rawOnBaseline, value: p50('raw@baseline') },
          comparison: 'difference',
          target: '<= +5 ms',
          met: p50('receiver@npm-start') - p50('raw@baseline') <= 5,
        },
        {
          measurement: 'signal path',
          what: `ack p99, ${receiverOnSubject}`,
          value: p99('receiver@npm-start'),
          unit: 'ms',
          baseline: { what: rawOnBaseline, value: p99('raw@baseline') },
          target: '<= 2x',
          met: p99('receiver@npm-start') <= 2 * p99('raw@baseline'),
        },
        {
          measurement: 'signal path',
          what: 'throughput, raw, npm-start server',
          value: throughput('raw@npm-start'),
          unit: '/s',
          baseline: { what: rawOnBaseline, value: throughput('raw@baseline') },
          note: "the server's share: npm start's pragmas and Web UI against the baseline's",
        },
        {
          measurement: 'signal path',
          what: `throughput, ${receiverOnSubject}`,
          value: throughput('receiver@npm-start'),
          unit: '/s',
          baseline: { what: 'raw, same server', value: throughput('raw@npm-start') },
          note: "the receiver's own share, on one server",
        },
        {
          measurement: 'signal path',
          what: `ack p50, ${receiverOnSubject}`,
          value: p50('receiver@npm-start'),
          unit: 'ms',
          baseline: { what: 'raw, same server', value: p50('raw@npm-start') },
          comparison: 'difference',
        },
      ],
      legs: rounds,
    };
  },
};
