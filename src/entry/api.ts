/**
 * `npm run api`: the HTTP API alone, for deployments (docker-compose runs it). It connects to TEMPORAL_ADDRESS and
 * DATABASE_URL, and refuses a database the deployment's migration job has not migrated.
 */
import { startApiServer } from '../api/server';
import { RampClient } from '../client/ramp-client';
import { loadApiConfig } from '../config/api';
import { loadObservabilityConfig } from '../config/observability';
import { loadTemporalConfig } from '../config/temporal';
import { loadLogLevel } from '../config/logging';
import { assertMigrated } from '../database/migrate';
import { createLogger } from '../logging';
import { RampMetrics } from '../observability/metrics';
import { startTracing } from '../temporal/tracing';
import { requiredTemporalAddress } from '../temporal/wiring';
import { commandFlags, defineCommand } from './args';
import { runMain, untilStopSignal } from './run';

const COMMAND = defineCommand({
  usage: 'node dist/src/entry/api.js',
  summary:
    'Serves the HTTP API (API_HOST, API_PORT, API_KEY) against TEMPORAL_ADDRESS and DATABASE_URL until SIGINT or SIGTERM.',
  flags: {},
});

async function main(): Promise<void> {
  commandFlags(COMMAND);
  const env = process.env;
  requiredTemporalAddress(loadTemporalConfig(env), 'API');
  const logger = createLogger({ name: 'ramp-api', level: loadLogLevel(env) });
  const config = loadApiConfig(env);
  const observability = loadObservabilityConfig(env);
  const tracing = startTracing(observability, 'ramp-api');
  const ramp = await RampClient.connect({ env });
  try {
    // As the worker does: a process never migrates, and refuses a database missing a migration this release knows.
    await assertMigrated(ramp.ledger);
    // /readyz checks Temporal; /metrics counts the ramps, outcome events and open incidents in the ledger.
    const api = await startApiServer({
      config,
      ramp,
      ledger: ramp.ledger,
      logger,
      health: {
        temporal: ramp.temporal,
        metrics: new RampMetrics({
          ledger: ramp.ledger,
          temporal: ramp.temporal,
          workerDeployment: loadTemporalConfig(env).taskQueue,
          logger,
        }),
        metricsToken: observability.metricsToken,
      },
    });
    await untilStopSignal();
    await api.close();
  } finally {
    await ramp.close();
    await tracing?.shutdown();
  }
}

runMain(main);
