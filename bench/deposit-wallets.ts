/**
 * Deposit wallets: end users' deposit wallets asked for through the HTTP API as a client's backend asks for them
 * (POST /v1/end-users/{id}/deposit-wallet, each with an Idempotency-Key of its own), a closed loop of distinct users
 * against a raw signalWithStart loop of the same concurrency on the same npm-start server. The worker and the API each
 * run in a process of their own, started as `npm run worker` and `npm run api` start them, from this checkout or
 * from the one `--checkout` names (another version of the product, measured by this same harness); the worker writes
 * the leg's own database and delivers every outcome event to a stand-in for the client's endpoint; the sandbox
 * answers at once.
 *
 * After the loop, once every `deposit_wallet.created` has reached the endpoint: the worker's memory (RSS), what each
 * step of a wallet took (bench/lib/wallet-steps.ts: the end user's answer, each activity, its workflow tasks; the
 * outcome event from being raised to the endpoint having it), the CPU each process spent per wallet, and the billable
 * actions per wallet by workflow type and kind (from the history of every run on the leg's task queue, in the loop's
 * span of time).
 * Then, one call at a time, the same POST again for a sample of users while the worker has them cached, and again
 * after the worker restarted (evicted: each replays its history first); GET /v1/end-users/{id} for every user.
 * Last, Temporal's floor for a deposit wallet on the same server (bench/floor), in this process: a workflow that
 * only creates the wallet in one activity and answers, once with a scheduled activity and once with a local one.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { loadWorkerConfig, type WorkerTuning } from '../src/config/worker';
import { workerVersion } from '../src/config/worker-version';
import { endUserWorkflowId } from '../src/domain/ids';
import type { OperatorClient } from '../src/operator/client';
import { makeCurrent } from '../src/temporal/worker-deployment';
import {
  type ActionCounts,
  addCounts,
  countRun,
  type TimeWindow,
  totalActions,
} from './lib/billable-actions';
import { BENCH_NAMESPACE, type BenchContext, signalLikeReceiver, startBenchOperator } from './lib/context';
import { closedLoop } from './lib/load';
import { cpuSeconds, residentMiB, treeCpuSeconds } from './lib/machine';
import { type BenchSettings, type Measurement, resourceIdOf, RUN_TAG } from './lib/measurement';
import { type ProductProcess, PROJECT_ROOT, startProductProcess } from './lib/product-process';
import { startClientEndpoint } from './lib/ramp-journeys';
import type { Figure } from './lib/report';
import { persistencePerUnit } from './lib/server-metrics';
import { type LatencySummary, summarize } from './lib/stats';
import { type HistoryEvents, taskWaits } from './lib/task-waits';
import { walletSteps } from './lib/wallet-steps';
import { type FloorWorker, startFloorWorker } from './floor/worker';

const API_KEY = 'bench-wallets-api-key-2c7e9d41b0';
/** Bundling the workflows and connecting, on a busy 2-core machine. */
const PROCESS_START_TIMEOUT_MS = 180_000;
/** How long the outcome events of the last wallets may take to reach the client's endpoint. */
const DELIVERY_WAIT_MS = 60_000;

/** The checkout's commit, for the report (`git describe`), or its folder when it is no repository. */
function describeCheckout(root: string): string {
  try {
    return execFileSync('git', ['-C', root, 'describe', '--always', '--dirty', '--tags'], {
      encoding: 'utf8',
    }).trim();
  } catch {
    return root;
  }
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '?');
const times = (summary: LatencySummary) => `p50 ${fixed(summary.p50, 0)} ms, p99 ${fixed(summary.p99, 0)} ms`;

