/**
 * The receiver breakdown's receiver in a process of its own: the receiver its in-process variants run (no operator,
 * so every delivery goes to a router), so that the two differ by the process alone. Reads TEMPORAL_ADDRESS,
 * TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE and RECEIVER_PORT as `npm run receiver` does; runs until SIGTERM.
 */
import { loadReceiverConfig } from '../../src/config/receiver';
import { loadTemporalConfig } from '../../src/config/temporal';
import { loadWorkflowTimings } from '../../src/config/timings';
import { runMain, untilStopSignal } from '../../src/entry/run';
import { createLogger } from '../../src/logging';
import { connectTemporal, requiredTemporalAddress } from '../../src/temporal/wiring';
import { startReceiver } from '../../src/webhooks/receiver';

async function main(): Promise<void> {
  const env = process.env;
  const temporal = loadTemporalConfig(env);
  const connected = await connectTemporal({
    temporal,
    address: requiredTemporalAddress(temporal, 'receiver'),
  });
  const receiver = await startReceiver(loadReceiverConfig(env), {
    temporal: connected.client,
    taskQueue: temporal.taskQueue,
    timings: loadWorkflowTimings(env),
    logger: createLogger({ name: 'receiver', level: 'warn' }),
  });
  await untilStopSignal();
  await receiver.close();
  await connected.close();
}

runMain(main);
