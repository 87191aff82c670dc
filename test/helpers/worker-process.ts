/**
 * A worker in its own process, so a test can SIGKILL it mid-activity (a real crash, not a graceful shutdown).
 * Env: TEST_TEMPORAL_ADDRESS, TEST_TEMPORAL_NAMESPACE, TEST_WORKFLOW_BUNDLE, TASK_QUEUE, DATABASE_URL (the test's
 * database: the activities write the ledger there, and the process's outcome dispatcher delivers from it), OPERATOR_*,
 * CLIENT_WEBHOOK_*; WORKER_MAX_CONCURRENT_ACTIVITIES (optional) sets the slots as the product reads them (with the other WORKER_*).
 *
 * KILL_POINT (optional) holds the process still at one instant of the CreateWallet round trip, after printing
 * `kill-point:<name>`, so the test kills it exactly there:
 * - `request-journaled`: the request is in the owner's journal, CreateWallet not sent yet;
 * - `request-sent`: CreateWallet is about to go out (the test slows the sandbox so it is in flight when killed);
 *   the process does not hold here, so a test can freeze it with the request in flight instead;
 * - `operator-answered`: the operator's answer arrived, not journaled yet;
 * - `answer-journaled`: the answer is in the journal, the activity has not completed;
 * - `hop-forwarded`: a router's forward to an off-ramp reached the server, the hop's activity has not completed
 *   (every other hop of the same batch is held at the same instant of its own).
 *
 * PAUSE_POINT=`request-journal` (optional) stops just before the CreateWallet request is journaled, after printing
 * `pause-point:request-journal`, and goes on when the test sends SIGUSR2.
 * WORKER_ROLE (optional): `workflows` or `activities` polls for that kind of task only; both by default.
 * TEMPORAL_METRICS_BIND_ADDRESS (optional): the worker's SDK metrics, served there as the product's worker serves them.
 */
import { Client, Connection, type WorkflowClientInterceptor } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import pino from 'pino';
import { createActivities } from '../../activities';
import { loadClientWebhookConfig } from '../../src/config/client-webhooks';
import { loadOperatorConfig } from '../../src/config/operator';
import { loadWorkerConfig } from '../../src/config/worker';
import { OperatorClient } from '../../src/operator/client';
import { createRampWorker } from '../../src/temporal/worker';
import { installRuntime } from '../../src/temporal/runtime';
import { loadObservabilityConfig } from '../../src/config/observability';
import { openDatabase } from '../../src/database/connection';
import { startDispatcher } from '../../src/outcomes/dispatcher';
import { loadWorkflowTimings } from '../../src/config/timings';
import { offRampTransactionSignal } from '../../workflows/ramps/offramp/messages';
import { testActivityConfig } from './activities';

const killPoint = process.env.KILL_POINT;
const pausePoint = process.env.PAUSE_POINT;
const role = process.env.WORKER_ROLE;

/** Announces the instant and never returns: the test SIGKILLs the process here. */
function holdHere(point: string): Promise<never> {
  process.stdout.write(`kill-point:${point}\n`);
  return new Promise<never>(() => undefined);
}

const holdAtKillPoint: WorkflowClientInterceptor = {
  async signal(input, next) {
    if (input.signalName === 'walletCreationRequested' && pausePoint === 'request-journal') {
      const resumed = new Promise((resolve) => process.once('SIGUSR2', resolve));
      process.stdout.write(`pause-point:${pausePoint}\n`);
      await resumed;
    }
    await next(input);
    if (input.signalName === 'walletCreationRequested' && killPoint === 'request-journaled')
      await holdHere(killPoint);
    if (input.signalName === 'walletCreated' && killPoint === 'answer-journaled') await holdHere(killPoint);
  },
  async signalWithStart(input, next) {
    const runId = await next(input);
    if (input.signalName === offRampTransactionSignal.name && killPoint === 'hop-forwarded')
      await holdHere(killPoint);
    return runId;
  },
};

async function main(): Promise<void> {
  const env = process.env;
  const address = env.TEST_TEMPORAL_ADDRESS!;
  const namespace = env.TEST_TEMPORAL_NAMESPACE!;
  // SIGUSR2 resumes a pause point here; the SDK would take it for a shutdown. The worker's metrics as the product serves
  // them, with TEMPORAL_METRICS_BIND_ADDRESS.
  installRuntime(loadObservabilityConfig(env), {
    logLevel: 'WARN',
    shutdownSignals: ['SIGINT', 'SIGTERM', 'SIGQUIT'],
  });
  const connection = await Connection.connect({ address });
  const temporal = new Client({ connection, namespace, interceptors: { workflow: [holdAtKillPoint] } });
  const logger = pino({ level: 'silent' });
  const operator = new OperatorClient({ config: loadOperatorConfig(env), logger });
  const createWallet = operator.createWallet.bind(operator);
  operator.createWallet = async (request, options) => {
    if (killPoint === 'request-sent') process.stdout.write('kill-point:request-sent\n');
    const wallet = await createWallet(request, options);
    if (killPoint === 'operator-answered') await holdHere(killPoint);
    return wallet;
  };
  const queue = {
    connection: await NativeConnection.connect({ address }),
    namespace,
    taskQueue: env.TASK_QUEUE!,
  };
  if (!env.DATABASE_URL) throw new Error('DATABASE_URL: the test database of this worker');
  const database = openDatabase(env.DATABASE_URL, { applicationName: 'test worker process' });
  const clientWebhooks = loadClientWebhookConfig(env);
  const activities = createActivities({
    operator,
    temporal,
    logger,
    ledger: database.db,
    config: { ...testActivityConfig(), clientWebhooks },
  });
  if (role !== 'workflows')
    startDispatcher({
      database,
      clientWebhooks,
      timings: loadWorkflowTimings(env).outcomeDelivery,
      logger,
    });
  const workflowBundle = { codePath: env.TEST_WORKFLOW_BUNDLE! };
  const worker =
    role === 'workflows'
      ? await Worker.create({ ...queue, workflowBundle })
      : role === 'activities'
        ? await Worker.create({ ...queue, activities })
        : await createRampWorker({
            ...queue,
            activities,
            workflowBundle,
            ...(env.WORKER_MAX_CONCURRENT_ACTIVITIES ? { tuning: loadWorkerConfig(env).tuning } : {}),
          });
  const running = worker.run();
  process.stdout.write('worker-ready\n');
  await running;
}

main().catch((error: unknown) => {
  process.stderr.write(`worker process failed: ${String(error)}\n`);
  process.exit(1);
});
