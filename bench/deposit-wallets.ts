/**
 * Deposit wallets: `ensureDepositWallet` for distinct end users (each an end-user workflow that creates its wallet at
 * the operator and answers the update), closed loop, against a raw signalWithStart loop of the same concurrency on
 * the same npm-start server in the same run. The operator is the sandbox, answering at once; one worker runs in this
 * process with the cache and slots of the configuration (WORKER_*), on a task queue of its own, its cache held to
 * `walletCache` workflows (default: half the users) so that the first users are evicted by the last.
 * Then, one call at a time, ensureDepositWallet again (answered from the user's record) for a sample of the last users
 * (cached) and of the first (evicted: the worker replays their history first), and getEndUser for every user.
 * Last, Temporal's floor for a deposit wallet on the same server (bench/floor): as many update-with-starts of a
 * workflow that only creates the wallet in one activity (CreateWallet and its addresses at the same sandbox) and
 * answers, once with a scheduled activity and once with a local one, same concurrency and worker tuning.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import pino from 'pino';
import { createActivities } from '../activities';
import { RampClient } from '../src/client/ramp-client';
import { loadOperationsConfig } from '../src/config/operations';
import { loadOperatorConfig } from '../src/config/operator';
import { loadReceiverConfig } from '../src/config/receiver';
import { loadWorkerConfig, type WorkerTuning } from '../src/config/worker';
import { DEFAULT_PROCESS_IDS, endUserWorkflowId } from '../src/domain/ids';
import { OperatorClient } from '../src/operator/client';
import { startSandbox } from '../src/sandbox/server';
import { connectRampWorker } from '../src/temporal/wiring';
import { BENCH_NAMESPACE, type BenchContext, signalLikeReceiver } from './lib/context';
import { closedLoop } from './lib/load';
import { summarize } from './lib/stats';
import { cpuSeconds } from './lib/machine';
import { type BenchSettings, type Measurement, resourceIdOf, RUN_TAG } from './lib/measurement';
import { persistencePerUnit } from './lib/server-metrics';
import { type HistoryEvents, taskWaits } from './lib/task-waits';
import { type FloorWorker, startFloorWorker } from './floor/worker';

const EMAIL = 'bench@example.com';
const PASSCODE = 'bench-passcode-5c1e9a';

export const depositWallets: Measurement = {
  name: 'deposit-wallets',
  description: 'ensureDepositWallet for distinct users vs raw signalWithStart, same server',
  async run(context, settings, _shared, log) {
    const users = settings.walletUsers;
    const sandbox = await startSandbox({
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      timeScale: 0.001,
      email: EMAIL,
      passcode: PASSCODE,
      faults: {},
    });
    const logger = pino({ level: 'silent' });
    const operator = new OperatorClient({
      config: loadOperatorConfig({
        OPERATOR_BASE_URL: sandbox.url,
        OPERATOR_EMAIL: EMAIL,
        OPERATOR_PASSCODE: PASSCODE,
      }),
      logger,
    });
    const operations = loadOperationsConfig({});
    const receiver = loadReceiverConfig({});
    const taskQueue = `bench-wallets-${RUN_TAG}`;
    const configured = loadWorkerConfig(process.env).tuning;
    const cache = Math.max(2, settings.walletCache ?? Math.floor(users / 2));
    const tuning = {
      ...configured,
      maxCachedWorkflows: cache,
      maxConcurrentWorkflowTaskExecutions: Math.min(configured.maxConcurrentWorkflowTaskExecutions, cache),
    };
    const worker = await connectRampWorker({
      temporal: { namespace: BENCH_NAMESPACE, taskQueue, connection: {} },
      address: context.subject.server.address,
      dataConverter: undefined,
      tuning,
      activities: createActivities({
        operator,
        temporal: context.subject.temporal.client,
        logger,
        config: {
          receiver: () => receiver,
          gas: operations.gas,
          alerts: operations.alerts,
          processIds: { ...DEFAULT_PROCESS_IDS },
          encryption: { keys: [] },
        },
      }),
    });
    const running = worker.run();
    try {
      const ramp = new RampClient({
        connection: context.subject.temporal.connection,
        namespace: BENCH_NAMESPACE,
        taskQueue,
        timings: context.timings,
        processIds: { ...DEFAULT_PROCESS_IDS },
      });
      // The first wallet pays for the worker's start (bundle, sessions): not measured.
      await ramp.ensureDepositWallet(`bw-${RUN_TAG}-warm`);
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
      const cpuBefore = await cpuSeconds(context.subject.server.pid);
      const processBefore = process.cpuUsage();
      const persistenceBefore = await context.subjectPersistence?.();
      const wallets = await closedLoop({
        count: users,
        concurrency: settings.concurrency,
        timeLimitMs: settings.legTimeLimitMs,
        send: async (index) =>
          (await ramp.ensureDepositWallet(`bw-${RUN_TAG}-${index}`)).addresses.length > 0,
      });
      const processUsed = process.cpuUsage(processBefore);
      const persistence = persistencePerUnit(
        persistenceBefore,
        await context.subjectPersistence?.(),
        wallets.ok,
        'wallet',
      );
      const cpuAfter = await cpuSeconds(context.subject.server.pid);
      const devServerCores =
        cpuBefore === undefined || cpuAfter === undefined
          ? undefined
          : (cpuAfter - cpuBefore) / wallets.seconds;
      const benchProcessCores = (processUsed.user + processUsed.system) / 1e6 / wallets.seconds;
      // Read after the measured loop: a user whose first task waited long shows here, not only in the p99. A loop
      // stopped by its time limit never started its last users: they have no history.
      const histories: HistoryEvents[] = [];
      for (let first = 0; first < users; first += settings.concurrency) {
        const batch = Array.from({ length: Math.min(settings.concurrency, users - first) }, (_, offset) =>
          context.subject.temporal.client.workflow
            .getHandle(endUserWorkflowId(`bw-${RUN_TAG}-${first + offset}`))
            .fetchHistory()
            .then((history) => [history.events ?? []])
            .catch((error: unknown) => {
              if (error instanceof WorkflowNotFoundError) return [];
              throw error;
            }),
        );
        histories.push(...(await Promise.all(batch)).flat());
      }
      const waits = taskWaits(histories);
      const firstPickup = summarize(waits.firstPickupMs);
      const laterPickup = summarize(waits.laterPickupMs);
      // One call at a time, so that each latency is the call's own, not a queue's.
      const created = wallets.ok;
      const sample = Math.max(1, Math.min(settings.walletSample, Math.floor(cache / 2), created - cache));
      const timeCalls = async (indexes: number[]) => {
        const latencies: number[] = [];
        for (const index of indexes) {
          const startedAt = performance.now();
          await ramp.ensureDepositWallet(`bw-${RUN_TAG}-${index}`);
          latencies.push(performance.now() - startedAt);
        }
        return summarize(latencies);
      };
      const cached = await timeCalls(Array.from({ length: sample }, (_, index) => created - 1 - index));
      const evicted = await timeCalls(Array.from({ length: sample }, (_, index) => index));
      const readBack = await closedLoop({
        count: created,
        concurrency: settings.concurrency,
        timeLimitMs: settings.legTimeLimitMs,
        send: async (index) => (await ramp.getEndUser(`bw-${RUN_TAG}-${index}`)).wallet !== undefined,
      });
      const rssMiB = process.memoryUsage().rss / 2 ** 20;
      // Last, so that it changes nothing the product's figures saw; the product's worker idles.
      const floors = await walletFloors(context, settings, { tuning, operator, users }, log);
      log(
        `[deposit-wallets] ${wallets.throughput.toFixed(1)} users/s (raw ${raw.throughput.toFixed(1)}/s), ` +
          `p50 ${wallets.latency.p50.toFixed(0)} ms, errors ${wallets.errors}${wallets.firstError ? ` (${wallets.firstError})` : ''}`,
      );
      return {
        figures: [
          {
            measurement: 'deposit wallets',
            what: `ensureDepositWallet, ${wallets.ok} of ${users} users${wallets.timedOut ? ' (time limit)' : ''}, npm-start server`,
            value: wallets.throughput,
            unit: '/s',
            baseline: { what: 'raw signalWithStart, same server', value: raw.throughput },
            target: '>= 0.25x',
            met: wallets.throughput >= 0.25 * raw.throughput && wallets.errors === 0,
            note:
              `p50 ${wallets.latency.p50.toFixed(0)} ms, p99 ${wallets.latency.p99.toFixed(0)} ms, errors ${wallets.errors}; ` +
              `dev server ${devServerCores?.toFixed(2) ?? '?'} cores, this process (worker, client, sandbox) ${benchProcessCores.toFixed(2)} cores; ` +
              `of ${histories.length} users, a user's first workflow task waited p50 ${firstPickup.p50.toFixed(0)} ms, at most ${firstPickup.max.toFixed(0)} ms to be picked up, ` +
              `a later one p50 ${laterPickup.p50.toFixed(0)} ms, at most ${laterPickup.max.toFixed(0)} ms` +
              persistence,
          },
          ...floors.map(({ loop, how }) => ({
            measurement: 'deposit wallets',
            what: `Temporal's floor: update-with-start answered after ${how} (CreateWallet, addresses), ${loop.ok} of ${users} users`,
            value: loop.throughput,
            unit: '/s',
            baseline: { what: 'raw signalWithStart, same server', value: raw.throughput },
            note:
              `a workflow doing only what every deposit wallet needs, on the same server, concurrency and worker tuning: ` +
              `no journal, no search attributes, no outcome event; p50 ${loop.latency.p50.toFixed(0)} ms, errors ${loop.errors}` +
              `${loop.firstError ? ` (${loop.firstError})` : ''}; dev server ${loop.devServerCores?.toFixed(2) ?? '?'} cores, ` +
              `this process (worker, client, sandbox) ${loop.benchProcessCores.toFixed(2)} cores`,
          })),
          {
            measurement: 'deposit wallets',
            what: `ensureDepositWallet again, evicted user (cache ${cache} of ${created}): p99`,
            value: evicted.p99,
            unit: 'ms',
            baseline: { what: 'cached user', value: cached.p99 },
            target: '<= 4x',
            met: evicted.p99 <= 4 * cached.p99,
            note: `${sample} calls each, one at a time; p50 evicted ${evicted.p50.toFixed(1)} ms, cached ${cached.p50.toFixed(1)} ms`,
          },
          {
            measurement: 'deposit wallets',
            what: 'getEndUser for every user, answered',
            value: readBack.ok,
            unit: 'users',
            baseline: { what: 'users created', value: created },
            target: '1.00x',
            met: readBack.ok === created,
            note: `process RSS after (worker, client, sandbox, receiver) ${rssMiB.toFixed(0)} MiB`,
          },
        ],
        legs: {
          raw,
          floors,
          wallets,
          cached,
          evicted,
          readBack,
          cache,
          devServerCores,
          benchProcessCores,
          rssMiB,
          firstPickup,
          laterPickup,
        },
      };
    } finally {
      await worker.stop();
      await running.catch(() => undefined);
      await sandbox.close();
    }
  },
};

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
    const processStart = process.cpuUsage();
    const loop = await closedLoop({
      count: options.users,
      concurrency: settings.concurrency,
      timeLimitMs: settings.legTimeLimitMs,
      send: async (index) =>
        (await floor.wallet(`bwf-${RUN_TAG}-${local ? 'local' : 'scheduled'}-${index}`, local)).addresses > 0,
    });
    const serverAfter = await cpuSeconds(context.subject.server.pid);
    const used = process.cpuUsage(processStart);
    return {
      ...loop,
      devServerCores:
        serverBefore === undefined || serverAfter === undefined
          ? undefined
          : (serverAfter - serverBefore) / loop.seconds,
      benchProcessCores: (used.user + used.system) / 1e6 / loop.seconds,
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
