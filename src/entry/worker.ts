/**
 * `npm run worker`: a worker only, for production deployments (docker-compose runs this). It connects to
 * TEMPORAL_ADDRESS (required here) and the operator at OPERATOR_BASE_URL.
 */
import http from 'node:http';
import { z } from 'zod';
import { createActivities } from '../../activities';
import { listen } from '../http/listen';
import { commandFlags, defineCommand } from './args';
import { loadClientWebhookConfig } from '../config/client-webhooks';
import { loadEncryptionConfig } from '../config/encryption';
import { parseSection, port } from '../config/env';
import { loadObservabilityConfig } from '../config/observability';
import { loadOperatorConfig } from '../config/operator';
import { loadOperationsConfig } from '../config/operations';
import { loadProcessIds } from '../config/process-ids';
import { loadReceiverConfig, type ReceiverConfig } from '../config/receiver';
import { loadTemporalConfig } from '../config/temporal';
import { loadWorkflowTimings } from '../config/timings';
import { loadWorkerConfig } from '../config/worker';
import { loadLogLevel } from '../config/logging';
import { createLogger } from '../logging';
import { OperatorClient } from '../operator/client';
import { installRuntime } from '../temporal/runtime';
import { applySchedules } from '../temporal/schedules';
import { runMain } from './run';
import { logWorkerTuning } from '../temporal/worker';
import { connectRampWorker, connectTemporal, requiredTemporalAddress } from '../temporal/wiring';

const COMMAND = defineCommand({
  usage: 'node dist/src/entry/worker.js',
  summary:
    'Runs a worker (every workflow and activity) on TEMPORAL_TASK_QUEUE against TEMPORAL_ADDRESS, until SIGINT or SIGTERM.',
  flags: {},
  notes: ['WORKER_HEALTH_PORT serves /healthz (200 while the worker runs) for container health checks.'],
});

const workerEnv = z.object({ WORKER_HEALTH_PORT: port(0).optional() });

async function main(): Promise<void> {
  commandFlags(COMMAND);
  const env = process.env;
  const logger = createLogger({ name: 'worker', level: loadLogLevel(env) });
  const { WORKER_HEALTH_PORT: healthPort } = parseSection('worker', workerEnv, env);
  installRuntime(loadObservabilityConfig(env), { logger }); // Prometheus metrics of the worker when TEMPORAL_METRICS_BIND_ADDRESS is set
  const temporalConfig = loadTemporalConfig(env);
  const encryption = loadEncryptionConfig(env);
  const operations = loadOperationsConfig(env);
  const tuning = loadWorkerConfig(env);
  // Loaded on first use: a worker that never runs the account setup needs no receiver secrets.
  let receiver: ReceiverConfig | undefined;
  const address = requiredTemporalAddress(temporalConfig, 'worker');
  const operator = new OperatorClient({ config: loadOperatorConfig(env), logger });
  const connected = await connectTemporal({ temporal: temporalConfig, encryption, address });
  const temporal = connected.client;
  const rampWorker = await connectRampWorker({
    temporal: temporalConfig,
    address,
    dataConverter: connected.dataConverter,
    tuning,
    activities: createActivities({
      operator,
      temporal,
      logger,
      config: {
        receiver: () => (receiver ??= loadReceiverConfig(env)),
        gas: operations.gas,
        alerts: operations.alerts,
        processIds: loadProcessIds(env),
        encryption,
        clientWebhooks: loadClientWebhookConfig(env),
      },
    }),
  });
  const { worker } = rampWorker;
  logWorkerTuning(logger, tuning);
  logger.info({ taskQueue: temporalConfig.taskQueue, namespace: temporalConfig.namespace }, 'Worker started');
  // A worker serves nothing of its own, so a container health check asks this: 200 while it polls, 503 after.
  const health =
    healthPort === undefined
      ? undefined
      : await listen(
          http.createServer((request, response) => {
            const running = request.url === '/healthz' && worker.getState() === 'RUNNING';
            response.writeHead(request.url === '/healthz' ? (running ? 200 : 503) : 404, {
              'content-type': 'application/json',
            });
            response.end(JSON.stringify({ status: running ? 'ok' : worker.getState().toLowerCase() }));
          }),
          healthPort,
          '0.0.0.0',
          'http',
        );
  // Idempotent: every worker start creates or updates the gas-monitor and reconcile schedules.
  const schedules = await applySchedules(temporal, {
    taskQueue: temporalConfig.taskQueue,
    timings: loadWorkflowTimings(env),
    ops: operations.schedules,
  });
  logger.info({ schedules }, 'Schedules applied');
  await rampWorker.run(); // the SDK shuts the worker down gracefully on SIGINT/SIGTERM
  await health?.close();
  await rampWorker.stop();
  await connected.close();
}

runMain(main);
