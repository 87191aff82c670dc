/**
 * Scale: one reconciliation run over `scaleRamps` (5,000) open ramps and `scaleWallets` (5,000) end users' deposit
 * wallets, the sandbox answering every call 200 ms late (its API faults), the worker a process of its own started as
 * `npm run worker` starts it, SIGKILLed mid-run and started again.
 *
 * Seeded first (not measured): the wallets at the sandbox through its CreateWallet route and as end users in the leg's
 * ledger, most recently active spread over a month; the open ramps in the ledger as their record activity writes them
 * (view and held resources by src/ledger/ramp-views.ts) and their operator records in the sandbox, in step with each
 * other, as a business's open ramps mostly are: on-ramps announced and never funded (no operator resource yet), on-ramps
 * whose order awaits its funds, off-ramps whose deposit awaits confirmation, off-ramps whose sweep is on its way, each
 * deposit in one of the seeded wallets. No process runs them: a ramp in step with the operator is checked without
 * asking its process, which is what this measures at volume.
 *
 * Figures: the run's duration against RECONCILE_INTERVAL (the run must end within it, the worker's restart included);
 * the operator calls the sandbox counted during the run against the run's budget; the ramps and wallets checked against
 * those seeded; and the items read again after the kill against one page (a run that started over would read them all
 * again), with the page activities scheduled once each and the killed page's retry in the notes.
 */
import type { Client } from '@temporalio/client';
import { loadOperationsConfig } from '../src/config/operations';
import { loadWorkflowTimings } from '../src/config/timings';
import { workerVersion } from '../src/config/worker-version';
import {
  depositWalletLabel,
  endUserWorkflowId,
  offRampWorkflowId,
  onRampWorkflowId,
} from '../src/domain/ids';
import { NETWORKS, TRANSACTION_KINDS } from '../src/domain/vocabulary';
import type { Ledger } from '../src/database/connection';
import { heldResources, type RampState, rampView } from '../src/ledger/ramp-views';
import { readRun } from '../src/ledger/reconcile-runs';
import type { OperatorClient } from '../src/operator/client';
import { createOrder, createTransaction } from '../src/sandbox/flows/records';
import type { RunningSandbox } from '../src/sandbox/server';
import { makeCurrent } from '../src/temporal/worker-deployment';
import { toOrderSnapshot, toTransactionSnapshot } from '../activities/shared/snapshots';
import { PAGE_SIZE } from '../activities/operations/reconcile/pages';
import { newOutbox } from '../workflows/outcomes/outbox';
import type { reconcileWorkflow } from '../workflows/operations/reconcile/workflow';
import type { ReconcileResult } from '../workflows/operations/reconcile/types';
import { BENCH_NAMESPACE, startBenchOperator } from './lib/context';
import { RUN_TAG, type Measurement } from './lib/measurement';
import { type ProductProcess, startProductProcess } from './lib/product-process';
import type { Figure } from './lib/report';

/** Every operator call this late: the slow operator. */
const OPERATOR_LATENCY_MS = 200;
/**
 * The worker is killed once the run has checked this share of what it has to check, that long after the page then
 * under way started: some of the page's reads done, others in flight.
 */
const KILL_AT_SHARE = 0.4;
const KILL_INTO_PAGE_MS = 500;
/** Bundling the workflows and connecting, on a busy 2-core machine. */
const PROCESS_START_TIMEOUT_MS = 180_000;
/** The leg's longest wait for the run, restart included: far above what it takes, far below an interval. */
const RUN_TIME_LIMIT_MS = 25 * 60_000;
const ROWS_PER_INSERT = 1_000;
const SEED_CONCURRENCY = 20;
const DAY_MS = 86_400_000;

/** The kinds of open ramps seeded, by index, and the operator calls a check of each makes. */
type OpenKind = 'on-ramp-unfunded' | 'on-ramp-awaiting-funds' | 'off-ramp-unconfirmed' | 'off-ramp-sweeping';
const kindOf = (index: number): OpenKind => {
  const slot = index % 20;
  return slot < 12
    ? 'on-ramp-unfunded'
    : slot < 15
      ? 'on-ramp-awaiting-funds'
      : slot < 18
        ? 'off-ramp-unconfirmed'
        : 'off-ramp-sweeping';
};
const CALLS_OF: Record<OpenKind, number> = {
  'on-ramp-unfunded': 0,
  'on-ramp-awaiting-funds': 1,
  'off-ramp-unconfirmed': 1,
  'off-ramp-sweeping': 2,
};

