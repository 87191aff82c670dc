/**
 * `npm start`: the whole product on one machine with the embedded defaults.
 * - Temporal: TEMPORAL_ADDRESS, or a local dev server provisioned and started here (data in .data/).
 * - The database: DATABASE_URL, or an embedded PostgreSQL started here (data in .data/postgres), migrated.
 * - Operator: OPERATOR_BASE_URL, or the sandbox operator started here (its state in .data/ too).
 * - The HTTPS webhook receiver and the HTTP API (the edges), then the worker.
 * - Against the sandbox, a small local receiver standing in for the client's backend, added beside any
 *   CLIENT_WEBHOOK_URLS: it verifies each outcome event's signature and prints it as it arrives.
 * - Against the sandbox it then plays the demo (src/demo) and prints a summary; against a real operator it only
 *   serves. Runs until Ctrl-C and stops everything in reverse order. `--once` exits after the summary, with
 *   status 0 only if every scenario ended as expected.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import { startApiServer } from '../api/server';
import { plannedWebUi, type TemporalServer, useTemporalServer } from '../temporal/temporal-server';
import { RampClient } from '../client/ramp-client';
import { type ApiConfig, DEV_API_KEY, loadApiConfig } from '../config/api';
import { commandFlags, defineCommand } from './args';
import { type DemoConfig, loadDemoConfig } from '../config/demo';
import { type Env, isSandboxMode } from '../config/env';
import { loadReceiverConfig, type ReceiverConfig } from '../config/receiver';
import { loadSandboxConfig, type SandboxConfig } from '../config/sandbox';
import { loadObservabilityConfig, type ObservabilityConfig } from '../config/observability';
import { loadOperatorConfig } from '../config/operator';
import { loadTemporalConfig, type TemporalConfig } from '../config/temporal';
import { type DatabaseConfig, loadDatabaseConfig } from '../config/database';
import type { Database } from '../database/connection';
import { useDatabase } from '../database/use-database';
import { formatReadiness, formatSummary, runDemo } from '../demo/demo';
import { loadLogLevel } from '../config/logging';
import {
  describeDelivery,
  type RunningOutcomeReceiver,
  startOutcomeReceiver,
  withDemoBackend,
} from '../demo/outcome-receiver';
import { createLogger } from '../logging';
import { OperatorClient } from '../operator/client';
import { RampMetrics } from '../observability/metrics';
import { startTracing } from '../temporal/tracing';
import { type RunningSandbox, startSandbox } from '../sandbox/server';
import { startEnvironment } from './environment';
import { currentBuildId, makeCurrent } from '../temporal/worker-deployment';
import { buildRampWorker, loadWorkerSettings, type WorkerSettings } from './ramp-worker';
import { runMain, untilStopSignal } from './run';
import { devServerCodecArgs, startCodecServer } from '../temporal/codec-server';
import { installRuntime } from '../temporal/runtime';
import { connectTemporal, type TemporalConnection } from '../temporal/wiring';
import { startReceiver } from '../webhooks/receiver';

const COMMAND = defineCommand({
  usage: 'npm start --',
  summary:
    'Runs the whole product on this machine: a Temporal dev server (unless TEMPORAL_ADDRESS is set), the sandbox operator ' +
    '(unless OPERATOR_BASE_URL is set), the worker, the HTTPS webhook receiver and the HTTP API; against the sandbox it ' +
    'plays the demo story. Serves until Ctrl-C.',
  flags: {
    once: {
      type: 'boolean',
      description: 'exit after the demo summary: status 0 only if every scenario ended as expected',
    },
  },
  notes: ['Settings come from the environment (docs/configuration.md).'],
});

type Say = (line: string) => void;

/** Everything npm start reads, loaded before anything starts, so that a bad or contradictory setting stops it at once. */
interface StartSettings {
  env: Env;
  temporal: TemporalConfig;
  worker: WorkerSettings;
  receiver: ReceiverConfig;
  api: ApiConfig;
  database: DatabaseConfig;
  observability: ObservabilityConfig;
  /** Sandbox mode only (no OPERATOR_BASE_URL): the sandbox operator and the demo's waits. */
  sandbox: { config: SandboxConfig; demo: DemoConfig } | undefined;
}

