/**
 * `npm start`: the whole product on one machine with the embedded defaults.
 * - Temporal: TEMPORAL_ADDRESS, or a local dev server provisioned and started here (data in .data/).
 * - Operator: OPERATOR_BASE_URL, or the sandbox operator started here (its state in .data/ too).
 * - The worker, the HTTPS webhook receiver and the HTTP API.
 * - Against the sandbox, a small local receiver standing in for the client's backend, added beside any
 *   CLIENT_WEBHOOK_URLS: it verifies each outcome event's signature and prints it as it arrives.
 * - Against the sandbox it then plays the demo (src/demo) and prints a summary; against a real operator it only
 *   serves. Runs until Ctrl-C and stops everything in reverse order. `--once` exits after the summary, with
 *   status 0 only if every scenario ended as expected.
 */
import path from 'node:path';
import { createActivities } from '../../activities';
import { startApiServer } from '../api/server';
import { plannedWebUi, useTemporalServer } from '../temporal/temporal-server';
import { RampClient } from '../client/ramp-client';
import { DEV_API_KEY, loadApiConfig } from '../config/api';
import { commandFlags, defineCommand } from './args';
import { loadDemoConfig } from '../config/demo';
import { loadOperationsConfig } from '../config/operations';
import { loadProcessIds } from '../config/process-ids';
import { isSandboxMode } from '../config/env';
import { loadReceiverConfig } from '../config/receiver';
import { loadSandboxConfig } from '../config/sandbox';
import { loadEncryptionConfig } from '../config/encryption';
import { loadHttpConfig } from '../config/http';
import { loadObservabilityConfig } from '../config/observability';
import { loadOperatorConfig } from '../config/operator';
import { loadTemporalConfig } from '../config/temporal';
import { loadWorkflowTimings } from '../config/timings';
import { loadWorkerConfig } from '../config/worker';
import { loadClientWebhookConfig } from '../config/client-webhooks';
import { formatSummary, runDemo } from '../demo/demo';
import { loadLogLevel } from '../config/logging';
import { describeDelivery, startOutcomeReceiver, withDemoBackend } from '../demo/outcome-receiver';
import { createLogger } from '../logging';
import { OperatorClient } from '../operator/client';
import { RampMetrics } from '../observability/metrics';
import { startSandbox } from '../sandbox/server';
import { startEnvironment } from './environment';
import { runMain, untilStopSignal } from './run';
import { logWorkerTuning } from '../temporal/worker';
import { devServerCodecArgs, startCodecServer } from '../temporal/codec-server';
import { installRuntime } from '../temporal/runtime';
import { applySchedules } from '../temporal/schedules';
import { connectRampWorker, connectTemporal } from '../temporal/wiring';
import { startReceiver } from '../webhooks/receiver';
import { withTemporalDeadline } from '../http/errors';

type Stopper = () => Promise<void>;

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
  notes: ['Settings come from the environment (README.md, "Configuration").'],
});