export const depositWallets: Measurement = {
  name: 'deposit-wallets',
  description:
    'deposit wallets through the HTTP API (worker and API processes) vs raw signalWithStart, same server',
  async run(context, settings, _shared, log) {
    const users = settings.walletUsers;
    const root = settings.checkout ?? PROJECT_ROOT;
    const checkout = describeCheckout(root);
    const taskQueue = `bench-wallets-${RUN_TAG}`;
    const { sandbox, operator, email, passcode } = await startBenchOperator({
      timeScale: 0.001,
      deliveryConcurrency: 1,
    });
    const endpoint = await startClientEndpoint();
    const database = await context.freshDatabase('wallets');
    const stoppers: (() => Promise<unknown>)[] = [
      () => sandbox.close(),
      () => endpoint.close(),
      () => database.close(),
    ];
    const common = {
      TEMPORAL_ADDRESS: context.subject.server.address,
      TEMPORAL_NAMESPACE: BENCH_NAMESPACE,
      TEMPORAL_TASK_QUEUE: taskQueue,
      DATABASE_URL: database.url,
    };
    const startWorker = () =>
      startProductProcess({
        root,
        entry: 'src/entry/worker.ts',
        portVariable: 'WORKER_HEALTH_PORT',
        timeoutMs: PROCESS_START_TIMEOUT_MS,
        env: {
          ...common,
          OPERATOR_BASE_URL: sandbox.url,
          OPERATOR_EMAIL: email,
          OPERATOR_PASSCODE: passcode,
          CLIENT_WEBHOOK_URLS: endpoint.url,
          CLIENT_WEBHOOK_SECRET: endpoint.secret,
          GAS_MONITOR_INTERVAL: '24h',
          RECONCILE_INTERVAL: '24h',
        },
      });
    // A checkout with Worker Versioning polls as its package version, which gets work once it is current.
    const versioned = existsSync(path.join(root, 'src/temporal/worker-deployment.ts'));
    const buildId = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string })
      .version;
    try {
      let worker: ProductProcess = await startWorker();
      stoppers.push(() => worker.stop());
      if (versioned)
        await makeCurrent(context.subject.temporal.client, workerVersion(taskQueue, buildId), {
          workersWaitMs: PROCESS_START_TIMEOUT_MS,
        });
      const api = await startProductProcess({
        root,
        entry: 'src/entry/api.ts',
        portVariable: 'API_PORT',
        timeoutMs: PROCESS_START_TIMEOUT_MS,
        env: { ...common, API_KEY },
      });
      stoppers.push(() => api.stop());
      log(`[deposit-wallets] ${checkout}: worker process ${worker.pid}, API process ${api.pid}`);
      const apiUrl = `http://127.0.0.1:${api.port}`;
      const userId = (index: number | string) => `bw-${RUN_TAG}-${index}`;
      const post = async (id: string): Promise<boolean> => {
        const response = await fetch(`${apiUrl}/v1/end-users/${id}/deposit-wallet`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${API_KEY}`,
            'idempotency-key': randomUUID(),
            'content-type': 'application/json',
          },
          body: '{}',
          signal: AbortSignal.timeout(settings.requestTimeoutMs),
        });
        const body = (await response.json()) as {
          data?: { addresses?: unknown[] };
          error?: { message?: string };
        };
        if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${body.error?.message ?? ''}`);
        return (body.data?.addresses?.length ?? 0) > 0;
      };

      // The first wallet pays for the worker's first tasks and the API's connections: not measured.
      await post(userId('warm'));
      const rawId = resourceIdOf(`bw-${RUN_TAG}-raw`, users);
      const raw = await closedLoop({
        count: users,
        concurrency: settings.concurrency,
        timeLimitMs: settings.legTimeLimitMs,
        send: async (index) => {
          await signalLikeReceiver(context.subject.temporal, context.timings, rawId(index));
          return true;
        },
      });

      const pids = {
        worker: () => cpuSeconds(worker.pid),
        api: () => cpuSeconds(api.pid),
        'dev server': () => cpuSeconds(context.subject.server.pid),
        PostgreSQL: () => treeCpuSeconds(context.postgres.pid),
      };
      const cpuNow = async () =>
        Object.fromEntries(
          await Promise.all(Object.entries(pids).map(async ([name, read]) => [name, await read()] as const)),
        );
      const cpuBefore = await cpuNow();
      const benchBefore = process.cpuUsage();
      const persistenceBefore = await context.subjectPersistence?.();
      const fromMs = Date.now();
      const wallets = await closedLoop({
        count: users,
        concurrency: settings.concurrency,
        timeLimitMs: settings.legTimeLimitMs,
        send: (index) => post(userId(index)),
      });
      const loopEndMs = Date.now();
      const cpuAfter = await cpuNow();
      const benchUsed = process.cpuUsage(benchBefore);
      const persistence = persistencePerUnit(
        persistenceBefore,
        await context.subjectPersistence?.(),
        wallets.ok,
        'wallet',
      );
      const created = wallets.ok;
      const cpuPerWallet: Record<string, number> = Object.fromEntries(
        Object.keys(pids).flatMap((name) => {
          const before = cpuBefore[name];
          const after = cpuAfter[name];
          return before === undefined || after === undefined
            ? []
            : [[name, ((after - before) * 1000) / created]];
        }),
      );
      cpuPerWallet['bench (load, sandbox, endpoint)'] = (benchUsed.user + benchUsed.system) / 1000 / created;

      // Every wallet's deposit_wallet.created at the client's endpoint, then the worker's memory.
      const measuredIds = new Set(
        Array.from({ length: users }, (_, index) => endUserWorkflowId(userId(index))),
      );
      const heard = () =>
        endpoint
          .confirmed()
          .filter(
            (delivery) =>
              delivery.event?.type === 'deposit_wallet.created' &&
              measuredIds.has(delivery.event.data.workflowId),
          );
      const deliveredBy = Date.now() + DELIVERY_WAIT_MS;
      while (heard().length < created && Date.now() < deliveredBy)
        await new Promise((resolve) => setTimeout(resolve, 250));
      const toMs = Date.now();
      const deliveries = heard();
      const outcomeMs = summarize(
        deliveries.map((delivery) => delivery.receivedAt - Date.parse(delivery.event!.timestamp)),
      );
      const workerMemory = await residentMiB(worker.pid);
      const apiMemory = await residentMiB(api.pid);

      const endUserHistories: HistoryEvents[] = [];
      for (let first = 0; first < users; first += settings.concurrency) {
        const batch = Array.from({ length: Math.min(settings.concurrency, users - first) }, (_, offset) =>
          context.subject.temporal.client.workflow
            .getHandle(endUserWorkflowId(userId(first + offset)))
            .fetchHistory()
            .then((history) => [history.events ?? []])
            .catch((error: unknown) => {
              // A loop stopped by its time limit never started its last users.
              if (error instanceof WorkflowNotFoundError) return [];
              throw error;
            }),
        );
        endUserHistories.push(...(await Promise.all(batch)).flat());
      }
      const steps = walletSteps(endUserHistories);
      const waits = taskWaits(endUserHistories);
      const actions = await actionsPerWallet(context, taskQueue, { fromMs, toMs }, created);

      // One call at a time, so that each latency is the call's own, not a queue's.
      const sample = Math.max(1, Math.min(settings.walletSample, created));
      const sampleIds = Array.from({ length: sample }, (_, index) => userId(index));
      const timeCalls = async (ids: string[]) => {
        const latencies: number[] = [];
        for (const id of ids) {
          const startedAt = performance.now();
          await post(id);
          latencies.push(performance.now() - startedAt);
        }
        return summarize(latencies);
      };
      const cached = await timeCalls(sampleIds);
      await worker.stop();
      worker = await startWorker();
      await post(userId('warm-again'));
      const evicted = await timeCalls(sampleIds);
      const readBack = await closedLoop({
        count: created,
        concurrency: settings.concurrency,
        timeLimitMs: settings.legTimeLimitMs,
        send: async (index) => {
          const response = await fetch(`${apiUrl}/v1/end-users/${userId(index)}`, {
            headers: { authorization: `Bearer ${API_KEY}` },
          });
          const body = (await response.json()) as { data?: { wallet?: unknown } };
          return response.status === 200 && Boolean(body.data?.wallet);
        },
      });
      await worker.stop();
      await api.stop();

      // Last, so that it changes nothing the product's figures saw.
      const tuning = loadWorkerConfig(process.env).tuning;
      const floors = await walletFloors(context, settings, { tuning, operator, users }, log);
      log(
        `[deposit-wallets] ${checkout}: ${wallets.throughput.toFixed(1)} wallets/s (raw ${raw.throughput.toFixed(1)}/s), ` +
          `worker RSS ${fixed(workerMemory?.rssMiB ?? NaN, 0)} MiB, errors ${wallets.errors}` +
          (wallets.firstError ? ` (${wallets.firstError})` : ''),
      );

      const activityRows = Object.entries(steps.activities).map(
        ([type, step]) => `${type} ${fixed(step.perWallet)} a wallet, ${times(step.ms)}`,
      );
      const stepFigures: Figure[] = [
        {
          measurement: 'deposit wallets',
          what: `step: the end-user workflow, from its start to the update's answer (${checkout})`,
          value: Math.round(steps.answer.p50),
          unit: 'ms',
          note:
            `p99 ${fixed(steps.answer.p99, 0)} ms; ${fixed(steps.workflowTasks.perWallet)} workflow tasks a wallet (run ${times(steps.workflowTasks.ms)}), ` +
            `${fixed(steps.signalsPerWallet)} signals, ${fixed(steps.historyEventsPerWallet)} history events of ${fixed(steps.historyBytesPerWallet / 1024)} KiB; ` +
            `a first task waited p50 ${fixed(summarize(waits.firstPickupMs).p50, 0)} ms to be picked up, a later one p50 ${fixed(summarize(waits.laterPickupMs).p50, 0)} ms`,
        },
        ...Object.entries(steps.activities).map(([type, step]): Figure => ({
          measurement: 'deposit wallets',
          what: `step: activity ${type}, scheduled to completed (${checkout})`,
          value: Math.round(step.ms.p50),
          unit: 'ms',
          note: `${fixed(step.perWallet)} a wallet; p99 ${fixed(step.ms.p99, 0)} ms`,
        })),
        {
          measurement: 'deposit wallets',
          what: `step: deposit_wallet.created, raised to the client's endpoint having it (${checkout})`,
          value: Math.round(outcomeMs.p50),
          unit: 'ms',
          note: `${deliveries.length} of ${created} delivered within ${DELIVERY_WAIT_MS / 1000} s of the loop's end; p99 ${fixed(outcomeMs.p99, 0)} ms (the endpoint answers in 100 ms)`,
        },
        {
          measurement: 'deposit wallets',
          what: `billable actions per wallet, everything on the task queue during the loop (${checkout})`,
          value: Math.round(actions.perWallet * 10) / 10,
          unit: 'actions',
          note: `by workflow type: ${listed(actions.byWorkflowType)}; by kind: ${listed(actions.byKind)}`,
        },
        ...Object.entries(cpuPerWallet).map(([name, ms]): Figure => ({
          measurement: 'deposit wallets',
          what: `CPU per wallet: ${name} (${checkout})`,
          value: Math.round(ms * 10) / 10,
          unit: 'ms',
        })),
      ];
      return {
        figures: [
          {
            measurement: 'deposit wallets',
            what: `POST /v1/end-users/{id}/deposit-wallet, ${created} of ${users} users${wallets.timedOut ? ' (time limit)' : ''}, worker and API processes (${checkout})`,
            value: wallets.throughput,
            unit: '/s',
            baseline: { what: 'raw signalWithStart, same server', value: raw.throughput },
            target: '>= 0.25x',
            met: wallets.throughput >= 0.25 * raw.throughput && wallets.errors === 0,
            note:
              `p50 ${fixed(wallets.latency.p50, 0)} ms, p99 ${fixed(wallets.latency.p99, 0)} ms, errors ${wallets.errors}` +
              `${wallets.firstError ? ` (${wallets.firstError})` : ''}; steps: ${activityRows.join('; ')}` +
              persistence,
          },
          {
            measurement: 'deposit wallets',
            what: `worker RSS after ${created} users and their outcome events (${checkout})`,
            value: Math.round(workerMemory?.rssMiB ?? NaN),
            unit: 'MiB',
            note:
              `peak ${fixed(workerMemory?.peakMiB ?? NaN, 0)} MiB; the API process ${fixed(apiMemory?.rssMiB ?? NaN, 0)} MiB ` +
              `(peak ${fixed(apiMemory?.peakMiB ?? NaN, 0)}); worker cache ${loadWorkerConfig(process.env).tuning.maxCachedWorkflows} workflows`,
          },
          ...stepFigures,
          ...floors.map(({ loop, how }) => ({
            measurement: 'deposit wallets',
            what: `Temporal's floor: update-with-start answered after ${how} (CreateWallet, addresses), ${loop.ok} of ${users} users`,
            value: loop.throughput,
            unit: '/s',
            baseline: { what: 'raw signalWithStart, same server', value: raw.throughput },
            note:
              `a workflow doing only what every deposit wallet needs, on the same server and concurrency, its worker in ` +
              `the bench's process: no journal, no search attributes, no outcome event, no ledger; p50 ${fixed(loop.latency.p50, 0)} ms, ` +
              `errors ${loop.errors}${loop.firstError ? ` (${loop.firstError})` : ''}; dev server ${fixed(loop.devServerCores ?? NaN, 2)} cores`,
          })),
          {
            measurement: 'deposit wallets',
            what: `the same POST again after a worker restart (evicted, replays), ${sample} users: p99`,
            value: evicted.p99,
            unit: 'ms',
            baseline: { what: 'the same users cached', value: cached.p99 },
            target: '<= 4x',
            met: evicted.p99 <= 4 * cached.p99,
            note: `one call at a time; p50 evicted ${fixed(evicted.p50)} ms, cached ${fixed(cached.p50)} ms`,
          },
          {
            measurement: 'deposit wallets',
            what: 'GET /v1/end-users/{id} for every user, wallet shown',
            value: readBack.ok,
            unit: 'users',
            baseline: { what: 'users created', value: created },
            target: '1.00x',
            met: readBack.ok === created,
          },
        ],
        legs: {
          checkout,
          /** The measured loop, and until the last outcome event arrived (epoch ms): for a profile of the processes. */
          window: { fromMs, loopEndMs, toMs },
          raw,
          wallets,
          floors,
          cached,
          evicted,
          readBack,
          workerMemory,
          apiMemory,
          cpuPerWallet,
          steps,
          outcomeMs,
          actions,
        },
      };
    } finally {
      for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
    }
  },
};