function loadStartSettings(given: Env): StartSettings {
  // Demo defaults and a quieter logger, below what the environment sets (src/entry/environment.ts).
  const env = startEnvironment(given);
  return {
    env,
    temporal: loadTemporalConfig(env),
    worker: loadWorkerSettings(env),
    receiver: loadReceiverConfig(env),
    api: loadApiConfig(env),
    database: loadDatabaseConfig(env),
    observability: loadObservabilityConfig(env),
    sandbox: isSandboxMode(given) ? { config: loadSandboxConfig(env), demo: loadDemoConfig(env) } : undefined,
  };
}

/** What was started, stopped in reverse order; a failure to stop one is logged and the others still stop. */
class Started {
  readonly #stops: Array<() => Promise<void>> = [];
  constructor(private readonly logger: Logger) {}

  add(stop: () => Promise<void>): void {
    this.#stops.push(stop);
  }

  async stopAll(): Promise<void> {
    for (const stop of this.#stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (error) {
        this.logger.error({ err: error }, 'Error while stopping');
      }
    }
  }
}

/** The codec server (with encryption on) and Temporal: the one named by TEMPORAL_ADDRESS, or a local dev server. */
async function startTemporal(settings: StartSettings, started: Started, say: Say, logger: Logger) {
  // Fixed before either starts: the codec server must allow the origin of the Web UI actually served.
  const webUi = await plannedWebUi(settings.temporal);
  const { encryption } = settings.worker;
  let codecArgs: string[] = [];
  if (encryption.keys.length > 0) {
    // Started before the dev server so its Web UI can be pointed at the codec endpoint.
    const codec = await startCodecServer(encryption, { logger, webUi });
    started.add(() => codec.close());
    codecArgs = devServerCodecArgs(codec.endpoint);
    say(
      `[codec] payloads are encrypted (key ${encryption.keys[0]!.id}); codec server for the Web UI at ${codec.endpoint}`,
    );
  }
  const server = await useTemporalServer(settings.temporal, say, codecArgs, webUi, settings.env);
  started.add(() => server.stop());
  const connected = await connectTemporal({
    temporal: settings.temporal,
    encryption,
    address: server.address,
  });
  started.add(() => connected.close());
  return { server, connected };
}

/** The product's database: DATABASE_URL, or an embedded PostgreSQL with its data in .data/; migrated either way. */
async function startDatabase(settings: StartSettings, started: Started, say: Say): Promise<Database> {
  const used = await useDatabase(settings.database, settings.temporal.devServer.dataDir, say);
  started.add(() => used.stop());
  say(`[postgres] the ledger is in ${used.where}`);
  return used.database;
}

/** The operator: OPERATOR_BASE_URL, or the sandbox operator started here. */
async function startOperator(settings: StartSettings, started: Started, say: Say, logger: Logger) {
  let sandbox: RunningSandbox | undefined;
  let login: Env = {};
  if (settings.sandbox) {
    const running = await startSandbox({
      base: settings.sandbox.config,
      stateFile: path.join(settings.temporal.devServer.dataDir, 'sandbox-state.json'),
    });
    sandbox = running;
    started.add(() => running.close());
    login = {
      OPERATOR_BASE_URL: running.url,
      OPERATOR_EMAIL: running.config.email,
      OPERATOR_PASSCODE: running.config.passcode,
    };
    say(
      `[sandbox] sandbox operator on ${running.url} (simulation endpoints: ${running.url}/sandbox/v1; time scale ${running.config.timeScale})`,
    );
  }
  // The product speaks the sandbox's profile unless OPERATOR_PROFILE says otherwise (to watch a mismatch fail, say).
  const config = loadOperatorConfig(
    { ...settings.env, ...login },
    sandbox ? { profileWhenUnset: sandbox.config.profile } : {},
  );
  say(`[operator] ${config.baseUrl}`);
  return { operator: new OperatorClient({ config, logger }), sandbox };
}

