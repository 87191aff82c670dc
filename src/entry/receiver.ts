/**
 * `npm run receiver`: the HTTPS webhook receiver alone, for deployments (docker-compose runs it). It connects to
 * TEMPORAL_ADDRESS and hands each delivery to Temporal before answering 200.
 */
import { loadEncryptionConfig } from '../config/encryption';
import { loadObservabilityConfig } from '../config/observability';
import { loadOperatorConfig } from '../config/operator';
import { loadReceiverConfig } from '../config/receiver';
import { commandFlags, defineCommand } from './args';
import { loadTemporalConfig } from '../config/temporal';
import { loadWorkflowTimings } from '../config/timings';
import { loadLogLevel } from '../config/logging';
import { createLogger } from '../logging';
import { OperatorClient } from '../operator/client';
import { RampMetrics } from '../observability/metrics';
import { startTracing } from '../temporal/tracing';
import { connectTemporal, requiredTemporalAddress } from '../temporal/wiring';
import { startReceiver } from '../webhooks/receiver';
import { runMain, untilStopSignal } from './run';

const COMMAND = defineCommand({
  usage: 'node dist/src/entry/receiver.js',
  summary:
    'Serves the HTTPS webhook receiver (RECEIVER_* settings) against TEMPORAL_ADDRESS until SIGINT or SIGTERM; each ' +
    'delivery is in Temporal before it is answered 200.',
  flags: {},
});

async function main(): Promise<void> {
  commandFlags(COMMAND);
  const env = process.env;
  const logger = createLogger({ name: 'receiver', level: loadLogLevel(env) });
  const temporalConfig = loadTemporalConfig(env);
  const address = requiredTemporalAddress(temporalConfig, 'receiver');
  const observability = loadObservabilityConfig(env);
  const tracing = startTracing(observability, 'ramp-receiver');
  const encryption = loadEncryptionConfig(env);
  const receiverConfig = loadReceiverConfig(env);
  const timings = loadWorkflowTimings(env);
  const operator = new OperatorClient({ config: loadOperatorConfig(env), logger });
  const connected = await connectTemporal({ temporal: temporalConfig, encryption, address });
  const receiver = await startReceiver(receiverConfig, {
    temporal: connected.client,
    taskQueue: temporalConfig.taskQueue,
    timings,
    logger,
    observability: {
      operator,
      metricsToken: observability.metricsToken,
      metrics: new RampMetrics({ logger }),
      logger,
    },
    operator,
  });
  await untilStopSignal();
  await receiver.close();
  await connected.close();
  await tracing?.shutdown();
}

runMain(main);
