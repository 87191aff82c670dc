/**
 * `npm run schedules:apply`: creates or updates the operations schedules (gas-monitor, reconcile) with the
 * intervals of GAS_MONITOR_INTERVAL and RECONCILE_INTERVAL. Safe to run any number of times.
 */
import { loadEncryptionConfig } from '../config/encryption';
import { loadOpsConfig } from '../config/ops';
import { loadTemporalConfig } from '../config/temporal';
import { loadWorkflowTimings } from '../config/timings';
import { applySchedules } from '../temporal/schedules';
import { connectTemporal, temporalAddress } from '../temporal/wiring';
import { commandFlags, defineCommand } from './args';

const COMMAND = defineCommand({
  usage: 'npm run schedules:apply --',
  summary:
    'Creates or updates the gas-monitor and reconcile schedules (GAS_MONITOR_INTERVAL, RECONCILE_INTERVAL). Safe to run any number of times.',
  flags: {},
});

async function main(): Promise<void> {
  commandFlags(COMMAND);
  const temporal = loadTemporalConfig();
  const timings = loadWorkflowTimings();
  const ops = loadOpsConfig();
  const connected = await connectTemporal({
    temporal,
    encryption: loadEncryptionConfig(),
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

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `schedules:apply failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
