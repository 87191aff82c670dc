/**
 * `npm run chaos [-- options]`: the chaos suite from the command line (the full profile by default). Prints the
 * timeline as it happens and a summary; exits 0 only when every invariant held (0 lost, 0 duplicate runs,
 * 0 unrecorded wallets, 0 misattributed; in the ledger 0 lost, stale or duplicate rows and every booked row as the
 * operator's records say), 1 when one did not, 2 when the run itself could not be completed.
 */
import { parseArgs } from 'node:util';
import { parseDurationMs } from '../../../src/config/duration';
import { killEveryChild, logTails } from './harness';
import { type ChaosProfile, formatReport, PROFILES, runChaos, violations } from './scenario';

const HELP = `Usage: npm run chaos -- [options]

Runs the product as separate processes (Temporal dev server, PostgreSQL, sandbox operator, worker, webhook
receiver, HTTP API) on loopback, sends end-user traffic while killing the worker and the receiver, restarting the
dev server, killing and restarting PostgreSQL and injecting delivery, operator and client-endpoint faults, then
checks from the outside: one run per process ID, one wallet per end user (or every extra one recorded), every
process at its expected end, every process with its own end user; and in the ledger, every process's row as it
last wrote it, every ended ramp booked as the operator's records say, every outcome event delivered or pending.

Options:
  --profile <short|full>     the preset to start from (default: full)
  --users <n>                end users
  --worker-kills <n>         SIGKILLs of the worker
  --receiver-kills <n>       SIGKILLs of the webhook receiver
  --dev-server-restarts <n>  restarts of the dev server on the same data file
  --dev-server-signal <s>    SIGKILL or SIGTERM for those restarts
  --database-kills <n>       SIGKILLs of PostgreSQL (started again on its data folder)
  --database-restarts <n>    clean restarts of PostgreSQL (fast shutdown, then start)
  --database-downtime <d>    the longest PostgreSQL stays down at each (e.g. 4s)
  --token-expiries <n>       moments at which every operator token expires
  --releases <n>             releases during the traffic (a worker version started and made current)
  --window <duration>        how long traffic arrives and faults are injected (e.g. 90s, 5m)
  --late-delay <duration>    delay of the delayed deliveries (longer than a flow: they arrive after it ended)
  --deadline <duration>      hard limit of the whole run; every child is killed when it passes
  --seed <n>                 seed of every random choice (printed by every run; default: from the clock)
  --json                     print the report as JSON after the summary
  --keep-files               keep the temporary folder (child logs, the dev server's data file) after a clean
                             run too (a run with findings always keeps it)
  -h, --help                 this text

Exit status: 0 every invariant held; 1 an invariant was violated; 2 the run could not be completed.`;

function count(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a whole number, not "${value}"`);
  return Number(value);
}

function duration(value: string | undefined): number | undefined {
  return value === undefined ? undefined : parseDurationMs(value);
}

function profileFromArgs(
  argv: string[],
): { profile: ChaosProfile; json: boolean; keepFiles: boolean } | null {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      profile: { type: 'string' },
      users: { type: 'string' },
      'worker-kills': { type: 'string' },
      'receiver-kills': { type: 'string' },
      'dev-server-restarts': { type: 'string' },
      'dev-server-signal': { type: 'string' },
      'database-kills': { type: 'string' },
      'database-restarts': { type: 'string' },
      'database-downtime': { type: 'string' },
      'token-expiries': { type: 'string' },
      releases: { type: 'string' },
      window: { type: 'string' },
      'late-delay': { type: 'string' },
      deadline: { type: 'string' },
      seed: { type: 'string' },
      json: { type: 'boolean', default: false },
      'keep-files': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return null;
  const name = values.profile ?? 'full';
  if (name !== 'short' && name !== 'full') throw new Error(`--profile must be short or full, not "${name}"`);
  const signal = values['dev-server-signal'];
  if (signal !== undefined && signal !== 'SIGKILL' && signal !== 'SIGTERM')
    throw new Error('--dev-server-signal must be SIGKILL or SIGTERM');
  const preset = PROFILES[name];
  const pick = <T>(value: T | undefined, fallback: T): T => (value === undefined ? fallback : value);
  const profile: ChaosProfile = {
    ...preset,
    users: pick(count(values.users, 'users'), preset.users),
    workerKills: pick(count(values['worker-kills'], 'worker-kills'), preset.workerKills),
    receiverKills: pick(count(values['receiver-kills'], 'receiver-kills'), preset.receiverKills),
    devServerRestarts: pick(
      count(values['dev-server-restarts'], 'dev-server-restarts'),
      preset.devServerRestarts,
    ),
    devServerSignal: pick(signal, preset.devServerSignal),
    databaseKills: pick(count(values['database-kills'], 'database-kills'), preset.databaseKills),
    databaseRestarts: pick(count(values['database-restarts'], 'database-restarts'), preset.databaseRestarts),
    databaseDowntimeMs: pick(duration(values['database-downtime']), preset.databaseDowntimeMs),
    tokenExpiries: pick(count(values['token-expiries'], 'token-expiries'), preset.tokenExpiries),
    releases: pick(count(values.releases, 'releases'), preset.releases),
    trafficWindowMs: pick(duration(values.window), preset.trafficWindowMs),
    lateDeliveryMs: pick(duration(values['late-delay']), preset.lateDeliveryMs),
    deadlineMs: pick(duration(values.deadline), preset.deadlineMs),
    seed: pick(count(values.seed, 'seed'), Date.now() >>> 0) >>> 0,
  };
  if (profile.users < 1) throw new Error('--users must be at least 1');
  // The sandbox's delay fault holds a delivery at most 10 minutes.
  if (profile.lateDeliveryMs > 600_000) throw new Error('--late-delay must be at most 10m');
  return { profile, json: values.json, keepFiles: values['keep-files'] };
}

async function main(): Promise<number> {
  let parsed: ReturnType<typeof profileFromArgs>;
  try {
    parsed = profileFromArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${HELP}\n`);
    return 2;
  }
  if (!parsed) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const stop = (signal: NodeJS.Signals) => {
    process.stderr.write(`\n${signal}: killing every child process\n`);
    killEveryChild();
    process.exit(130);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  const { profile, json, keepFiles } = parsed;
  try {
    const report = await runChaos(profile, { keepFiles });
    process.stdout.write(`\n${formatReport(report)}\n`);
    if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    if (violations(report) === 0) return 0;
    if (report.logDir) process.stdout.write(`\n${logTails(report.logDir)}\n`);
    return 1;
  } catch (error) {
    process.stderr.write(
      `\nThe chaos run could not be completed (seed ${profile.seed}): ${(error as Error).message}\n`,
    );
    return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(2);
  },
);