async function inBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let first = 0; first < rows.length; first += ROWS_PER_INSERT)
    await insert(rows.slice(first, first + ROWS_PER_INSERT));
}

async function mapLimit<T>(count: number, limit: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await work(index);
      }
    }),
  );
  return results;
}

/** The wallets, at the sandbox through CreateWallet and as end users in the ledger; answers their wallet IDs. */
async function seedWallets(operator: OperatorClient, db: Ledger, count: number): Promise<string[]> {
  const now = Date.now();
  const endUserId = (index: number) => `scale-${RUN_TAG}-user-${index}`;
  const walletIds = await mapLimit(count, SEED_CONCURRENCY, async (index) => {
    const wallet = await operator.createWallet({
      networks: [NETWORKS.ethereum, NETWORKS.tron],
      externalUserId: depositWalletLabel(endUserId(index)),
    });
    return wallet.id;
  });
  const rows = walletIds.map((walletId, index) => {
    const createdAt = new Date(now - 30 * DAY_MS + index * 1000).toISOString();
    return {
      end_user_id: endUserId(index),
      workflow_id: endUserWorkflowId(endUserId(index)),
      wallet_id: walletId,
      created_at: createdAt,
      updated_at: createdAt,
      // Activity spread over the month: a few active today, most quiet.
      active_at: new Date(now - ((index * 7919) % 30) * DAY_MS - (index % 3_600) * 1000).toISOString(),
    };
  });
  await inBatches(rows, (batch) => db.insertInto('end_users').values(batch).execute());
  return walletIds;
}

/**
 * The open ramps: their operator records in the sandbox and their rows in the ledger, in step. Answers the calls a
 * check of every one of them makes, and the sweeps (read as part of their off-ramp's check).
 */
