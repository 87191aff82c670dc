/**
 * Reconciliation on the real dev server, the sandbox over HTTP and the ledger: a deposit whose every delivery was
 * lost found and settled; a run walked in pages over several continue-as-new runs; a run stopped by its budget of
 * operator calls; a worker SIGKILLed mid-run, the run going on from its page instead of starting over.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pino from 'pino';
import { createActivities } from '../../../../activities';
import { toTransactionSnapshot } from '../../../../activities/shared/snapshots';
import type { Ledger } from '../../../../src/database/connection';
import { offRampWorkflowId } from '../../../../src/domain/ids';
import { writeRamp } from '../../../../src/ledger/ramps';
import { readRun, runFindings } from '../../../../src/ledger/reconcile-runs';
import { createTransaction } from '../../../../src/sandbox/flows/records';
import type { RunningSandbox } from '../../../../src/sandbox/server';
import { newOutbox } from '../../../../workflows/outcomes/outbox';
import type { ReconcileInput } from '../../../../workflows/operations/reconcile/types';
import type { reconcileWorkflow } from '../../../../workflows/operations/reconcile/workflow';
import type { OffRampState } from '../../../../workflows/ramps/offramp/types';
import { testActivityConfig } from '../../../helpers/activities';
import { operatorEnv, operatorFor, startTestSandbox, testReceiver } from '../../../helpers/client-stack';
import { freshTestDatabase } from '../../../helpers/database';
import { recordHistory } from '../../../helpers/histories';
import { type KillableWorker, startWorkerProcess } from '../../../helpers/killable-worker';
import {
  depositCrypto,
  endUserWithWallet,
  offRampEnded,
  TRON,
  useRampStacks,
  waitFor,
} from '../../../helpers/ramp-stack';
import {
  connectTestClient,
  fastTimings,
  type RunningTestWorker,
  startTestWorker,
  testServer,
} from '../../../helpers/temporal';

const PROJECT_ROOT = path.resolve(__dirname, '../../../..');

/**
 * Open off-ramps the operator agrees with, oldest first: a published deposit at the sandbox and the same in the
 * ledger (no process runs them: a ramp in step with the operator is checked without asking its process).
 */
async function seedOpenOffRamps(sandbox: RunningSandbox, db: Ledger, count: number): Promise<string[]> {
  const ids: string[] = [];
  const firstMs = Date.now() - 3_600_000;
  for (let index = 0; index < count; index += 1) {
    const deposit = createTransaction(
      sandbox.ctx,
      {
        status: 'published',
        type: 'Deposit',
        subtype: 'external',
        walletId: 'seeded-wallet',
        network: TRON,
        asset: 'USDT',
        amount: '10',
        fromAddress: null,
        toAddress: 'TSeededDepositAddress000000000000',
        relatedTransactionId: null,
        orderId: null,
      },
      true,
    );
    const startedAt = new Date(firstMs + index * 1000).toISOString();
    const state: OffRampState = {
      depositTransactionId: deposit.id,
      status: 'awaiting-deposit-confirmation',
      step: 'Waiting for the deposit to confirm',
      endUserId: null,
      unattributed: true,
      deposit: toTransactionSnapshot({ ...deposit }),
      alertsRaised: 0,
      eventsApplied: 1,
      duplicates: 0,
      polls: 0,
      startedAt,
      outcomes: newOutbox(),
    };
    await writeRamp(db, {
      ramp: { direction: 'off-ramp', workflowId: offRampWorkflowId(deposit.id), state },
      revision: 1,
      raised: [],
      retryForMs: 0,
      at: startedAt,
    });
    ids.push(deposit.id);
  }
  return ids;
}

/** `npm run reconcile` with its flags, as a shell runs it, in this environment and `env`. */
function reconcileCommand(
  flags: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(PROJECT_ROOT, 'src/entry/reconcile.ts'), ...flags],
      {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env },
        timeout: 120_000,
      },
      (error, stdout, stderr) =>
        resolve({ status: error ? ((error.code as number | undefined) ?? null) : 0, stdout, stderr }),
    );
  });
}