async function main(): Promise<number> {
  const once = commandFlags(COMMAND).once === true;
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const sandboxMode = isSandboxMode(process.env);
  // Demo defaults and a quieter logger, below what the environment sets (src/entry/environment.ts).
  const env = startEnvironment(process.env);
  const logger = createLogger({ name: 'ramp-orchestrator', level: loadLogLevel(env) });
  const observability = loadObservabilityConfig(env);
  // We stop the worker ourselves, in order, on Ctrl-C.
  installRuntime(observability, { shutdownSignals: [], logger });

  const stoppers: Stopper[] = [];
  const stopAll = async () => {
    for (const stop of stoppers.reverse()) {
      try {
        await stop();
      } catch (error) {
        logger.error({ err: error }, 'Error while stopping');
      }
    }
    stoppers.length = 0;
  };

  try {
    const temporalConfig = loadTemporalConfig(env);
    const timings = loadWorkflowTimings(env);
    const workerTuning = loadWorkerConfig(env);
    // Read before anything starts, so a contradictory pair of settings stops the run at once.
    const demoConfig = sandboxMode ? loadDemoConfig(env) : undefined;
    const loadedReceiverConfig = loadReceiverConfig(env);
    const encryption = loadEncryptionConfig(env);
    const http = loadHttpConfig(env);
    const operations = loadOperationsConfig(env);
    // The client and the activities address the same account setup and incident store.
    const processIds = loadProcessIds(env);
    const clientWebhooks = loadClientWebhookConfig(env);
    // Fixed before either starts: the codec server must allow the origin of the Web UI actually served.
    const webUi = await plannedWebUi(temporalConfig);
    let codecArgs: string[] = [];
    if (encryption.keys.length > 0) {
      // Started before the dev server so its Web UI can be pointed at the codec endpoint.
      const codec = await startCodecServer(encryption, { logger, webUi, timeouts: http.timeouts });
      stoppers.push(() => codec.close());
      codecArgs = devServerCodecArgs(codec.endpoint);
      say(
        `[codec] payloads are encrypted (key ${encryption.keys[0]!.id}); codec server for the Web UI at ${codec.endpoint}`,
      );
    }
    const server = await useTemporalServer(temporalConfig, say, codecArgs, webUi, env);
    stoppers.push(() => server.stop());

    let operatorOverrides: Record<string, string> = {};
    let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
    if (sandboxMode) {
      const sandboxConfig = loadSandboxConfig(env);
      sandbox = await startSandbox({
        base: sandboxConfig,
        timeouts: http.timeouts,
        stateFile: path.join(temporalConfig.devServer.dataDir, 'sandbox-state.json'),
      });
      const started = sandbox;
      stoppers.push(() => started.close());
      operatorOverrides = {
        OPERATOR_BASE_URL: sandbox.url,
        OPERATOR_EMAIL: sandboxConfig.email,
        OPERATOR_PASSCODE: sandboxConfig.passcode,
      };
      say(
        `[sandbox] sandbox operator on ${sandbox.url} (simulation endpoints: ${sandbox.url}/sandbox/v1; time scale ${sandbox.config.timeScale})`,
      );
    }
    const operatorConfig = loadOperatorConfig({ ...env, ...operatorOverrides });
    const operator = new OperatorClient({ config: operatorConfig, logger });
    say(`[operator] ${operatorConfig.baseUrl}`);

    const connected = await connectTemporal({
      temporal: temporalConfig,
      encryption,
      address: server.address,
    });
    stoppers.push(() => connected.close());
    const temporal = connected.client;

    const ramp = new RampClient({
      connection: connected.connection,
      namespace: temporalConfig.namespace,
      taskQueue: temporalConfig.taskQueue,
      timings,
      processIds,
      ...(connected.dataConverter ? { dataConverter: connected.dataConverter, encryption } : {}),
    });
    const openAlerts = async () =>
      (await withTemporalDeadline(http.temporalTimeoutMs, () => ramp.listAlerts(), temporal)).open.length;
    const health = {
      temporal,
      operator,
      timeoutMs: observability.readinessTimeoutMs,
      metricsToken: observability.metricsToken,
      logger,
    };
    const metricsOptions = {
      openAlerts,
      logger,
      timeoutMs: http.temporalTimeoutMs,
      cacheTtlMs: observability.metricsCacheTtlMs,
    };
    // The receiver binds before the worker starts: the account setup registers its URL, which follows the bound
    // port (RECEIVER_PORT=0 included) unless RECEIVER_PUBLIC_URL says otherwise.
    const receiver = await startReceiver(loadedReceiverConfig, {
      temporal,
      taskQueue: temporalConfig.taskQueue,
      timings,
      logger,
      observability: { ...health, metrics: new RampMetrics(metricsOptions) },
      timeouts: http.timeouts,
      operator,
    });
    stoppers.push(() => receiver.close());
    const receiverConfig = loadedReceiverConfig.publicUrlFollowsPort
      ? { ...loadedReceiverConfig, publicUrl: receiver.url }
      : loadedReceiverConfig;
    say(`[receiver] webhooks over HTTPS on ${receiver.url} (paths carry the secret segments; never logged)`);

    // The demo's stand-in for the client's backend, beside the configured endpoints, with a secret of its own.
    const demoBackend = sandboxMode
      ? await startOutcomeReceiver({ onDelivery: (delivery) => say(describeDelivery(delivery)) })
      : undefined;
    if (demoBackend) {
      stoppers.push(() => demoBackend.close());
      say(
        `[client backend] demo receiver for outcome events on ${demoBackend.url} (verifies signatures with standardwebhooks)`,
      );
    }
    const worker = await connectRampWorker({
      temporal: temporalConfig,
      address: server.address,
      dataConverter: connected.dataConverter,
      tuning: workerTuning,
      activities: createActivities({
        operator,
        temporal,
        logger,
        config: {
          receiver: () => receiverConfig,
          gas: operations.gas,
          alerts: operations.alerts,
          processIds,
          encryption,
          clientWebhooks: demoBackend ? withDemoBackend(clientWebhooks, demoBackend) : clientWebhooks,
        },
      }),
    });
    stoppers.push(() => worker.stop());
    void worker.run();
    logWorkerTuning(logger, workerTuning);
    say(`[worker] running on task queue ${temporalConfig.taskQueue} (namespace ${temporalConfig.namespace})`);
    for (const schedule of await applySchedules(temporal, {
      taskQueue: temporalConfig.taskQueue,
      timings,
      ops: operations.schedules,
    })) {
      say(`[schedules] ${schedule.scheduleId} ${schedule.action} (every ${schedule.intervalMs / 1000} s)`);
    }

    const api = await startApiServer({
      config: loadApiConfig(env),
      ramp,
      logger,
      health: { ...health, metrics: new RampMetrics({ ...metricsOptions, temporal }) },
      http,
    });
    stoppers.push(() => api.close());
    // The dev key is public (sandbox mode only); a configured API_KEY is never printed.
    const keyHint = env.API_KEY ? '<API_KEY>' : `${DEV_API_KEY} (dev key; set API_KEY to change it)`;
    say(
      `[api] HTTP API on ${api.url} (Authorization: Bearer ${keyHint}); /healthz, /readyz and /metrics on it and the receiver`,
    );
    const uiLink = server.uiUrl
      ? `${server.uiUrl}/namespaces/${temporalConfig.namespace}/workflows`
      : undefined;
    if (uiLink) say(`[temporal] Web UI: ${uiLink}`);

    let exitCode = 0;
    if (sandbox && demoConfig) {
      const results = await runDemo({
        ramp,
        sandboxUrl: sandbox.url,
        sandboxConfig: sandbox.config,
        say,
        scenarioTimeoutMs: demoConfig.scenarioTimeoutMs,
      });
      if (demoBackend) {
        const received = demoBackend.deliveries;
        const verified = received.filter((delivery) => delivery.verified).length;
        say(`[client backend] ${received.length} outcome events received, ${verified} verified`);
      }
      say(`\n== Summary\n${formatSummary(results)}`);
      if (uiLink) say(`\nEvery process is in the Web UI: ${uiLink}`);
      exitCode = results.every((result) => result.ok) ? 0 : 1;
      if (exitCode !== 0) say('\nSome scenarios did not end as expected (see the table above).');
    }

    if (once) {
      say('--once given: stopping.');
      await stopAll();
      return exitCode;
    }
    say('\nServing. Press Ctrl-C to stop.');
    await untilStopSignal();
    say('\nStopping...');
    await stopAll();
    say('Stopped.');
    return 0;
  } catch (error) {
    await stopAll();
    throw error;
  }
}

runMain(main, { exitWhenDone: true });
