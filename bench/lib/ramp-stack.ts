/**
 * The whole ramp stack, for the measurements that follow processes end to end, on the npm-start server:
 * - the sandbox operator in this process, on loopback, with a seed of its own (its IDs never meet another leg's) and
 *   the leg's time scale, delivering its webhooks over HTTPS to
 * - the product's receiver in this process (as under `npm start`), handing them to the leg's task queue with the
 *   leg's timings in the router's input (a router passes them on to the processes it starts), and
 * - a worker in a process of its own, started as `npm run worker` starts it (src/entry/worker.ts under tsx, which
 *   bundles the workflows), configured by its environment alone: this shell's WORKER_* settings, warn logs. Its own
 *   process, so that its cores and memory are its own; the schedules every worker start applies get a 24 h interval
 *   so that neither the gas monitor nor a reconciliation runs during a leg; its activities write the stack's own
 *   database (a fresh copy of the bench's migrated template) and its outcome dispatcher delivers from it;
 * - the account done as the operator's account contact would: master and gas wallets, the account step, the gas
 *   wallet credited (or not), both recipient kinds; and the typed client on the leg's task queue.
 */
import { workerVersion } from '../../src/config/worker-version';
import { makeCurrent } from '../../src/temporal/worker-deployment';
import { RampClient } from '../../src/client/ramp-client';
import { simulate } from '../../src/demo/simulate';
import { DEFAULT_PROCESS_IDS, offRampWorkflowId, WORKFLOW_TYPES } from '../../src/domain/ids';
import type { WorkflowTimings } from '../../src/domain/timings';
import { NETWORKS } from '../../src/domain/vocabulary';
import type { RunningSandbox } from '../../src/sandbox/server';
import type { RunningReceiver } from '../../src/webhooks/receiver';
import { offRampStateQuery } from '../../workflows/ramps/offramp/messages';
import type { OffRampState } from '../../workflows/ramps/offramp/types';
import {
  BENCH_NAMESPACE,
  type BenchContext,
  type BenchDatabase,
  type BenchServer,
  startBenchOperator,
  startBenchReceiver,
} from './context';
import { closedLoop } from './load';
import { RUN_TAG } from './measurement';
import { startProductProcess } from './product-process';
import type { HistoryEvents } from './task-waits';

export interface RampStackOptions {
  /** Names the task queue, the end users and the log lines of the leg. */
  label: string;
  /** The sandbox's factor on every simulated delay. */
  timeScale: number;
  timings: WorkflowTimings;
  /** TRX credited to the gas wallet; '0' leaves it empty, so that every Autoswap strands at its gas top-up. */
  gasTrx: string;
  /** The sandbox's first attempts in flight at once to the receiver (its default: 1). */
  deliveryConcurrency?: number;
  /** How long the worker may take to start (it bundles the workflows first). */
  startTimeoutMs: number;
  /** The server to run on (default: the context's npm-start server). */
  server?: BenchServer;
  /** More of the worker's environment, e.g. the client's outcome endpoints. */
  workerEnv?: Record<string, string>;
  log: (line: string) => void;
}

export interface RampStack {
  sandbox: RunningSandbox;
  receiver: RunningReceiver;
  ramp: RampClient;
  /** The stack's own database: the worker's activities write it, its dispatcher delivers from it, the client reads it. */
  database: BenchDatabase;
  taskQueue: string;
  /** The worker's process. */
  workerPid: number | undefined;
  /** Milliseconds the worker took to serve (start, bundle, connect). */
  workerStartMs: number;
  /** Deposit wallets for `count` new end users through the typed client; answers their Tron addresses. */
  endUsers(count: number, concurrency: number, timeLimitMs: number): Promise<string[]>;
  /** Simulates a USDT deposit to a deposit-wallet address at the sandbox; the deposit's ID and when it was posted. */
  deposit(address: string): Promise<{ depositId: string; postedAtMs: number }>;
  close(): Promise<void>;
}

