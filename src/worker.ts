/**
 * `npm run worker`: a worker only, for production deployments (docker-compose runs this). It connects to
 * TEMPORAL_ADDRESS (required here) and the operator at OPERATOR_BASE_URL.
 */
import { Client } from '@temporalio/client';
import { createActivities } from '../activities';
import { createOperatorClient } from './app/operator-from-config';
import { loadEncryptionConfig } from './config/encryption';
import { loadObservabilityConfig } from './config/observability';
import { loadOpsConfig } from './config/ops';
import { loadTemporalConfig } from './config/temporal';
import { loadWorkflowTimings } from './config/timings';
import { createLogger } from './logging';
import { connectClient, connectWorker } from './temporal/connection';
import { dataConverterFromConfig } from './temporal/data-converter';
import { installRuntime } from './temporal/runtime';
import { applySchedules } from './temporal/schedules';
import { createRampWorker } from './temporal/worker';

async function main(): Promise<void> {
  const logger = createLogger({ name: 'worker' });
  installRuntime(loadObservabilityConfig()); // Prometheus metrics of the worker when TEMPORAL_METRICS_BIND_ADDRESS is set
  const temporalConfig = loadTemporalConfig();
  const encryption = loadEncryptionConfig();
  const dataConverter = dataConverterFromConfig(encryption);
  if (!temporalConfig.address) throw new Error('TEMPORAL_ADDRESS is required for a stand-alone worker (npm start runs a local one).');
  const operator = createOperatorClient(logger);
  const clientConnection = await connectClient(temporalConfig, temporalConfig.address);
  const temporal = new Client({ connection: clientConnection, namespace: temporalConfig.namespace, ...(dataConverter ? { dataConverter } : {}) });
  const worker = await createRampWorker({
    connection: await connectWorker(temporalConfig, temporalConfig.address),
    namespace: temporalConfig.namespace,
    taskQueue: temporalConfig.taskQueue,
    ...(dataConverter ? { dataConverter } : {}),
    activities: createActivities({ operator: operator.client, temporal, logger, encryption }),
  });
  logger.info({ taskQueue: temporalConfig.taskQueue, namespace: temporalConfig.namespace }, 'Worker started');
  // Idempotent: every worker start creates or updates the gas-monitor and reconcile schedules.
  const schedules = await applySchedules(temporal, { taskQueue: temporalConfig.taskQueue, timings: loadWorkflowTimings(), ops: loadOpsConfig() });
  logger.info({ schedules }, 'Schedules applied');
  await worker.run(); // the SDK shuts the worker down gracefully on SIGINT/SIGTERM
  await clientConnection.close();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