/**
 * The receiver and the API. The receiver binds before the worker starts: the account setup registers its URL, which
 * follows the bound port (RECEIVER_PORT=0 included) unless RECEIVER_PUBLIC_URL says otherwise.
 */
async function startEdges(
  settings: StartSettings,
  deps: { connected: TemporalConnection; ramp: RampClient; operator: OperatorClient },
  started: Started,
  say: Say,
  logger: Logger,
) {
  const { connected, ramp, operator } = deps;
  const temporal = connected.client;
  const health = { temporal, operator, metricsToken: settings.observability.metricsToken, logger };
  const receiver = await startReceiver(settings.receiver, {
    temporal,
    taskQueue: settings.temporal.taskQueue,
    timings: settings.worker.timings,
    logger,
    observability: { ...health, metrics: new RampMetrics({ logger }) },
    operator,
  });
  started.add(() => receiver.close());
  say(`[receiver] webhooks over HTTPS on ${receiver.url} (paths carry the secret segments; never logged)`);
  const api = await startApiServer({
    config: settings.api,
    ramp,
    ledger: ramp.ledger,
    logger,
    health: {
      ...health,
      metrics: new RampMetrics({
        logger,
        temporal,
        ledger: ramp.ledger,
        workerDeployment: settings.temporal.taskQueue,
      }),
    },
  });
  started.add(() => api.close());
  // The dev key is public (sandbox mode only); a configured API_KEY is never printed.
  const keyHint =
    settings.api.apiKey.reveal() === DEV_API_KEY
      ? `${DEV_API_KEY} (dev key; set API_KEY to change it)`
      : '<API_KEY>';
  say(
    `[api] HTTP API on ${api.url} (Authorization: Bearer ${keyHint}); /healthz, /readyz and /metrics on it and the receiver`,
  );
  const receiverConfig = settings.receiver.publicUrlFollowsPort
    ? { ...settings.receiver, publicUrl: receiver.url }
    : settings.receiver;
  return { receiverConfig, apiUrl: api.url };
}

/** The demo's stand-in for the client's backend, beside the configured endpoints, with a secret of its own. */
async function startDemoBackend(started: Started, say: Say): Promise<RunningOutcomeReceiver> {
  const backend = await startOutcomeReceiver({ onDelivery: (delivery) => say(describeDelivery(delivery)) });
  started.add(() => backend.close());
  say(
    `[client backend] demo receiver for outcome events on ${backend.url} (verifies signatures with standardwebhooks)`,
  );
  return backend;
}

/** The worker, built as `npm run worker` builds it, running in the background until stopped. */
async function startWorker(
  settings: StartSettings,
  deps: {
    server: TemporalServer;
    connected: TemporalConnection;
    operator: OperatorClient;
    receiverConfig: ReceiverConfig;
    demoBackend: RunningOutcomeReceiver | undefined;
    database: Database;
  },
  started: Started,
  say: Say,
  logger: Logger,
): Promise<void> {
  const { clientWebhooks } = settings.worker;
  const { worker, version, schedules, stop } = await buildRampWorker({
    database: deps.database,
    settings: settings.worker,
    temporal: settings.temporal,
    address: deps.server.address,
    connected: deps.connected,
    operator: deps.operator,
    logger,
    receiver: () => deps.receiverConfig,
    clientWebhooks: deps.demoBackend ? withDemoBackend(clientWebhooks, deps.demoBackend) : clientWebhooks,
  });
  started.add(stop);
  void worker.run();
  const { taskQueue, namespace } = settings.temporal;
  say(`[worker] running on task queue ${taskQueue} (namespace ${namespace}), version ${version.buildId}`);
  // Its own dev server has no other worker to wait for; a shared server's current version is the release's to change.
  const current = deps.server.local ? null : await currentBuildId(deps.connected.client, taskQueue);
  if (current !== null && current !== version.buildId) {
    say(
      `[worker] version ${current} is current, so this worker gets no new work: npm run release -- --make-current ${version.buildId}`,
    );
  } else {
    // Long-lived runs of an older version in .data are told to move, not waited for: that version's worker is gone.
    await makeCurrent(deps.connected.client, version, {
      handOverWaitMs: 0,
      log: (line) => say(`[worker] ${line}`),
    });
  }
  for (const schedule of schedules)
    say(`[schedules] ${schedule.scheduleId} ${schedule.action} (every ${schedule.intervalMs / 1000} s)`);
}