export async function startRampStack(context: BenchContext, options: RampStackOptions): Promise<RampStack> {
  const stoppers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
    stoppers.length = 0;
  };
  const taskQueue = `bench-${options.label}-${RUN_TAG}`;
  const server = options.server ?? context.subject;
  try {
    const { sandbox, operator, email, passcode } = await startBenchOperator({
      timeScale: options.timeScale,
      deliveryConcurrency: options.deliveryConcurrency ?? 1,
    });
    stoppers.push(() => sandbox.close());
    // The receiver re-reads and forwards with an operator client of its own, as `npm run receiver` does.
    const receiver = await startBenchReceiver(server.temporal.client, taskQueue, options.timings, {
      operator,
    });
    stoppers.push(() => receiver.close());
    const networks = [NETWORKS.ethereum, NETWORKS.tron];
    const master = await operator.createWallet({ networks, externalUserId: 'ramp-orchestrator/master' });
    const gas = await operator.createWallet({ networks, externalUserId: 'ramp-orchestrator/gas' });
    await simulate(sandbox.url, 'PUT', '/account', { masterWalletId: master.id, gasWalletId: gas.id });
    if (options.gasTrx !== '0')
      await simulate(sandbox.url, 'POST', `/wallets/${gas.id}/balances`, {
        asset: 'TRX',
        amount: options.gasTrx,
      });
    await operator.createRecipients('transaction', [receiver.recipientUrls.transaction]);
    await operator.createRecipients('order', [receiver.recipientUrls.order]);
    const database = await context.freshDatabase(options.label);
    stoppers.push(() => database.close());

    const startedAt = performance.now();
    const worker = await startProductProcess({
      entry: 'src/entry/worker.ts',
      portVariable: 'WORKER_HEALTH_PORT',
      env: {
        ...options.workerEnv,
        DATABASE_URL: database.url,
        TEMPORAL_ADDRESS: server.server.address,
        TEMPORAL_NAMESPACE: BENCH_NAMESPACE,
        TEMPORAL_TASK_QUEUE: taskQueue,
        OPERATOR_BASE_URL: sandbox.url,
        OPERATOR_EMAIL: email,
        OPERATOR_PASSCODE: passcode,
        GAS_MONITOR_INTERVAL: '24h',
        RECONCILE_INTERVAL: '24h',
      },
      timeoutMs: options.startTimeoutMs,
    });
    stoppers.push(() => worker.stop());
    const workerStartMs = performance.now() - startedAt;
    options.log(
      `[${options.label}] worker process ${worker.pid} serving after ${(workerStartMs / 1000).toFixed(1)} s`,
    );
    // The worker polls as its package version, which gets work once it is current (as a release makes it).
    await makeCurrent(server.temporal.client, workerVersion(taskQueue), {
      workersWaitMs: options.startTimeoutMs,
    });

    const ramp = new RampClient({
      connection: server.temporal.connection,
      database,
      namespace: BENCH_NAMESPACE,
      taskQueue,
      timings: options.timings,
      processIds: { ...DEFAULT_PROCESS_IDS },
    });
    return {
      sandbox,
      receiver,
      ramp,
      database,
      taskQueue,
      workerPid: worker.pid,
      workerStartMs,
      async endUsers(count, concurrency, timeLimitMs) {
        const addresses: string[] = [];
        const result = await closedLoop({
          count,
          concurrency,
          timeLimitMs,
          send: async (index) => {
            const wallet = await ramp.ensureDepositWallet(`${options.label}-${RUN_TAG}-${index}`);
            const tron = wallet.addresses.find((entry) => entry.network === NETWORKS.tron);
            if (tron) addresses.push(tron.address);
            return tron !== undefined;
          },
        });
        if (addresses.length < count)
          throw new Error(
            `${options.label}: ${addresses.length} of ${count} deposit wallets within ${timeLimitMs / 1000} s` +
              (result.firstError ? ` (${result.firstError})` : ''),
          );
        return addresses;
      },
      async deposit(address) {
        const postedAtMs = Date.now();
        const data = await simulate<{ transactionId: string }>(sandbox.url, 'POST', '/offramp/deposits', {
          address,
          coin: 'USDT',
          amount: '50',
        });
        return { depositId: data.transactionId, postedAtMs };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * How long the sandbox's own schedule takes for one off-ramp chain (src/sandbox/flows/offramp.ts): a step to the
 * deposit's mining (and the gas top-up), a confirmation (deposit and top-up confirm together), a step to the sweep,
 * a confirmation of the sweep, a step to the order transaction's completion: 3 steps and 2 confirmations, each
 * scaled (and rounded) as the sandbox's scheduler scales it. The last event is published at that time.
 */
export function offRampScheduleMs(sandbox: RunningSandbox): number {
  const scaled = (ms: number) => sandbox.ctx.scheduler.scaled(ms);
  return 3 * scaled(sandbox.config.stepDelayMs) + 2 * scaled(sandbox.config.confirmationDelayMs);
}

export interface OffRampRun {
  workflowId: string;
  runId: string;
  status: string;
  closeTimeMs?: number;
}

/** Every run of an off-ramp on the stack's task queue (visibility), by workflow ID. */
export async function offRampRuns(stack: RampStack): Promise<Map<string, OffRampRun[]>> {
  const runs = new Map<string, OffRampRun[]>();
  const query = `WorkflowType = '${WORKFLOW_TYPES.offRamp}' AND TaskQueue = '${stack.taskQueue}'`;
  for await (const execution of stack.ramp.temporal.workflow.list({ query, pageSize: 1000 })) {
    const run: OffRampRun = {
      workflowId: execution.workflowId,
      runId: execution.runId,
      status: execution.status.name,
      ...(execution.closeTime ? { closeTimeMs: execution.closeTime.getTime() } : {}),
    };
    runs.set(run.workflowId, [...(runs.get(run.workflowId) ?? []), run]);
  }
  return runs;
}

/** The histories of every router and off-ramp run on the stack's task queue (the ramps' workflow tasks). */
export async function rampRunHistories(stack: RampStack): Promise<HistoryEvents[]> {
  const query =
    `TaskQueue = '${stack.taskQueue}' AND ` +
    `WorkflowType IN ('${WORKFLOW_TYPES.webhookRouter}', '${WORKFLOW_TYPES.offRamp}')`;
  const histories: HistoryEvents[] = [];
  for await (const execution of stack.ramp.temporal.workflow.list({ query, pageSize: 1000 })) {
    const history = await stack.ramp.temporal.workflow
      .getHandle(execution.workflowId, execution.runId)
      .fetchHistory();
    histories.push(history.events ?? []);
  }
  return histories;
}

/** Off-ramps on the stack's task queue that have closed (visibility: eventually consistent). */
export const closedOffRamps = (stack: RampStack): Promise<number> =>
  stack.ramp.temporal.workflow
    .count(
      `WorkflowType = '${WORKFLOW_TYPES.offRamp}' AND TaskQueue = '${stack.taskQueue}' AND ExecutionStatus != 'Running'`,
    )
    .then((answer) => answer.count);

/** True once the sandbox has nothing left to do: every Autoswap run ended and every delivery ended. */
const sandboxDone = (sandbox: RunningSandbox): boolean =>
  sandbox.ctx.delivery.active === 0 &&
  [...sandbox.offramp.runs.values()].every((run) => run.status !== 'in_progress');

/**
 * Waits until `count` off-ramps have closed, or the time limit, or until nothing but a step deadline's poll can move
 * them any more: the sandbox has published and delivered everything and no off-ramp closed for `quietMs`.
 */
export async function waitForOffRamps(
  stack: RampStack,
  count: number,
  timeLimitMs: number,
  quietMs: number,
): Promise<{ closed: number; stalled: boolean }> {
  const deadline = Date.now() + timeLimitMs;
  let closed = 0;
  let lastProgressMs = Date.now();
  for (;;) {
    const now = await closedOffRamps(stack).catch(() => closed);
    if (now > closed) lastProgressMs = Date.now();
    closed = now;
    if (closed >= count) return { closed, stalled: false };
    if (Date.now() >= deadline) return { closed, stalled: false };
    if (sandboxDone(stack.sandbox) && Date.now() - lastProgressMs >= quietMs)
      return { closed, stalled: true };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The final state of each off-ramp that has closed (its result: no replay), `concurrency` at a time. */
export async function offRampResults(
  stack: RampStack,
  runs: Map<string, OffRampRun[]>,
  depositIds: readonly string[],
  concurrency: number,
): Promise<Map<string, OffRampState>> {
  const closed = depositIds.filter((id) =>
    runs.get(offRampWorkflowId(id))?.some((run) => run.status !== 'RUNNING'),
  );
  const results = new Map<string, OffRampState>();
  await closedLoop({
    count: closed.length,
    concurrency,
    timeLimitMs: 120_000,
    send: async (index) => {
      const id = closed[index]!;
      const handle = stack.ramp.temporal.workflow.getHandle(offRampWorkflowId(id));
      results.set(id, (await handle.result()) as OffRampState);
      return true;
    },
  });
  return results;
}

/** An off-ramp's own state, as its workflow answers its query (what the ledger's view leaves out included). */
export const offRampState = (stack: RampStack, depositTransactionId: string): Promise<OffRampState> =>
  stack.ramp.temporal.workflow.getHandle(offRampWorkflowId(depositTransactionId)).query(offRampStateQuery);

/** The states of off-ramps still running, by status (a query each: the worker answers them). */
export async function runningStatuses(
  stack: RampStack,
  depositIds: readonly string[],
): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  for (const id of depositIds) {
    const state = await offRampState(stack, id).catch(() => undefined);
    const key = !state
      ? 'not answering'
      : state.status === 'awaiting-settlement' &&
          state.orderTransaction?.status === 'completed' &&
          !state.order
        ? 'awaiting-settlement with its order transaction completed, order never read'
        : state.status;
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  return statuses;
}

/**
 * The `off_ramp.settled` events each off-ramp raised, from the stack's ledger, by workflow ID: how many (once is
 * right) and when the first says the off-ramp settled (its own record of the instant).
 */
export async function settledEvents(stack: RampStack): Promise<Map<string, { count: number; atMs: number }>> {
  const { rows } = await stack.database.pool.query<{ process_id: string; count: number; at: string }>(
    `select process_id, count(*)::int as count, min(body->>'timestamp') as at
     from outcome_events where type = 'off_ramp.settled' group by process_id`,
  );
  return new Map(rows.map((row) => [row.process_id, { count: row.count, atMs: Date.parse(row.at) }]));
}

export interface ChainDeliveries {
  /** Publication time of the chain's last event, and the end of its last successful delivery (sandbox clock). */
  lastEventMs: number;
  lastDeliveredMs: number;
  /** Deliveries that ended with a 200, and every attempt (retries included). */
  delivered: number;
  attempts: number;
  /** Summed duration of the 200 attempts (the receiver's ack as the sandbox saw it). */
  ackMs: number;
}

/**
 * The sandbox's record of one off-ramp chain: its transactions (deposit, gas top-up, sweep, order transaction, as
 * the sandbox's run names them), their events and the delivery attempts of those events.
 */
export function chainDeliveries(sandbox: RunningSandbox, depositId: string): ChainDeliveries | undefined {
  const run = sandbox.offramp.runs.get(depositId);
  if (!run) return undefined;
  const ids = new Set(
    [run.depositId, run.topUpId, run.sweepId, run.orderTransactionId].filter(
      (id): id is string => id !== null,
    ),
  );
  const events = sandbox.events().filter((event) => ids.has(event.resourceId));
  const attempts = sandbox
    .deliveries()
    .filter((attempt) => ids.has(attempt.resourceId) && attempt.attempt > 0);
  const delivered = attempts.filter((attempt) => attempt.outcome === 'delivered');
  return {
    lastEventMs: Math.max(...events.map((event) => Date.parse(event.time))),
    lastDeliveredMs: Math.max(...delivered.map((attempt) => Date.parse(attempt.time))),
    delivered: delivered.length,
    attempts: attempts.length,
    ackMs: delivered.reduce((sum, attempt) => sum + (attempt.durationMs ?? 0), 0),
  };
}
