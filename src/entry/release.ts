/**
 * `npm run release`: the worker versions of the task queue's Worker Deployment and what runs on each; with
 * --make-current, a release (or a rollback to a version whose workers still run); with --drained, whether an old
 * version's workers may stop. docs/deployment.md, "Releasing a change", and docs/operations.md, "Rolling back".
 */
import { commandFlags, defineCommand } from './args';
import { runMain } from './run';
import { loadEncryptionConfig } from '../config/encryption';
import { loadTemporalConfig } from '../config/temporal';
import { parseDurationMs } from '../config/duration';
import { workerVersion } from '../config/worker-version';
import {
  type DeploymentReport,
  deploymentReport,
  drainage,
  makeCurrent,
} from '../temporal/worker-deployment';
import { connectTemporal, temporalAddress } from '../temporal/wiring';

const COMMAND = defineCommand({
  usage: 'npm run release --',
  summary:
    "Shows the worker versions of TEMPORAL_TASK_QUEUE's Worker Deployment: which is current, which drain, and how many " +
    'workflows (and long-lived ones) still run on each. With --make-current, makes a version current once its workers ' +
    'poll: new workflows start on it at once, pinned ones finish where they started, and the long-lived ones on other ' +
    'versions are told to move at their next continue-as-new; a rollback is the same for the older version.',
  flags: {
    'make-current': {
      type: 'string',
      valueName: 'build-id',
      description:
        'make this version current (its workers must be running), then move the long-lived runs to it',
    },
    drained: {
      type: 'string',
      valueName: 'build-id',
      description: 'whether that version may stop: neither current nor ramping, and no workflow runs on it',
    },
    wait: {
      type: 'string',
      valueName: 'duration',
      description:
        'with --make-current: the longest wait for its workers to poll, then for the long-lived runs to move (default 10m)',
    },
    json: { type: 'boolean', description: 'print the versions as JSON' },
  },
  notes: ['Exit status: 0 done (--drained: drained), 3 --drained: not drained yet, 1 failure.'],
});

export function formatReport(report: DeploymentReport): string {
  const rows = [
    ['version', 'state', 'running', 'long-lived'],
    ...report.versions.map((version) => [
      version.buildId,
      version.state,
      String(version.running),
      String(version.longLived),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return [
    `Worker Deployment ${report.deploymentName}: current ${report.current ?? 'none (new workflows wait)'}`,
    ...rows.map((row) => `  ${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}`.trimEnd()),
  ].join('\n');
}

async function main(): Promise<number | void> {
  const flags = commandFlags(COMMAND);
  const usage = (problem: string) => {
    process.stderr.write(`${COMMAND.usage}: ${problem}\nRun with --help for the options.\n`);
    return 2;
  };
  if (flags['make-current'] !== undefined && flags.drained !== undefined)
    return usage('--make-current and --drained do not go together');
  let waitMs: number | undefined;
  try {
    waitMs = flags.wait === undefined ? undefined : parseDurationMs(flags.wait);
  } catch (error) {
    return usage(`--wait: ${(error as Error).message}`);
  }
  const env = process.env;
  const temporal = loadTemporalConfig(env);
  const connected = await connectTemporal({
    temporal,
    encryption: loadEncryptionConfig(env),
    address: temporalAddress(temporal),
  });
  const say = (line: string) => process.stdout.write(`${line}\n`);
  try {
    if (flags.drained !== undefined) {
      const { drained, reason } = await drainage(
        connected.client,
        workerVersion(temporal.taskQueue, flags.drained),
      );
      say(`${drained ? 'drained' : 'not drained'}: ${reason}`);
      return drained ? 0 : 3;
    }
    if (flags['make-current'] !== undefined) {
      await makeCurrent(connected.client, workerVersion(temporal.taskQueue, flags['make-current']), {
        log: say,
        ...(waitMs === undefined ? {} : { workersWaitMs: waitMs, handOverWaitMs: waitMs }),
      });
    }
    const report = await deploymentReport(connected.client, temporal.taskQueue);
    say(flags.json ? JSON.stringify(report, null, 2) : formatReport(report));
  } finally {
    await connected.close();
  }
}

if (require.main === module) runMain(main, { failurePrefix: 'release failed: ' });