/** The sandbox's Get Transaction calls for these IDs since `from` (its call log is in order). */
const transactionReads = (sandbox: RunningSandbox, ids: readonly string[], from: number) => {
  const wanted = new Set(ids);
  return sandbox
    .calls()
    .slice(from)
    .filter((call) => call.route === 'getTransaction')
    .map((call) => call.path.split('/').pop()!)
    .filter((id) => wanted.has(id));
};

describe('operations: reconciliation', () => {
  const stacks = useRampStacks();

  test('a deposit whose every delivery was dropped is found by reconciliation and settles', async () => {
    const stack = await stacks.start({ sandbox: { faults: { deliveries: { drop: 1 } } } });
    const s = stack;
    const user = await endUserWithWallet(s);
    const depositId = await depositCrypto(s, user.address);
    // No webhook ever arrives: the sandbox completes its own side; nothing runs on ours.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expect(s.ramp.getOffRamp(depositId)).rejects.toThrow(/No off-ramp/);

    const reconcileId = `ops/reconcile-test-${randomUUID()}`;
    const result = await stacks.client.workflow.execute<typeof reconcileWorkflow>('reconcileWorkflow', {
      workflowId: reconcileId,
      taskQueue: s.worker.taskQueue,
      args: [{ timings: s.timings }],
    });
    expect(result).toMatchObject({
      runId: reconcileId,
      transactionListing: true,
      walletsChecked: 1,
      found: { 'unknown-deposit': 1 },
    });
    // The findings are the database's, under the run's workflow ID.
    expect(await runFindings(s.database.db, reconcileId, 10)).toContainEqual(
      expect.objectContaining({
        kind: 'unknown-deposit',
        subject: `deposit ${depositId}`,
        workflowId: offRampWorkflowId(depositId),
        endUserId: user.endUserId,
      }),
    );

    const state = await offRampEnded(s, depositId);
    expect(state).toMatchObject({ status: 'settled', endUserId: user.endUserId, fiatAmount: '858.18' });
    expect(s.sandbox.deliveries().filter((attempt) => attempt.outcome === 'delivered')).toHaveLength(0);

    // A second pass, by `npm run reconcile`, finds nothing new: the off-ramp is known now, and the wallet (active
    // today) is checked again.
    const env = {
      TEMPORAL_ADDRESS: testServer().address,
      TEMPORAL_NAMESPACE: testServer().namespace,
      TEMPORAL_TASK_QUEUE: s.worker.taskQueue,
      DATABASE_URL: s.database.url,
    };
    const again = await reconcileCommand([], env);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/^Reconciliation ops\/reconcile-manual-\S+, \S+ \.\. \S+\n/);
    expect(again.stdout).toContain('  deposit wallets checked: 1\n');
    expect(again.stdout).toContain('No findings');
    // --last reads the newest run from the database and starts none; --json lists its findings.
    const last = await reconcileCommand(['--last', '--json'], { DATABASE_URL: s.database.url });
    expect(last.status).toBe(0);
    expect(JSON.parse(last.stdout)).toMatchObject({
      progress: { runId: expect.stringMatching(/^ops\/reconcile-manual-/), checked: { wallets: 1 } },
      findings: [],
    });
    await recordHistory(stacks.client, reconcileId, 'reconcile-pages');
  });

  test('a run walks its pages over several runs (continue-as-new); a run out of budget stops where it stood', async () => {
    const s = await stacks.start();
    const ids = await seedOpenOffRamps(s.sandbox, s.database.db, 7);
    const input: ReconcileInput = { timings: s.timings, paging: { pageSize: 2, pagesPerRun: 3 } };
    const reconcileId = `ops/reconcile-test-${randomUUID()}`;
    const callsBefore = s.sandbox.calls().length;
    const handle = await stacks.client.workflow.start<typeof reconcileWorkflow>('reconcileWorkflow', {
      workflowId: reconcileId,
      taskQueue: s.worker.taskQueue,
      args: [input],
    });
    const result = await handle.result();
    // Ramps in 4 pages (2, 2, 2, 1), then a page each for the wallets, the closed ramps and the booked rows.
    expect(result).toMatchObject({ processesChecked: 7, pages: 7, runs: 3, found: {} });
    expect(transactionReads(s.sandbox, ids, callsBefore).sort()).toEqual([...ids].sort());
    // Every call the run made, counted by the run as the sandbox counts them.
    expect(result.operatorCalls).toBe(s.sandbox.calls().length - callsBefore);
    const recorded = await readRun(s.database.db, reconcileId);
    expect(recorded?.finishedAt).not.toBeNull();
    expect(recorded?.progress).toMatchObject({ pass: 'done', pages: 7, checked: { ramps: 7 } });
    await recordHistory(stacks.client, reconcileId, 'reconcile-pages-continued-as-new', {
      runId: handle.firstExecutionRunId,
    });

    // A second of budget is ten calls (the run above is more than a second ago: it spent none of this one's); a ramp
    // starts only while they cover the seven one may take.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const budgeted = await stacks.client.workflow.execute<typeof reconcileWorkflow>('reconcileWorkflow', {
      workflowId: `${reconcileId}-budget`,
      taskQueue: s.worker.taskQueue,
      args: [{ timings: s.timings, intervalMs: 1_000 }],
    });
    expect(budgeted).toMatchObject({ budget: 10, stoppedInPass: 'ramps', walletsChecked: 0 });
    expect(budgeted.operatorCalls).toBeLessThanOrEqual(10);
    expect(budgeted.processesChecked).toBeGreaterThan(0);
    expect(budgeted.processesChecked).toBeLessThan(7);
  });
});

