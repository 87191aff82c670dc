/**
 * `npm run worker`: a worker only, for production deployments (docker-compose runs this). It connects to
 * TEMPORAL_ADDRESS and DATABASE_URL (both required here) and the operator at OPERATOR_BASE_URL, and runs the outcome
 * dispatcher beside the worker.
 */
import http from 'node:http';
import { listen } from '../http/listen';
import { commandFlags, defineCommand } from './args';
import { loadObservabilityConfig } from '../config/observability';
import { loadOperatorConfig } from '../config/operator';
import { loadReceiverConfig, type ReceiverConfig } from '../config/receiver';
import { loadTemporalConfig } from '../config/temporal';
import { loadLogLevel } from '../config/logging';
import { createLogger } from '../logging';
import { OperatorClient } from '../operator/client';
import { startTracing } from '../temporal/tracing';
import { installRuntime } from '../temporal/runtime';
import { runMain } from './run';
import { buildRampWorker, loadWorkerSettings } from './ramp-worker';
import type { Worker } from '@temporalio/worker';
import { connectTemporal, requiredTemporalAddress } from '../temporal/wiring';
import { loadDatabaseConfig, requiredDatabaseUrl } from '../config/database';
import { openMigrated } from '../database/use-database';

const COMMAND = defineCommand({
  usage: 'node dist/src/entry/worker.js',
  summary:
    'Runs a worker (every workflow and activity) on TEMPORAL_TASK_QUEUE against TEMPORAL_ADDRESS, until SIGINT or SIGTERM. ' +
    "It polls as a version of the task queue's Worker Deployment: it gets work once that version is made current " +
    '(npm run release -- --make-current <build-id>), and keeps the runs pinned to it after a newer one is.',
  flags: {
    'build-id': {
      type: 'string',
      valueName: 'build-id',
      description: "the release's build ID, e.g. its image tag (default: the package version)",
    },
  },
  notes: ['WORKER_HEALTH_PORT serves /healthz (200 while the worker runs) for container health checks.'],
});

/** A worker serves nothing of its own, so a container health check asks this: 200 while it polls, 503 after. */
function serveHealth(worker: Worker, port: number) {
  return listen(
    http.createServer((request, response) => {
      const running = request.url === '/healthz' && worker.getState() === 'RUNNING';
      response.writeHead(request.url === '/healthz' ? (running ? 200 : 503) : 404, {
        'content-type': 'application/json',
      });
      response.end(JSON.stringify({ status: running ? 'ok' : worker.getState().toLowerCase() }));
    }),
    port,
    '0.0.0.0',
    'http',
  );
}

async function main(): Promise<void> {
  const buildId = commandFlags(COMMAND)['build-id'];
  const env = process.env;
  const logger = createLogger({ name: 'worker', level: loadLogLevel(env) });
  const observability = loadObservabilityConfig(env);
  // Prometheus metrics of the worker when TEMPORAL_METRICS_BIND_ADDRESS is set.
  installRuntime(observability, { logger });
  // Before any client or worker is made: they take its interceptors (OTEL_EXPORTER_OTLP_ENDPOINT, else nothing).
  const tracing = startTracing(observability, 'ramp-worker');
  const temporal = loadTemporalConfig(env);
  const address = requiredTemporalAddress(temporal, 'worker');
  const settings = loadWorkerSettings(env);
  const databaseUrl = requiredDatabaseUrl(loadDatabaseConfig(env), 'worker');
  const operator = new OperatorClient({ config: loadOperatorConfig(env), logger });
  // Loaded on first use: a worker that never runs the account setup needs no receiver secrets.
  let receiver: ReceiverConfig | undefined;
  const database = await openMigrated(databaseUrl.reveal(), 'ramp-orchestrator worker');
  const connected = await connectTemporal({ temporal, encryption: settings.encryption, address });
  const built = await buildRampWorker({
    database,
    settings,
    temporal,
    address,
    connected,
    operator,
    logger,
    receiver: () => (receiver ??= loadReceiverConfig(env)),
    ...(buildId === undefined ? {} : { buildId }),
  });
  logger.info(
    { taskQueue: temporal.taskQueue, namespace: temporal.namespace, buildId: built.version.buildId },
    'Worker started',
  );
  logger.info({ schedules: built.schedules }, 'Schedules applied');
  const { healthPort } = settings.worker;
  const health = healthPort === undefined ? undefined : await serveHealth(built.worker.worker, healthPort);
  await built.worker.run(); // the SDK shuts the worker down gracefully on SIGINT/SIGTERM
  await health?.close();
  await built.stop();
  await connected.close();
  await database.close();
  await tracing?.shutdown();
}

runMain(main);
