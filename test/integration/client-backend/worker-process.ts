/**
 * A worker in its own process, so a test can SIGKILL it mid-activity (a real crash, not a graceful shutdown).
 * Env: TEST_TEMPORAL_ADDRESS, TEST_TEMPORAL_NAMESPACE, TEST_WORKFLOW_BUNDLE, TASK_QUEUE, OPERATOR_*.
 */
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import pino from 'pino';
import { createActivities } from '../../../activities';
import { loadOperatorConfig } from '../../../src/config/operator';
import { loadReceiverConfig } from '../../../src/config/receiver';
import { OperatorClient } from '../../../src/operator/client';
import { createRampWorker } from '../../../src/temporal/worker';

async function main(): Promise<void> {
  const env = process.env;
  const address = env.TEST_TEMPORAL_ADDRESS!;
  const namespace = env.TEST_TEMPORAL_NAMESPACE!;
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const connection = await Connection.connect({ address });
  const temporal = new Client({ connection, namespace });
  const logger = pino({ level: 'silent' });
  const operator = new OperatorClient({ config: loadOperatorConfig(env), logger });
  const worker = await createRampWorker({
    connection: await NativeConnection.connect({ address }),
    namespace,
    taskQueue: env.TASK_QUEUE!,
    activities: createActivities({ operator, temporal, logger, receiver: loadReceiverConfig({}) }),
    workflowBundle: { codePath: env.TEST_WORKFLOW_BUNDLE! },
  });
  const running = worker.run();
  process.stdout.write('worker-ready\n');
  await running;
}

main().catch((error: unknown) => {
  process.stderr.write(`worker process failed: ${String(error)}\n`);
  process.exit(1);
});
