/**
 * The whole ramp stack for one test: a time-scaled sandbox operator (own seed, so IDs never collide with another
 * test's workflows), a worker with the real activities, the real HTTPS receiver on 127.0.0.1, the account (master
 * and gas wallets, both recipient kinds) and the typed client.
 */
import { randomUUID } from 'node:crypto';
import https from 'node:https';
import { type RunningDispatcher, startDispatcher } from '../../src/outcomes/dispatcher';
import { endUserWorkflowId, offRampWorkflowId, onRampWorkflowId } from '../../src/domain/ids';
import { endUserStateQuery } from '../../workflows/end-user/messages';
import type { EndUserState } from '../../workflows/end-user/types';
import { offRampStateQuery } from '../../workflows/ramps/offramp/messages';
import { onRampStateQuery } from '../../workflows/ramps/onramp/messages';
import { freshTestDatabase, type TestDatabase } from './database';
import type { Client, Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { createActivities } from '../../activities';
import { RampClient } from '../../src/client/ramp-client';
import type { ClientWebhookConfig } from '../../src/config/client-webhooks';
import type { PayloadEncryptionConfig } from '../../src/config/encryption';
import { loadOperatorConfig } from '../../src/config/operator';
import type { ReceiverConfig } from '../../src/config/receiver';
import { DEFAULT_PROCESS_IDS, routerWorkflowId } from '../../src/domain/ids';
import type { ResourceKind } from '../../src/domain/vocabulary';
import { routerStateQuery } from '../../workflows/ramps/router/messages';
import type { LaneState } from '../../workflows/ramps/router/types';
import { OperatorClient } from '../../src/operator/client';
import type { RunningSandbox, SandboxOverrides } from '../../src/sandbox/server';
import { startReceiver, type RunningReceiver } from '../../src/webhooks/receiver';
import type { OffRampState } from '../../workflows/ramps/offramp/types';
import type { OnRampState } from '../../workflows/ramps/onramp/types';
import type { WorkflowTimings } from '../../src/domain/timings';
import {
  connectTestClient,
  fastTimings,
  type OtherServer,
  type RunningTestWorker,
  startTestWorker,
  testServer,
} from './temporal';
import { testActivityConfig } from './activities';
import { captureLines } from './logs';
import { startSandboxOnLoopback } from './sandbox';
import { testReceiverConfig } from './receiver';

export const EMAIL = 'ramps-tests@example.com';
export const PASSCODE = 'ramps-tests-passcode-5d2a';
export const TRON = 'networks/tron-mainnet';

export const rampTimings = (): WorkflowTimings =>
  fastTimings({
    stepDeadlineMs: 1_500,
    pollInitialMs: 200,
    pollMaximumMs: 800,
    processTimeoutMs: 90_000,
    activityRetryMaximumMs: 300,
  });

export interface RampStack {
  sandbox: RunningSandbox;
  /** The stack's own database (the ledger the worker writes and the typed client reads). */
  database: TestDatabase;
  /** Delivers the ledger's outcome events to `clientWebhooks` (none: recorded as no-endpoint). */
  dispatcher: RunningDispatcher;
  /** The workflow's own state (its query): what a test of the process's internals reads. */
  offRampState(depositTransactionId: string): Promise<OffRampState>;
  onRampState(orderReference: string): Promise<OnRampState>;
  endUserState(endUserId: string): Promise<EndUserState>;
  operator: OperatorClient;
  worker: RunningTestWorker;
  receiver: RunningReceiver;
  receiverConfig: ReceiverConfig;
  ramp: RampClient;
  timings: WorkflowTimings;
  masterWalletId: string;
  gasWalletId: string;
  logLines: () => Array<Record<string, unknown>>;
  alerts: () => Array<Record<string, unknown>>;
  /** Stops the stack's worker: deliveries then wait in history, or another worker (a process of its own) serves. */
  stopWorker(): Promise<void>;
  /** A new worker in this process on the same task queue, with the same activities. */
  startWorker(): Promise<void>;
  close(): Promise<void>;
}

export interface StackOptions {
  sandbox?: SandboxOverrides;
  gasTrx?: string;
  /** A Temporal client for the receiver only (the 503 test gives one behind a stoppable proxy). */
  receiverTemporal?: Client;
  temporalTimeoutMs?: number;
  /** Payload encryption for the worker and the typed client (pass a `client` built with the same converter). */
  dataConverter?: DataConverter;
  /** The converter's keys: the activities and the typed client derive the end user pseudonym (RampEndUserId) from them. */
  encryption?: Pick<PayloadEncryptionConfig, 'keys'>;
  /** Overrides of the ramp timings (e.g. a short activity budget to provoke failed reads). */
  timings?: Partial<WorkflowTimings>;
  /** Where the worker sends outcome events (none by default). */
  clientWebhooks?: ClientWebhookConfig;
  /**
   * The receiver forwards each delivery to its process itself when it can (the product's default, given the
   * operator); off unless set, so that a test sees every delivery go through its router.
   */
  directForward?: boolean;
  /** The worker's workflow bundle, in place of the run's (the trace test's holds the tracing interceptors). */
  workflowBundle?: { code: string };
  /** A dev server of the test's own, in place of the run's (`client` and `connection` must be its). */
  server?: OtherServer;
}

/**
 * The jest hooks of a test file whose tests each start a ramp stack: one client for the file, and each test's stack
 * closed after it, whether the test passed or not.
 */
export function useRampStacks() {
  let connected: { client: Client; connection: Connection } | undefined;
  let current: RampStack | undefined;
  beforeAll(async () => {
    connected = await connectTestClient();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  afterAll(async () => {
    await connected?.connection.close();
  });
  const required = () => {
    if (!connected) throw new Error('useRampStacks: used outside a test');
    return connected;
  };
  return {
    get client(): Client {
      return required().client;
    },
    async start(options: StackOptions = {}): Promise<RampStack> {
      current = await startRampStack(required().client, required().connection, options);
      return current;
    },
  };
}

export async function startRampStack(
  client: Client,
  connection: Connection,
  options: StackOptions = {},
): Promise<RampStack> {
  const sandbox = await startSandboxOnLoopback({
    seed: Math.floor(Math.random() * 2 ** 31),
    email: EMAIL,
    passcode: PASSCODE,
    ...options.sandbox,
  });
  const { logger, lines } = captureLines();
  const operator = new OperatorClient({
    config: loadOperatorConfig({
      OPERATOR_BASE_URL: sandbox.url,
      OPERATOR_EMAIL: EMAIL,
      OPERATOR_PASSCODE: PASSCODE,
    }),
    logger,
  });
  const master = await operator.createWallet({
    networks: ['networks/ethereum-mainnet', TRON],
    externalUserId: 'ramp-orchestrator/master',
  });
  const gas = await operator.createWallet({
    networks: ['networks/ethereum-mainnet', TRON],
    externalUserId: 'ramp-orchestrator/gas',
  });
  await sandboxCall(sandbox, 'PUT', '/sandbox/v1/account', {
    masterWalletId: master.id,
    gasWalletId: gas.id,
  });
  if (options.gasTrx !== '0')
    await sandboxCall(sandbox, 'POST', `/sandbox/v1/wallets/${gas.id}/balances`, {
      asset: 'TRX',
      amount: options.gasTrx ?? '1000',
    });

  const timings = { ...rampTimings(), ...options.timings };
  const processIds = { ...DEFAULT_PROCESS_IDS };
  const database = await freshTestDatabase();
  const activities = createActivities({
    operator,
    temporal: client,
    logger,
    ledger: database.db,
    config: testActivityConfig({
      gas: { walletId: gas.id, minimums: { ETH: '0.002', TRX: '30' } },
      alerts: { webhookTimeoutMs: 1000 },
      processIds,
      encryption: options.encryption ?? { keys: [] },
      ...(options.clientWebhooks ? { clientWebhooks: options.clientWebhooks } : {}),
    }),
  });
  const workerOptions = {
    ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
    ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : {}),
    ...(options.server ? { server: options.server } : {}),
  };
  let worker = await startTestWorker(activities, undefined, workerOptions);
  const taskQueue = worker.taskQueue;
  const receiverConfig = testReceiverConfig({
    bodyLimit: '16kb',
    temporalTimeoutMs: options.temporalTimeoutMs ?? 10_000,
  });
  const receiver = await startReceiver(receiverConfig, {
    temporal: options.receiverTemporal ?? client,
    taskQueue,
    timings,
    logger,
    ...(options.directForward ? { operator } : {}),
  });
  await operator.createRecipients('transaction', [receiver.recipientUrls.transaction]);
  await operator.createRecipients('order', [receiver.recipientUrls.order]);
  const dispatcher = startDispatcher({
    database,
    clientWebhooks: options.clientWebhooks,
    timings: timings.outcomeDelivery,
    logger,
  });
  const ramp = new RampClient({
    connection,
    database,
    namespace: options.server?.namespace ?? testServer().namespace,
    taskQueue,
    timings,
    processIds,
    ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
    ...(options.encryption ? { encryption: options.encryption } : {}),
  });
  return {
    sandbox,
    database,
    dispatcher,
    offRampState: (depositTransactionId) =>
      client.workflow.getHandle(offRampWorkflowId(depositTransactionId)).query(offRampStateQuery),
    onRampState: (orderReference) =>
      client.workflow.getHandle(onRampWorkflowId(orderReference)).query(onRampStateQuery),
    endUserState: (endUserId) =>
      client.workflow.getHandle(endUserWorkflowId(endUserId)).query(endUserStateQuery),
    operator,
    get worker() {
      return worker;
    },
    receiver,
    receiverConfig,
    ramp,
    timings,
    masterWalletId: master.id,
    gasWalletId: gas.id,
    logLines: lines,
    alerts: () => lines().filter((line) => typeof line.msg === 'string' && line.msg.startsWith('ALERT ')),
    stopWorker: () => worker.stop(),
    async startWorker() {
      await worker.stop();
      worker = await startTestWorker(activities, taskQueue, workerOptions);
    },
    async close() {
      await receiver.close();
      await sandbox.close();
      await worker.stop();
      await dispatcher.stop();
      await database.close();
    },
  };
}

export async function sandboxCall(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { data?: Record<string, unknown> };
  if (!response.ok) throw new Error(`sandbox ${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.data ?? {};
}

/** An end user with a deposit wallet through the typed client; answers its Tron address. */
export async function endUserWithWallet(stack: RampStack, endUserId = `user-${randomUUID().slice(0, 8)}`) {
  const wallet = await stack.ramp.ensureDepositWallet(endUserId);
  const tron = wallet.addresses.find((entry) => entry.network === TRON);
  if (!tron) throw new Error('no tron address');
  return { endUserId, walletId: wallet.walletId, address: tron.address };
}

export async function depositCrypto(stack: RampStack, address: string, amount = '50'): Promise<string> {
  const data = await sandboxCall(stack.sandbox, 'POST', '/sandbox/v1/offramp/deposits', {
    address,
    coin: 'USDT',
    amount,
  });
  return String(data.transactionId);
}

export async function depositFiat(
  stack: RampStack,
  reference: string,
  outcome: 'executed' | 'expired' | 'failed' = 'executed',
) {
  const data = await sandboxCall(stack.sandbox, 'POST', '/sandbox/v1/onramp/deposits', {
    reference,
    amount: '1000',
    coinTo: 'USDT',
    chainTo: 'TRX',
    outcome,
  });
  return {
    orderId: String(data.orderId),
    transactionId: typeof data.transactionId === 'string' ? data.transactionId : null,
  };
}

export async function waitFor<T>(
  what: string,
  read: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 45_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await read();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}${last ? ` (last error: ${last instanceof Error ? last.message : JSON.stringify(last)})` : ''}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the ledger shows the off-ramp in one of `statuses`; answers the workflow's own state then. */
export const offRampEnded = (
  stack: RampStack,
  depositId: string,
  statuses = ['settled', 'failed', 'timed-out'],
) =>
  waitFor<OffRampState>(`off-ramp ${depositId} to end`, async () => {
    const view = await stack.ramp.getOffRamp(depositId);
    return statuses.includes(view.status) ? stack.offRampState(depositId) : undefined;
  });

/** Waits until the ledger shows the on-ramp ended; answers the workflow's own state then. */
export const onRampEnded = (stack: RampStack, reference: string) =>
  waitFor<OnRampState>(`on-ramp ${reference} to end`, async () => {
    const view = await stack.ramp.getOnRamp(reference);
    return ['settled', 'expired', 'failed', 'timed-out'].includes(view.status)
      ? stack.onRampState(reference)
      : undefined;
  });

/** POSTs a delivery to the receiver over HTTPS (self-signed certificate accepted), like the operator does. */
export function postToReceiver(
  url: string,
  body: string,
  contentType = 'application/json',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      {
        method: 'POST',
        rejectUnauthorized: false,
        headers: { 'content-type': contentType, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The router that routes a resource's deliveries on this stack. */
export function routerIdOf(stack: RampStack, kind: ResourceKind, resourceId: string): string {
  return routerWorkflowId(stack.worker.taskQueue, kind, resourceId);
}

/** How a resource's deliveries were routed: its lanes in its router, the recent ones and the one routing now. */
export async function routingsOf(
  client: Client,
  stack: RampStack,
  kind: ResourceKind,
  resourceId: string,
): Promise<LaneState[]> {
  const router = await client.workflow
    .getHandle(routerIdOf(stack, kind, resourceId))
    .query(routerStateQuery)
    .catch(() => undefined);
  return [...(router?.recent ?? []), ...(router?.active ?? [])].filter(
    (lane) => lane.kind === kind && lane.resourceId === resourceId,
  );
}

/** How a resource's deliveries are being (or were last) routed; undefined while no router has it. */
export async function routingOf(
  client: Client,
  stack: RampStack,
  kind: ResourceKind,
  resourceId: string,
): Promise<LaneState | undefined> {
  return (await routingsOf(client, stack, kind, resourceId)).at(-1);
}
