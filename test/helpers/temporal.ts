/**
 * Test helpers for the `temporal` project: a client and a worker on the run's real dev server, each test on its
 * own task queue so tests never pick up each other's work.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import {
  DefaultLogger,
  GracefulShutdownPeriodExpiredError,
  NativeConnection,
  Runtime,
  type Worker,
} from '@temporalio/worker';
import type { RampActivities } from '../../activities';
import { createRampWorker } from '../../src/temporal/worker';
import type { WorkflowTimings } from '../../src/domain/timings';
import type { WorkerVersion } from '../../src/config/worker-version';

// Keep the SDK's own logging to warnings so test output stays readable; once per jest module registry.
try {
  Runtime.install({ logger: new DefaultLogger('WARN') });
} catch {
  // Already installed by another test file in this process.
}

export function testServer() {
  const address = process.env.TEST_TEMPORAL_ADDRESS;
  const namespace = process.env.TEST_TEMPORAL_NAMESPACE;
  const bundlePath = process.env.TEST_WORKFLOW_BUNDLE;
  if (!address || !namespace || !bundlePath) {
    throw new Error(
      'The Temporal test server is not set up: run these tests through jest (the temporal project has a global setup).',
    );
  }
  return { address, namespace, bundlePath };
}

export async function connectTestClient(
  options: { dataConverter?: DataConverter } = {},
): Promise<{ client: Client; connection: Connection }> {
  const { address, namespace } = testServer();
  const connection = await Connection.connect({ address });
  // The SDK retries a failed gRPC call from a timer; if that timer fires after the connection was closed it throws
  // "Channel has been shut down" from the timer, failing whichever test file is running (seen in CI when a worker's
  // abandoned activity call outlived its test). Test connections therefore stay open for the run (close() is a
  // no-op), and jest's forceExit (jest.config.js) ends the process after the global teardown.
  connection.close = () => Promise.resolve();
  return {
    client: new Client({
      connection,
      namespace,
      ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
    }),
    connection,
  };
}

export interface RunningTestWorker {
  worker: Worker;
  taskQueue: string;
  stop(): Promise<void>;
}

/** What a stub set of activities leaves out: no outcome endpoint, and a ledger that takes every write. */
const quietDefaults: Pick<RampActivities, 'deliverOutcomeEvent' | 'recordRamp' | 'recordEndUser'> = {
  deliverOutcomeEvent: () => Promise.resolve({ endpoints: 0 }),
  recordRamp: () => Promise.resolve(),
  recordEndUser: () => Promise.resolve(),
};

/** A dev server other than the run's (a test that starts its own), by its address and namespace. */
export interface OtherServer {
  address: string;
  namespace: string;
}

export async function startTestWorker(
  activities: RampActivities,
  taskQueue = `test-${randomUUID()}`,
  options: {
    dataConverter?: DataConverter;
    workflowBundle?: { code: string };
    server?: OtherServer;
    /** A versioned worker: it gets work once its version is current (src/temporal/worker-deployment.ts). */
    version?: WorkerVersion;
  } = {},
): Promise<RunningTestWorker> {
  const { address, namespace, bundlePath } = { ...testServer(), ...options.server };
  const connection = await NativeConnection.connect({ address });
  const worker = await createRampWorker({
    connection,
    namespace,
    taskQueue,
    // Stub sets that do not record behave like a worker whose ledger takes every write and that has no endpoint.
    activities: { ...quietDefaults, ...activities },
    workflowBundle: options.workflowBundle ?? { codePath: bundlePath },
    shutdownForceTime: '10s',
    ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
    ...(options.version ? { version: options.version } : {}),
  });
  const running = worker.run();
  let stopped: Promise<void> | undefined;
  const stop = async () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    try {
      await running;
    } catch (error) {
      // A task that ignored cancellation past shutdownForceTime: the test is over, so say so and move on.
      if (!(error instanceof GracefulShutdownPeriodExpiredError)) throw error;
      process.stdout.write(`[test worker] ${taskQueue}: forced shutdown (${error.message})\n`);
    }
    await connection.close();
  };
  return {
    worker,
    taskQueue,
    // Once: a test may stop its worker early and its hooks stop it again.
    stop: () => (stopped ??= stop()),
  };
}

/** Short timings so tests finish in seconds without sleeping. */
export function fastTimings(overrides: Partial<WorkflowTimings> = {}): WorkflowTimings {
  return {
    activityStartToCloseMs: 5_000,
    activityScheduleToCloseMs: 30_000,
    activityRetryInitialMs: 100,
    activityRetryMaximumMs: 500,
    activityHeartbeatMs: 5_000,
    stepDeadlineMs: 2_000,
    pollInitialMs: 200,
    pollMaximumMs: 1_000,
    processTimeoutMs: 60_000,
    quoteTtlMs: 25_000,
    unknownResourceTimeoutMs: 60_000,
    outcomeDelivery: {
      attemptTimeoutMs: 15_000,
      retryInitialMs: 5_000,
      retryMaximumMs: 3_600_000,
      retryForMs: 86_400_000,
    },
    ...overrides,
  };
}
