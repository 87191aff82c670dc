/**
 * The client backend against the real stack: the run's Temporal dev server, a sandbox operator over HTTP, a worker
 * whose activities use a real OperatorClient pointed at the sandbox, and a RampClient on the worker's task queue.
 */
import { randomUUID } from 'node:crypto';
import type { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { createActivities } from '../../activities';
import { RampClient } from '../../src/client/ramp-client';
import { loadOperatorConfig } from '../../src/config/operator';
import { loadReceiverConfig } from '../../src/config/receiver';
import { DEFAULT_ACCOUNT_SETUP_WORKFLOW_ID, DEFAULT_PROCESS_IDS } from '../../src/domain/ids';
import { OperatorClient } from '../../src/operator/client';
import type { RunningSandbox, SandboxOverrides } from '../../src/sandbox/server';
import type { WorkflowTimings } from '../../src/domain/timings';
import {
  connectTestClient,
  fastTimings,
  type RunningTestWorker,
  startTestWorker,
  testServer,
} from './temporal';
import { testActivityConfig } from './activities';
import { startSandboxOnLoopback } from './sandbox';
import { waitFor as waitUntil } from './wait';
import { freshTestDatabase, type TestDatabase } from './database';
import { type RunningDispatcher, startDispatcher } from '../../src/outcomes/dispatcher';

export const EMAIL = 'client-backend@example.com';
export const PASSCODE = 'client-backend-passcode-93d1';

export function startTestSandbox(overrides: SandboxOverrides = {}): Promise<RunningSandbox> {
  return startSandboxOnLoopback({ seed: 77, email: EMAIL, passcode: PASSCODE, ...overrides });
}

export function operatorEnv(sandbox: RunningSandbox): Record<string, string> {
  return {
    OPERATOR_BASE_URL: sandbox.url,
    OPERATOR_EMAIL: EMAIL,
    OPERATOR_PASSCODE: PASSCODE,
    OPERATOR_REQUEST_TIMEOUT: '10s',
  };
}

export function operatorFor(sandbox: RunningSandbox): OperatorClient {
  return new OperatorClient({
    config: loadOperatorConfig(operatorEnv(sandbox)),
    logger: pino({ level: 'silent' }),
  });
}

/** Receiver configuration in sandbox mode (dev-only secrets). */
export const testReceiver = () => loadReceiverConfig({});

export interface Stack {
  sandbox: RunningSandbox;
  database: TestDatabase;
  dispatcher: RunningDispatcher;
  client: Client;
  connection: Connection;
  worker: RunningTestWorker;
  ramp: RampClient;
  operator: OperatorClient;
  timings: WorkflowTimings;
  stop(): Promise<void>;
}

export async function startStack(
  options: {
    sandbox?: SandboxOverrides;
    timings?: Partial<WorkflowTimings>;
    accountSetupWorkflowId?: string;
  } = {},
): Promise<Stack> {
  const sandbox = await startTestSandbox(options.sandbox);
  const { client, connection } = await connectTestClient();
  const operator = operatorFor(sandbox);
  // The client and the activities address the same account setup (the gas check reads its gas wallet).
  const processIds = {
    ...DEFAULT_PROCESS_IDS,
    accountSetupWorkflowId:
      options.accountSetupWorkflowId ?? `${DEFAULT_ACCOUNT_SETUP_WORKFLOW_ID}-${randomUUID()}`,
  };
  const receiver = testReceiver();
  const database = await freshTestDatabase();
  const worker = await startTestWorker(
    createActivities({
      operator,
      temporal: client,
      logger: pino({ level: 'silent' }),
      ledger: database.db,
      config: testActivityConfig({ receiver: () => receiver, processIds }),
    }),
  );
  const timings = fastTimings(options.timings);
  const dispatcher = startDispatcher({
    database,
    clientWebhooks: undefined,
    timings: timings.outcomeDelivery,
    logger: pino({ level: 'silent' }),
  });
  const ramp = new RampClient({
    connection,
    database,
    namespace: testServer().namespace,
    taskQueue: worker.taskQueue,
    timings,
    processIds,
  });
  return {
    sandbox,
    database,
    dispatcher,
    client,
    connection,
    worker,
    ramp,
    operator,
    timings,
    async stop() {
      await worker.stop();
      await dispatcher.stop();
      await database.close();
      await connection.close();
      await sandbox.close();
    },
  };
}

/** Polls every 100 ms, for up to 15 s by default. */
export const waitFor = <T>(probe: () => T | Promise<T>, what: string, timeoutMs = 15_000) =>
  waitUntil(probe, what, timeoutMs, 100);
