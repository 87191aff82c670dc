/**
 * `npm run schedules:apply`: creates or updates the operations schedules (gas-monitor, reconcile) with the
 * intervals of GAS_MONITOR_INTERVAL and RECONCILE_INTERVAL. Safe to run any number of times.
 */
import { loadEncryptionConfig } from '../config/encryption';
import { loadOperationsConfig } from '../config/operations';
import { loadTemporalConfig } from '../config/temporal';
import { loadWorkflowTimings } from '../config/timings';
import { applySchedules } from '../temporal/schedules';
import { connectTemporal, temporalAddress } from '../temporal/wiring';
import { commandFlags, defineCommand } from './args';
import { runMain } from './run';

const COMMAND = defineCommand({
  usage: 'npm run schedules:apply --',
  summary:
    'Creates or updates the gas-monitor and reconcile schedules (GAS_MONITOR_INTERVAL, RECONCILE_INTERVAL). Safe to run any number of times.',
  flags: {},
});

async function main(): Promise<void> {
  commandFlags(COMMAND);
  const env = process.env;
  const temporal = loadTemporalConfig(env);
  const timings = loadWorkflowTimings(env);
  const ops = loadOperationsConfig(env).schedules;
  const connected = await connectTemporal({
    temporal,
    encryption: loadEncryptionConfig(env),
    address: temporalAddress(temporal),
  });
  try {
    const applied = await applySchedules(connected.client, { taskQueue: temporal.taskQueue, timings, ops });
    for (const entry of applied)
      process.stdout.write(
        `${entry.action.padEnd(8)} schedule ${entry.scheduleId} (every ${entry.intervalMs} ms)\n`,
      );
  } finally {
    await connected.close();
  }
}

runMain(main, { failurePrefix: 'schedules:apply failed: ' });