/** The demo story against the sandbox; answers the exit status (0 only if every scenario ended as expected). */
async function playDemo(
  demo: DemoConfig,
  deps: {
    ramp: RampClient;
    sandbox: RunningSandbox;
    demoBackend: RunningOutcomeReceiver | undefined;
    uiLink: string | undefined;
    apiUrl: string;
  },
  say: Say,
): Promise<number> {
  const outcome = await runDemo({
    ramp: deps.ramp,
    sandboxUrl: deps.sandbox.url,
    sandboxConfig: deps.sandbox.config,
    say,
    scenarioTimeoutMs: demo.scenarioTimeoutMs,
  });
  if (deps.demoBackend) {
    const received = deps.demoBackend.deliveries;
    const verified = received.filter((delivery) => delivery.verified).length;
    say(`[client backend] ${received.length} outcome events received, ${verified} verified`);
  }
  say(`\n== Summary\n${formatSummary(outcome.results)}`);
  if (deps.uiLink) say(`\nEvery process is in the Web UI: ${deps.uiLink}`);
  const ok = outcome.results.every((result) => result.ok);
  if (!ok) say('\nSome scenarios did not end as expected (see the table above).');
  say(`\n${formatReadiness(outcome, deps.apiUrl)}`);
  return ok ? 0 : 1;
}

async function main(): Promise<number> {
  const once = commandFlags(COMMAND).once === true;
  const say: Say = (line) => process.stdout.write(`${line}\n`);
  const settings = loadStartSettings(process.env);
  const logger = createLogger({ name: 'ramp-orchestrator', level: loadLogLevel(settings.env) });
  // We stop the worker ourselves, in order, on Ctrl-C.
  installRuntime(settings.observability, { shutdownSignals: [], logger });
  const started = new Started(logger);
  // Before any client or worker is made: they take its interceptors (OTEL_EXPORTER_OTLP_ENDPOINT, else nothing).
  const tracing = startTracing(settings.observability, 'ramp-orchestrator');
  if (tracing) started.add(() => tracing.shutdown());
  try {
    const { server, connected } = await startTemporal(settings, started, say, logger);
    const database = await startDatabase(settings, started, say);
    const { operator, sandbox } = await startOperator(settings, started, say, logger);
    const ramp = new RampClient({
      connection: connected.connection,
      database,
      namespace: settings.temporal.namespace,
      taskQueue: settings.temporal.taskQueue,
      timings: settings.worker.timings,
      ...(connected.dataConverter
        ? { dataConverter: connected.dataConverter, encryption: settings.worker.encryption }
        : {}),
    });
    const { receiverConfig, apiUrl } = await startEdges(
      settings,
      { connected, ramp, operator },
      started,
      say,
      logger,
    );
    const demoBackend = sandbox ? await startDemoBackend(started, say) : undefined;
    await startWorker(
      settings,
      { server, connected, operator, receiverConfig, demoBackend, database },
      started,
      say,
      logger,
    );
    const uiLink = server.uiUrl
      ? `${server.uiUrl}/namespaces/${settings.temporal.namespace}/workflows`
      : undefined;
    if (uiLink) say(`[temporal] Web UI: ${uiLink}`);

    const exitCode =
      sandbox && settings.sandbox
        ? await playDemo(settings.sandbox.demo, { ramp, sandbox, demoBackend, uiLink, apiUrl }, say)
        : 0;
    if (once) {
      say('--once given: stopping.');
      await started.stopAll();
      return exitCode;
    }
    say('\nServing. Press Ctrl-C to stop.');
    await untilStopSignal();
    say('\nStopping...');
    await started.stopAll();
    say('Stopped.');
    return 0;
  } catch (error) {
    await started.stopAll();
    throw error;
  }
}

runMain(main, { exitWhenDone: true });
