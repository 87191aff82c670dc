/**
 * `npm run bench`: the performance measurements, each against a baseline taken in the same run, on loopback only,
 * in this order (MEASUREMENTS; `--only` picks some):
 * - signal-path: the receiver against a raw signalWithStart loop, closed loops (throughput, ack p50 and p99);
 * - ack-latency: an open loop at a share of the raw maximum, receiver against raw;
 * - receiver-breakdown: the receiver's latency one layer at a time;
 * - deposit-wallets: deposit wallets through the HTTP API (worker and API processes, of this checkout or another)
 *   against raw signalWithStart, the worker's memory, what each step of a wallet costs, cached and evicted users;
 * - event-to-state: from the receiver's 200 to the owning off-ramp having applied the delivery, open loop, against
 *   the forward alone;
 * - bursts: 10 off-ramps posted at once through the sandbox (time scale 0.001), median settle time against the
 *   sandbox's schedule for the chain;
 * - concurrent-offramps: many off-ramps through the sandbox (time scale 0.01), all settled once, their rate against
 *   what the receiver's rate allows;
 * - statement: the settlement statement of 100,000 booked rows streamed over GET /v1/statement, against the raw
 *   SELECT of the same rows, with the heap sampled during the stream;
 * - events: GET /v1/events at 1,000,000 outcome events, first, filtered and deep pages, against the same pages read
 *   straight from the ledger;
 * - cost: off-ramps and on-ramps settled end to end as a client runs them, and what each cost in Temporal Cloud's
 *   billable actions, history events and visibility calls (on a metered server of its own);
 * - scale: one reconciliation run over 5,000 open ramps and 5,000 wallets against an operator 200 ms late, its worker
 *   process SIGKILLed mid-run: its duration against RECONCILE_INTERVAL, its operator calls against its budget.
 * The first three hand deliveries to Temporal with no worker; bursts, concurrent-offramps and cost run the whole
 * stack (the sandbox delivering to the receiver, routers and ramps on a worker process: bench/lib/ramp-stack.ts);
 * the stacks, statement and events each have a database of their own on the run's embedded PostgreSQL.
 * A quick profile by default (about fifteen minutes on an idle 2-core machine), `--profile full` for the long one.
 * Writes bench/results/latest.json and bench/results/latest.md (figure, baseline, ratio, target, and the machine)
 * and prints the table. Bounded: each leg stops at its count or its time limit, and the whole run at its deadline.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { parseDurationMs } from '../src/config/duration';
import { commandFlags, defineCommand } from '../src/entry/args';
import { ackLatency } from './ack-latency';
import { bursts } from './bursts';
import { concurrentOffRamps } from './concurrent-offramps';
import { depositWallets } from './deposit-wallets';
import { eventToStateMeasurement } from './event-to-state';
import { eventsList } from './events';
import { DIRECT_FORWARD_TIMEOUT_MS } from '../src/config/receiver';
import { ROUTER_SHARDS } from '../src/domain/ids';
import { describeTuning, startBenchContext } from './lib/context';
import { machineInfo } from './lib/machine';
import type { BenchSettings, Measurement, Shared } from './lib/measurement';
import { type BenchReport, markdown } from './lib/report';
import { persistenceDelta, summarizePersistence } from './lib/server-metrics';
import { receiverBreakdown } from './receiver-breakdown';
import { signalPath } from './signal-path';
import { rampCost } from './ramp-cost';
import { scaleLeg } from './scale';
import { statementExport } from './statement';

const MEASUREMENTS: Measurement[] = [
  signalPath,
  ackLatency,
  receiverBreakdown,
  depositWallets,
  eventToStateMeasurement,
  bursts,
  concurrentOffRamps,
  statementExport,
  eventsList,
  rampCost,
  scaleLeg,
];

interface Profile extends BenchSettings {
  deadlineMs: number;
}

const PROFILES: Record<'quick' | 'full', Profile> = {
  quick: {
    deliveries: 1000,
    concurrency: 20,
    ids: 0,
    rounds: 3,
    legTimeLimitMs: 60_000,
    openLoopDurationMs: 20_000,
    openLoopShare: 0.5,
    maxInFlight: 500,
    drainMs: 30_000,
    requestTimeoutMs: 30_000,
    walletUsers: 200,
    walletSample: 50,
    burstSize: 10,
    // As many at once as the closed loops that set the receiver's rate.
    deliveryConcurrency: 20,
    // The full profile's 1,000 take minutes on a shared 2-core machine: the quick one stays at 200.
    offRamps: 200,
    offRampUsers: 40,
    settleTimeLimitMs: 5 * 60_000,
    statementRamps: 100_000,
    events: 1_000_000,
    costRamps: 5,
    // The installed base, in both profiles: the leg's claim is about that volume.
    scaleRamps: 5_000,
    scaleWallets: 5_000,
    deadlineMs: 30 * 60_000,
  },
  full: {
    deliveries: 5000,
    concurrency: 20,
    ids: 0,
    rounds: 3,
    // 10,000 deposit wallets at 10-20/s on a 2-core machine need most of this.
    legTimeLimitMs: 1_200_000,
    openLoopDurationMs: 60_000,
    openLoopShare: 0.5,
    maxInFlight: 2000,
    drainMs: 60_000,
    requestTimeoutMs: 30_000,
    walletUsers: 10_000,
    walletSample: 200,
    burstSize: 10,
    deliveryConcurrency: 20,
    offRamps: 1000,
    offRampUsers: 1000,
    settleTimeLimitMs: 20 * 60_000,
    statementRamps: 100_000,
    events: 1_000_000,
    costRamps: 20,
    scaleRamps: 5_000,
    scaleWallets: 5_000,
    deadlineMs: 90 * 60_000,
  },
};

const COMMAND = defineCommand({
  usage: 'npm run bench --',
  summary:
    'Measures the signal path (the receiver against a raw signalWithStart loop), the open-loop ack latency, the ' +
    "receiver's latency layer by layer, deposit wallets, event to state, bursts of off-ramps, concurrent " +
    'off-ramps, the statement, the events API, the cost of a ramp and a reconciliation at scale, each against a ' +
    'baseline from the same run, ' +
    'on dev servers and a PostgreSQL of its own on loopback; writes ' +
    'bench/results/latest.json and latest.md.',
  flags: {
    profile: {
      type: 'string',
      valueName: 'quick|full',
      description: 'quick (default, about fifteen minutes) or full',
    },
    only: {
      type: 'string',
      valueName: 'names',
      description: `comma-separated: ${MEASUREMENTS.map((m) => m.name).join(', ')}`,
    },
    deliveries: {
      type: 'string',
      valueName: 'n',
      description: 'deliveries per closed-loop leg (BENCH_DELIVERIES)',
    },
    concurrency: {
      type: 'string',
      valueName: 'n',
      description: 'senders at once in a closed loop (BENCH_CONCURRENCY)',
    },
    ids: {
      type: 'string',
      valueName: 'n',
      description: 'distinct resource IDs per leg (default: one per delivery)',
    },
    rounds: { type: 'string', valueName: 'n', description: 'closed-loop rounds; figures are medians' },
    'wallet-users': {
      type: 'string',
      valueName: 'n',
      description: 'end users whose deposit wallets are created',
    },
    checkout: {
      type: 'string',
      valueName: 'dir',
      description: 'the project checkout whose worker and API deposit-wallets runs (default: this one)',
    },
    'open-loop-duration': {
      type: 'string',
      valueName: 'duration',
      description: 'open-loop length, e.g. 20s',
    },
    'open-loop-share': {
      type: 'string',
      valueName: 'share',
      description: 'open-loop rate as a share of the raw maximum (0.5)',
    },
    'leg-time-limit': { type: 'string', valueName: 'duration', description: 'longest closed-loop leg' },
    'event-rate': {
      type: 'string',
      valueName: 'per second',
      description: "event-to-state's open-loop rate (default: the open-loop share of the raw maximum)",
    },
    burst: { type: 'string', valueName: 'n', description: 'off-ramps posted at once in the burst (10)' },
    'delivery-concurrency': {
      type: 'string',
      valueName: 'n',
      description:
        "the sandbox's webhooks in flight at once to the receiver, bursts and concurrent off-ramps (20)",
    },
    offramps: { type: 'string', valueName: 'n', description: 'concurrent off-ramps (quick 200, full 1000)' },
    'offramp-users': {
      type: 'string',
      valueName: 'n',
      description: 'end users the concurrent off-ramps deposit to, in turn (quick 40, full 1000)',
    },
    'settle-time-limit': {
      type: 'string',
      valueName: 'duration',
      description: 'longest wait for off-ramps to settle or be ready (quick 5m, full 20m)',
    },
    'statement-ramps': {
      type: 'string',
      valueName: 'n',
      description: "booked ramps in the statement's period (100000)",
    },
    events: {
      type: 'string',
      valueName: 'n',
      description: 'outcome events in the ledger the events leg lists (1000000)',
    },
    'cost-ramps': {
      type: 'string',
      valueName: 'n',
      description: 'off-ramps, and as many on-ramps, whose cost is counted (quick 5, full 20)',
    },
    'scale-ramps': {
      type: 'string',
      valueName: 'n',
      description: 'open ramps the scale leg reconciles (5000)',
    },
    'scale-wallets': {
      type: 'string',
      valueName: 'n',
      description: "end users' deposit wallets the scale leg reconciles (5000)",
    },
    deadline: {
      type: 'string',
      valueName: 'duration',
      description: 'the whole run stops (status 1) past this',
    },
    out: { type: 'string', valueName: 'dir', description: 'results folder (default bench/results)' },
    'server-metrics': {
      type: 'boolean',
      description:
        "the npm-start server also serves its metrics; each leg's persistence requests by operation go in the report",
    },
  },
  notes: [
    'Figures are only comparable with their baseline of the same run; a busy machine makes both slower, not the ratio right.',
    'BENCH_DELIVERIES and BENCH_CONCURRENCY still set --deliveries and --concurrency.',
  ],
});

function positiveInteger(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name}: "${text}" is not a positive integer`);
  return value;
}

function positiveNumber(name: string, text: string): number {
  const value = Number(text);
  if (!(Number.isFinite(value) && value > 0)) throw new Error(`${name}: "${text}" is not a positive number`);
  return value;
}

function benchSettings(
  flags: ReturnType<typeof commandFlags<typeof COMMAND.flags>>,
  env: NodeJS.ProcessEnv,
): { profile: string; settings: Profile; only: Measurement[] } {
  const profileName = flags.profile ?? 'quick';
  if (profileName !== 'quick' && profileName !== 'full')
    throw new Error(`--profile: "${profileName}" is not quick or full`);
  const base = PROFILES[profileName];
  const deliveries = positiveInteger(
    '--deliveries',
    flags.deliveries ?? env.BENCH_DELIVERIES,
    base.deliveries,
  );
  const share =
    flags['open-loop-share'] === undefined ? base.openLoopShare : Number(flags['open-loop-share']);
  if (!(share > 0 && share <= 1))
    throw new Error(`--open-loop-share: "${flags['open-loop-share']}" is not in (0, 1]`);
  const settings: Profile = {
    ...base,
    deliveries,
    concurrency: positiveInteger(
      '--concurrency',
      flags.concurrency ?? env.BENCH_CONCURRENCY,
      base.concurrency,
    ),
    ids: positiveInteger('--ids', flags.ids, deliveries),
    rounds: positiveInteger('--rounds', flags.rounds, base.rounds),
    walletUsers: positiveInteger('--wallet-users', flags['wallet-users'], base.walletUsers),
    ...(flags.checkout ? { checkout: path.resolve(flags.checkout) } : {}),
    openLoopShare: share,
    ...(flags['event-rate'] ? { eventRate: positiveNumber('--event-rate', flags['event-rate']) } : {}),
    burstSize: positiveInteger('--burst', flags.burst, base.burstSize),
    deliveryConcurrency: positiveInteger(
      '--delivery-concurrency',
      flags['delivery-concurrency'],
      base.deliveryConcurrency,
    ),
    offRamps: positiveInteger('--offramps', flags.offramps, base.offRamps),
    offRampUsers: positiveInteger('--offramp-users', flags['offramp-users'], base.offRampUsers),
    statementRamps: positiveInteger('--statement-ramps', flags['statement-ramps'], base.statementRamps),
    events: positiveInteger('--events', flags.events, base.events),
    costRamps: positiveInteger('--cost-ramps', flags['cost-ramps'], base.costRamps),
    scaleRamps: positiveInteger('--scale-ramps', flags['scale-ramps'], base.scaleRamps),
    scaleWallets: positiveInteger('--scale-wallets', flags['scale-wallets'], base.scaleWallets),
    settleTimeLimitMs: flags['settle-time-limit']
      ? parseDurationMs(flags['settle-time-limit'])
      : base.settleTimeLimitMs,
    openLoopDurationMs: flags['open-loop-duration']
      ? parseDurationMs(flags['open-loop-duration'])
      : base.openLoopDurationMs,
    legTimeLimitMs: flags['leg-time-limit'] ? parseDurationMs(flags['leg-time-limit']) : base.legTimeLimitMs,
    deadlineMs: flags.deadline ? parseDurationMs(flags.deadline) : base.deadlineMs,
  };
  const names = flags.only
    ? flags.only.split(',').map((name) => name.trim())
    : MEASUREMENTS.map((m) => m.name);
  const unknown = names.filter((name) => !MEASUREMENTS.some((m) => m.name === name));
  if (unknown.length > 0) throw new Error(`--only: unknown measurement ${unknown.join(', ')}`);
  return { profile: profileName, settings, only: MEASUREMENTS.filter((m) => names.includes(m.name)) };
}

async function main(): Promise<number> {
  const flags = commandFlags(COMMAND);
  const { profile, settings, only } = benchSettings(flags, process.env);
  const outDir = path.resolve(flags.out ?? path.join(__dirname, 'results'));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  // The SDK's own lines (the wallet worker's) at warn and on stderr: stdout carries the table alone.
  Runtime.install({
    logger: new DefaultLogger('WARN', (entry) => log(`[sdk] ${entry.level} ${entry.message}`)),
  });
  const machine = machineInfo();
  const startedAt = new Date().toISOString();
  log(
    `[bench] ${profile} profile on ${machine.cpuModel} (${machine.cores} cores), load average ${machine.loadAverage}`,
  );

  const context = await startBenchContext({
    env: process.env,
    maxSockets: Math.max(settings.concurrency, settings.maxInFlight),
    requestTimeoutMs: settings.requestTimeoutMs,
    serverMetrics: flags['server-metrics'] === true,
    log,
  });
  const deadline = setTimeout(() => {
    log(`[bench] deadline of ${settings.deadlineMs / 1000} s passed: stopping`);
    void context.close().finally(() => process.exit(1));
  }, settings.deadlineMs);
  deadline.unref();
  try {
    const shared: Shared = {};
    const report: BenchReport = {
      startedAt,
      profile,
      settings: {
        deliveries: settings.deliveries,
        concurrency: settings.concurrency,
        ids: settings.ids,
        rounds: settings.rounds,
        'wallet users': settings.walletUsers,
        'open loop': `${settings.openLoopDurationMs / 1000} s at ${settings.openLoopShare * 100} % of the raw maximum`,
        ...(settings.eventRate ? { 'event-to-state rate': `${settings.eventRate}/s` } : {}),
        burst: settings.burstSize,
        'sandbox delivery concurrency': settings.deliveryConcurrency,
        'concurrent off-ramps': `${settings.offRamps} for ${settings.offRampUsers} end users`,
        'statement ramps': settings.statementRamps,
        'outcome events': settings.events,
        ...(settings.checkout ? { 'deposit-wallets checkout': settings.checkout } : {}),
        'cost ramps': `${settings.costRamps} off-ramps and ${settings.costRamps} on-ramps`,
        scale: `${settings.scaleRamps} open ramps and ${settings.scaleWallets} wallets reconciled`,
        'baseline server': describeTuning(context.baseline.tuning),
        'npm-start server': describeTuning(context.subject.tuning),
        'router shards': String(ROUTER_SHARDS),
        "receiver's own hop": `${DIRECT_FORWARD_TIMEOUT_MS} ms budget`,
        ...(context.subjectPersistence ? { 'npm-start server metrics': 'on (--server-metrics)' } : {}),
      },
      machine,
      figures: [],
      legs: {},
    };
    for (const measurement of only) {
      log(`[bench] ${measurement.name}: ${measurement.description}`);
      const persistenceBefore = await context.subjectPersistence?.();
      const result = await measurement.run(context, settings, shared, log);
      const persistenceAfter = await context.subjectPersistence?.();
      report.figures.push(...result.figures);
      report.legs[measurement.name] = result.legs;
      if (persistenceBefore && persistenceAfter) {
        (report.serverPersistence ??= {})[measurement.name] = summarizePersistence(
          persistenceDelta(persistenceBefore, persistenceAfter),
        );
      }
    }
    mkdirSync(outDir, { recursive: true });
    const table = markdown(report);
    writeFileSync(path.join(outDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(path.join(outDir, 'latest.md'), table);
    process.stdout.write(table);
    log(`[bench] written ${path.join(outDir, 'latest.json')} and latest.md`);
    return 0;
  } finally {
    clearTimeout(deadline);
    await context.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