const listed = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([name, value]) => `${name} ${fixed(value)}`)
    .join(', ');

/**
 * Billable actions in the loop's span of time per wallet created, from the history of every run on the task queue
 * (end users, and whatever else a version starts for a wallet: event records, idempotency keys), by type and kind.
 */
async function actionsPerWallet(
  context: BenchContext,
  taskQueue: string,
  window: TimeWindow,
  wallets: number,
): Promise<{ perWallet: number; byWorkflowType: Record<string, number>; byKind: ActionCounts }> {
  const client = context.subject.temporal.client;
  const byType: Record<string, number> = {};
  let byKind: ActionCounts = {};
  for await (const execution of client.workflow.list({
    query: `TaskQueue = '${taskQueue}'`,
    pageSize: 1000,
  })) {
    const history = await client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
    const counted = countRun(history.events ?? [], window);
    byKind = addCounts(byKind, counted.actions);
    byType[execution.type] = (byType[execution.type] ?? 0) + totalActions(counted.actions);
  }
  const per = (value: number) => (wallets > 0 ? value / wallets : 0);
  return {
    perWallet: per(totalActions(byKind)),
    byWorkflowType: Object.fromEntries(
      Object.entries(byType)
        .filter(([, n]) => n > 0)
        .map(([type, n]) => [type, per(n)]),
    ),
    byKind: Object.fromEntries(Object.entries(byKind).map(([kind, n]) => [kind, per(n)])),
  };
}