describe('operations: reconciliation with its worker killed mid-run (worker process)', () => {
  test('the run goes on from the page it was on: every ramp checked, at most a page read again', async () => {
    const sandbox = await startTestSandbox({ seed: Math.floor(Math.random() * 2 ** 31) });
    const database = await freshTestDatabase();
    const { client, connection } = await connectTestClient();
    const taskQueue = `reconcile-kill-${randomUUID()}`;
    const pageSize = 10;
    let worker: KillableWorker | undefined;
    let replacement: RunningTestWorker | undefined;
    try {
      const ids = await seedOpenOffRamps(sandbox, database.db, 60);
      // Every read takes a second: a page of ten is a second's work, long enough to be killed inside.
      sandbox.setFaults({ api: { slowMs: 1_000, routes: ['getTransaction'] } });
      worker = await startWorkerProcess({
        ...operatorEnv(sandbox),
        TASK_QUEUE: taskQueue,
        DATABASE_URL: database.url,
      });
      const reconcileId = `ops/reconcile-kill-${randomUUID()}`;
      const handle = await client.workflow.start<typeof reconcileWorkflow>('reconcileWorkflow', {
        workflowId: reconcileId,
        taskQueue,
        args: [{ timings: fastTimings(), paging: { pageSize, pagesPerRun: 50 } }],
      });
      // Killed inside its third page: two pages are the workflow's, the third only its heartbeats.
      await waitFor(
        'two pages done',
        async () =>
          ((await readRun(database.db, reconcileId))?.progress.pages ?? 0) >= 2 ? true : undefined,
        60_000,
      );
      await worker.kill();
      replacement = await startTestWorker(
        createActivities({
          operator: operatorFor(sandbox),
          temporal: client,
          logger: pino({ level: 'silent' }),
          ledger: database.db,
          config: testActivityConfig({ receiver: () => testReceiver() }),
        }),
        taskQueue,
      );
      const result = await handle.result();
      expect(result.processesChecked).toBe(60);
      const reads = transactionReads(sandbox, ids, 0);
      expect(new Set(reads)).toEqual(new Set(ids));
      // Not started over: only the page the worker died in may have been read again.
      expect(reads.length - ids.length).toBeLessThanOrEqual(pageSize);
      // The page the worker died in was retried (its second attempt), the pages before it were not.
      const attempts = (await handle.fetchHistory()).events
        ?.map((event) => event.activityTaskStartedEventAttributes?.attempt)
        .filter((attempt) => attempt !== undefined && attempt !== null);
      expect(attempts?.slice(0, 4)).toEqual([1, 1, 1, 2]);
    } finally {
      await worker?.kill();
      await replacement?.stop();
      await database.close();
      await connection.close();
      await sandbox.close();
    }
  }, 180_000);
});