async function seedOpenRamps(
  sandbox: RunningSandbox,
  db: Ledger,
  count: number,
  walletIds: readonly string[],
): Promise<{ calls: number; sweeps: Set<string> }> {
  const now = Date.now();
  const rows = [];
  const sweeps = new Set<string>();
  let calls = 0;
  for (let index = 0; index < count; index += 1) {
    const kind = kindOf(index);
    calls += CALLS_OF[kind];
    // Oldest first: the first open for a week (abandoned on-ramps wait that long), the last a minute.
    const startedAt = new Date(
      now - 7 * DAY_MS + Math.floor((index * (7 * DAY_MS - 60_000)) / count),
    ).toISOString();
    const common = { eventsApplied: 1, duplicates: 0, polls: 0, startedAt, outcomes: newOutbox() };
    let ramp: RampState;
    if (kind === 'on-ramp-unfunded' || kind === 'on-ramp-awaiting-funds') {
      const reference = `scale-${RUN_TAG}-on-${index}`;
      const order =
        kind === 'on-ramp-awaiting-funds'
          ? createOrder(
              sandbox.ctx,
              {
                orderReference: reference,
                status: 'awaiting_funds',
                direction: 'on-ramp',
                coinFrom: 'MXN',
                coinTo: 'USDT',
                chainTo: 'TRX',
                amountFrom: '1000',
                amountTo: '57.68',
                transactionId: null,
                quoteId: null,
              },
              true,
            )
          : undefined;
      ramp = {
        direction: 'on-ramp',
        workflowId: onRampWorkflowId(reference),
        state: {
          ...common,
          orderReference: reference,
          status: order ? 'awaiting-execution' : 'awaiting-order',
          step: order ? 'Waiting for the funds' : 'Waiting for the order',
          endUserId: `scale-${RUN_TAG}-user-${index % walletIds.length}`,
          unattributed: false,
          ...(order ? { order: toOrderSnapshot({ ...order }) } : {}),
        },
      };
    } else {
      const walletId = walletIds[index % walletIds.length]!;
      const sweeping = kind === 'off-ramp-sweeping';
      const transfer = (fields: { type: string; subtype: string; status: 'published' | 'confirmed' }) =>
        createTransaction(
          sandbox.ctx,
          {
            ...fields,
            walletId,
            network: NETWORKS.tron,
            asset: 'USDT',
            amount: '120.5',
            fromAddress: null,
            toAddress: null,
            relatedTransactionId: null,
            orderId: null,
          },
          true,
        );
      const deposit = transfer({
        ...TRANSACTION_KINDS.deposit,
        status: sweeping ? 'confirmed' : 'published',
      });
      const sweep = sweeping ? transfer({ ...TRANSACTION_KINDS.sweep, status: 'published' }) : undefined;
      if (sweep) {
        deposit.relatedTransactionId = sweep.id;
        sweeps.add(sweep.id);
      }
      ramp = {
        direction: 'off-ramp',
        workflowId: offRampWorkflowId(deposit.id),
        state: {
          ...common,
          depositTransactionId: deposit.id,
          status: sweeping ? 'awaiting-sweep-confirmation' : 'awaiting-deposit-confirmation',
          step: sweeping ? 'Waiting for the sweep to confirm' : 'Waiting for the deposit to confirm',
          endUserId: `scale-${RUN_TAG}-user-${index % walletIds.length}`,
          unattributed: false,
          alertsRaised: 0,
          deposit: toTransactionSnapshot({ ...deposit }),
          ...(sweep ? { sweep: toTransactionSnapshot({ ...sweep }) } : {}),
        },
      };
    }
    rows.push({
      workflow_id: ramp.workflowId,
      direction: ramp.direction,
      end_user_id: ramp.state.endUserId,
      status: ramp.state.status,
      revision: 1,
      view: JSON.stringify(rampView(ramp, startedAt)),
      resources: JSON.stringify(heldResources(ramp)),
      started_at: startedAt,
      updated_at: startedAt,
      ended_at: null,
    });
  }
  await inBatches(rows, (batch) => db.insertInto('ramps').values(batch).execute());
  return { calls, sweeps };
}

/**
 * How many times each item was read: a ramp by its first read (its order, or its deposit), a wallet by its
 * transactions (the wallet ID before /transactions in the path).
 */
function itemReads(
  sandbox: RunningSandbox,
  from: number,
  to: number,
  sweeps: ReadonlySet<string>,
): Map<string, number> {
  const reads = new Map<string, number>();
  for (const call of sandbox.calls().slice(from, to)) {
    if (
      call.route !== 'getTransaction' &&
      call.route !== 'getOrder' &&
      call.route !== 'listWalletTransactions'
    )
      continue;
    const segments = call.path.split('?')[0]!.split('/');
    const id = (call.route === 'listWalletTransactions' ? segments.at(-2) : segments.at(-1)) ?? '';
    if (sweeps.has(id)) continue;
    const key = `${call.route}/${id}`;
    reads.set(key, (reads.get(key) ?? 0) + 1);
  }
  return reads;
}