/**
 * Temporal's floor for a deposit wallet, same server, users, concurrency and worker tuning: what any process that
 * creates a wallet through an activity and answers an update can do here, with a scheduled activity and with a local
 * one. A floor that fails costs its leg the floor rows (logged), never the product's figures.
 */
async function walletFloors(
  context: BenchContext,
  settings: BenchSettings,
  options: { tuning: WorkerTuning; operator: OperatorClient; users: number },
  log: (line: string) => void,
) {
  const floorLoop = async (floor: FloorWorker, local: boolean) => {
    const serverBefore = await cpuSeconds(context.subject.server.pid);
    const loop = await closedLoop({
      count: options.users,
      concurrency: settings.concurrency,
      timeLimitMs: settings.legTimeLimitMs,
      send: async (index) =>
        (await floor.wallet(`bwf-${RUN_TAG}-${local ? 'local' : 'scheduled'}-${index}`, local)).addresses > 0,
    });
    const serverAfter = await cpuSeconds(context.subject.server.pid);
    return {
      ...loop,
      devServerCores:
        serverBefore === undefined || serverAfter === undefined
          ? undefined
          : (serverAfter - serverBefore) / loop.seconds,
    };
  };
  try {
    const floor = await startFloorWorker({
      address: context.subject.server.address,
      client: context.subject.temporal.client,
      tuning: options.tuning,
      operator: options.operator,
      label: 'wallets',
    });
    try {
      await floor.wallet(`bwf-${RUN_TAG}-warm`, false);
      return [
        { loop: await floorLoop(floor, false), how: 'one activity' },
        { loop: await floorLoop(floor, true), how: 'one local activity' },
      ];
    } finally {
      await floor.close();
    }
  } catch (error) {
    log(`[deposit-wallets] floor not measured: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}
