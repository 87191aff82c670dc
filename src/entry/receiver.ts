/**
 * `npm run receiver`: the HTTPS webhook receiver alone, for deployments (docker-compose runs it). It connects to
 * TEMPORAL_ADDRESS and hands each delivery to Temporal before answering 200.
 */
import { createOperatorClient } from '../app/operator-from-config';
import { loadEncryptionConfig } from '../config/encryption';
import { loadHttpConfig } from '../config/http';
import { loadObservabilityConfig } from '../config/observability';
import { loadReceiverConfig } from '../config/receiver';
import { commandFlags, defineCommand } from './args';
import { loadTemporalConfig } from '../config/temporal';
import { loadWorkflowTimings } from '../config/timings';
import { createLogger } from '../logging';
import { RampMetrics } from '../observability/metrics';
import { connectTemporal, requiredTemporalAddress } from '../temporal/wiring';
import { startReceiver } from '../webhooks/receiver';
import { untilStopSignal } from './run';

const COMMAND = defineCommand({
  usage: 'node dist/src/entry/receiver.js',
  summary:
    'Serves the HTTPS webhook receiver (RECEIVER_* settings) against TEMPORAL_ADDRESS until SIGINT or SIGTERM; each ' +
    'delivery is in Temporal before it is answered 200.',
  flags: {},
});

async function main(): Promise<void> {
  commandFlags(COMMAND);
  const logger = createLogger({ name: 'receiver' });
  const temporalConfig = loadTemporalConfig();
  const address = requiredTemporalAddress(temporalConfig, 'receiver');
  const observability = loadObservabilityConfig();
  const http = loadHttpConfig();
  const connected = await connectTemporal({ temporal: temporalConfig, encryption: loadEncryptionConfig(), address });
  const temporal = connected.client;
  const receiver = await startReceiver(loadReceiverConfig(), {
    temporal,
    taskQueue: temporalConfig.taskQueue,
    timings: loadWorkflowTimings(),
    logger,
    observability: {
      operator: createOperatorClient(logger).client,
      timeoutMs: observability.readinessTimeoutMs,
      metricsToken: observability.metricsToken,
      metrics: new RampMetrics({ logger }),
      logger,
    },
    timeouts: http.timeouts,
  });
  await untilStopSignal();
  await receiver.close();
  await connected.close();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