/** Every run of the chain: its page activities scheduled, and each activity attempt that was a retry. */
async function chainActivities(
  temporal: Client,
  workflowId: string,
): Promise<{ pagesScheduled: number; pageIdsScheduledTwice: number; retries: string[] }> {
  let pagesScheduled = 0;
  const seen = new Set<string>();
  let twice = 0;
  const retries: string[] = [];
  for await (const execution of temporal.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    const history = await temporal.workflow.getHandle(workflowId, execution.runId).fetchHistory();
    const names = new Map<string, string>();
    for (const event of history.events ?? []) {
      const scheduled = event.activityTaskScheduledEventAttributes;
      if (scheduled) {
        const name = scheduled.activityType?.name ?? '';
        names.set(String(event.eventId), name);
        if (!/Page$|UnrecordedRamps$/.test(name)) continue;
        pagesScheduled += 1;
        const key = `${execution.runId}/${scheduled.activityId ?? ''}`;
        if (seen.has(key)) twice += 1;
        seen.add(key);
      }
      const started = event.activityTaskStartedEventAttributes;
      if (started && (started.attempt ?? 1) > 1)
        retries.push(`${names.get(String(started.scheduledEventId)) ?? '?'} attempt ${started.attempt}`);
    }
  }
  return { pagesScheduled, pageIdsScheduledTwice: twice, retries };
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

export const scaleLeg: Measurement = {
  name: 'scale',
  description:
    'one reconciliation of many open ramps and wallets against an operator 200 ms late, its worker SIGKILLed mid-run',
  async run(context, settings, _shared, log) {
    const { scaleRamps, scaleWallets } = settings;
    const intervalMs = loadOperationsConfig({}).schedules.reconcileIntervalMs;
    const taskQueue = `bench-scale-${RUN_TAG}`;
    const client = context.subject.temporal.client;
    const { sandbox, operator, email, passcode } = await startBenchOperator({
      timeScale: 1,
      deliveryConcurrency: 1,
    });
    const database = await context.freshDatabase('scale');
    let worker: ProductProcess | undefined;
    const startWorker = () =>
      startProductProcess({
        entry: 'src/entry/worker.ts',
        portVariable: 'WORKER_HEALTH_PORT',
        timeoutMs: PROCESS_START_TIMEOUT_MS,
        env: {
          TEMPORAL_ADDRESS: context.subject.server.address,
          TEMPORAL_NAMESPACE: BENCH_NAMESPACE,
          TEMPORAL_TASK_QUEUE: taskQueue,
          DATABASE_URL: database.url,
          OPERATOR_BASE_URL: sandbox.url,
          OPERATOR_EMAIL: email,
          OPERATOR_PASSCODE: passcode,
          // The schedules' own runs stay out of the leg: only the run it starts is measured.
          GAS_MONITOR_INTERVAL: '24h',
          RECONCILE_INTERVAL: '24h',
        },
      });
    try {
      // ---- seed (not measured)
      const seedStarted = Date.now();
      const walletIds = await seedWallets(operator, database.db, scaleWallets);
      const ramps = await seedOpenRamps(sandbox, database.db, scaleRamps, walletIds);
      const expectedCalls = ramps.calls + 2 * scaleWallets;
      const seedMs = Date.now() - seedStarted;
      log(
        `[scale] seeded ${scaleRamps} open ramps and ${scaleWallets} wallets in ${seconds(seedMs)} s; a check of each is ${expectedCalls} operator calls`,
      );
      worker = await startWorker();
      await makeCurrent(client, workerVersion(taskQueue), { workersWaitMs: PROCESS_START_TIMEOUT_MS });
      sandbox.setFaults({ api: { slowMs: OPERATOR_LATENCY_MS } });

      // ---- the run, its worker killed mid-way and started again
      const reconcileId = `ops/reconcile-bench-${RUN_TAG}`;
      const callsBefore = sandbox.calls().length;
      const started = Date.now();
      const handle = await client.workflow.start<typeof reconcileWorkflow>('reconcileWorkflow', {
        workflowId: reconcileId,
        taskQueue,
        args: [{ timings: loadWorkflowTimings({}), intervalMs }],
        workflowExecutionTimeout: intervalMs,
      });
      const killAt = Math.ceil(KILL_AT_SHARE * (scaleRamps + scaleWallets));
      let checkedAtKill = 0;
      for (;;) {
        if (Date.now() - started > RUN_TIME_LIMIT_MS) throw new Error('the run never got to the kill point');
        const progress = (await readRun(database.db, reconcileId))?.progress;
        checkedAtKill = (progress?.checked.ramps ?? 0) + (progress?.checked.wallets ?? 0);
        if (checkedAtKill >= killAt || progress?.pass === 'done') break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      await new Promise((resolve) => setTimeout(resolve, KILL_INTO_PAGE_MS));
      const killedAt = Date.now();
      process.kill(worker.pid!, 'SIGKILL');
      await worker.stop();
      log(
        `[scale] SIGKILL worker ${worker.pid} after ${seconds(killedAt - started)} s, ${checkedAtKill} checked`,
      );
      worker = await startWorker();
      const downMs = Date.now() - killedAt;
      log(`[scale] worker ${worker.pid} back after ${seconds(downMs)} s`);
      const result: ReconcileResult = await Promise.race([
        handle.result(),
        new Promise<never>((_resolve, reject) =>
          setTimeout(
            () => reject(new Error(`the run did not end within ${RUN_TIME_LIMIT_MS / 60_000} min`)),
            RUN_TIME_LIMIT_MS - (Date.now() - started),
          ).unref(),
        ),
      ]);
      const durationMs = Date.parse(result.finishedAt) - Date.parse(result.startedAt);
      const callsAfter = sandbox.calls().length;
      const sandboxCalls = callsAfter - callsBefore;
      const reads = itemReads(sandbox, callsBefore, callsAfter, ramps.sweeps);
      const readAgain = [...reads.values()].filter((count) => count > 1).length;
      const chain = await chainActivities(client, reconcileId);
      const budget = result.budget ?? 0;
      const findings = Object.values(result.found).reduce((sum, count) => sum + count, 0);
      log(
        `[scale] ${result.processesChecked} ramps, ${result.walletsChecked} wallets in ${seconds(durationMs)} s; ` +
          `${sandboxCalls} operator calls (the run counted ${result.operatorCalls ?? 0}) of ${budget}; ` +
          `${readAgain} items read again; retries: ${chain.retries.join(', ') || 'none'}`,
      );

      const seededWhat = `${scaleRamps} open ramps, ${scaleWallets} wallets, operator ${OPERATOR_LATENCY_MS} ms late`;
      const figures: Figure[] = [
        {
          measurement: 'scale',
          what: `reconcile run, ${seededWhat}, worker SIGKILLed: duration`,
          value: Math.round(durationMs / 1000),
          unit: 's',
          baseline: { what: 'RECONCILE_INTERVAL', value: intervalMs / 1000 },
          target: '< 1x',
          met: durationMs < intervalMs,
          note: `${result.pages ?? 0} pages in ${result.runs ?? 0} runs; the worker was down ${seconds(downMs)} s from ${checkedAtKill} checked; ${findings} findings`,
        },
        {
          measurement: 'scale',
          what: 'operator calls during the run (the sandbox counted)',
          value: sandboxCalls,
          unit: 'calls',
          baseline: { what: "the run's budget", value: budget },
          target: '<= 1x',
          met: sandboxCalls <= budget,
          note: `the run counted ${result.operatorCalls ?? 0}; one check of every item is ${expectedCalls}`,
        },
        {
          measurement: 'scale',
          what: 'open ramps checked',
          value: result.processesChecked,
          unit: 'ramps',
          baseline: { what: 'open ramps seeded', value: scaleRamps },
          target: '1x',
          met: result.processesChecked === scaleRamps,
        },
        {
          measurement: 'scale',
          what: 'wallets checked',
          value: result.walletsChecked,
          unit: 'wallets',
          baseline: { what: 'wallets seeded', value: scaleWallets },
          target: '1x',
          met: result.walletsChecked === scaleWallets,
        },
        {
          measurement: 'scale',
          what: 'items read again after the kill',
          value: readAgain,
          unit: 'items',
          baseline: { what: 'one page', value: PAGE_SIZE },
          target: '<= 1x (resumed)',
          met: readAgain <= PAGE_SIZE && chain.pageIdsScheduledTwice === 0,
          note:
            `${chain.pagesScheduled} page activities, none scheduled twice: ${chain.pageIdsScheduledTwice === 0}; ` +
            `retried: ${chain.retries.join(', ') || 'none'}; a read in flight when the worker died is not in the ` +
            "sandbox's log (its answer reached no one)",
        },
      ];
      return {
        figures,
        legs: {
          seeded: { ramps: scaleRamps, wallets: scaleWallets, expectedCalls, seedMs },
          operatorLatencyMs: OPERATOR_LATENCY_MS,
          killedAtChecked: checkedAtKill,
          downMs,
          durationMs,
          sandboxCalls,
          readAgain,
          chain,
          result,
        },
      };
    } finally {
      await worker?.stop();
      await sandbox.close();
      await database.close();
    }
  },
};
