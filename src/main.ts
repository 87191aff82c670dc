/**
 * `npm start`: the whole product on one machine with the embedded defaults.
 * - Temporal: TEMPORAL_ADDRESS, or a local dev server provisioned and started here (data in .data/).
 * - Operator: OPERATOR_BASE_URL, or the sandbox operator started here.
 * - A worker on the project's task queue.
 * Runs until Ctrl-C, then stops everything in reverse order. `--once` stops after start-up checks.
 */
import { Client } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { createActivities } from '../activities';
import { useTemporalServer } from './app/temporal-server';
import { createOperatorClient } from './app/operator-from-config';
import { loadSandboxConfig } from './config/sandbox';
import { loadTemporalConfig } from './config/temporal';
import { createLogger } from './logging';
import { startSandbox } from './sandbox/server';
import { connectClient, connectWorker } from './temporal/connection';
import { createRampWorker } from './temporal/worker';

type Stopper = () => Promise<void>;

async function main(): Promise<void> {
  const once = process.argv.includes('--once');
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const logger = createLogger({ name: 'ramp-orchestrator' });
  // We stop the worker ourselves, in order, on Ctrl-C.
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });

  const stoppers: Stopper[] = [];
  const stopAll = async () => {
    for (const stop of stoppers.reverse()) {
      try {
        await stop();
      } catch (error) {
        logger.error({ err: error }, 'Error while stopping');
      }
    }
  };

  try {
    const temporalConfig = loadTemporalConfig();
    const server = await useTemporalServer(temporalConfig, say);
    stoppers.push(() => server.stop());

    let operatorOverrides: Record<string, string> = {};
    if (!process.env.OPERATOR_BASE_URL) {
      const sandboxConfig = loadSandboxConfig();
      const sandbox = await startSandbox({});
      stoppers.push(() => sandbox.close());
      operatorOverrides = {
        OPERATOR_BASE_URL: sandbox.url,
        OPERATOR_EMAIL: sandboxConfig.email,
        OPERATOR_PASSCODE: sandboxConfig.passcode,
      };
      say(`[sandbox] sandbox operator on ${sandbox.url} (simulation endpoints: ${sandbox.url}/sandbox/v1)`);
    }
    const operator = createOperatorClient(logger, operatorOverrides);
    say(`[operator] ${operator.config.baseUrl}`);

    const clientConnection = await connectClient(temporalConfig, server.address);
    stoppers.push(() => clientConnection.close());
    const temporal = new Client({ connection: clientConnection, namespace: temporalConfig.namespace });

    const workerConnection = await connectWorker(temporalConfig, server.address);
    stoppers.push(() => workerConnection.close());
    const worker = await createRampWorker({
      connection: workerConnection,
      namespace: temporalConfig.namespace,
      taskQueue: temporalConfig.taskQueue,
      activities: createActivities({ operator: operator.client, temporal, logger }),
    });
    const workerRun = worker.run();
    stoppers.push(async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await workerRun;
    });
    say(`[worker] running on task queue ${temporalConfig.taskQueue} (namespace ${temporalConfig.namespace})`);
    if (server.uiUrl) say(`[temporal] Web UI: ${server.uiUrl}/namespaces/${temporalConfig.namespace}/workflows`);

    if (once) {
      say('Started and checked; --once given, stopping.');
      await stopAll();
      return;
    }
    say('Ready. Press Ctrl-C to stop.');
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    say('\nStopping...');
    await stopAll();
    say('Stopped.');
  } catch (error) {
    await stopAll();
    throw error;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
