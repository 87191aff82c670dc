/**
 * Statement: the settlement statement of a period holding `statementRamps` (quick 2,000, full 10,000) ended ramps,
 * exported as CSV through the typed client's `statement` (what GET /v1/statement and `npm run statement` stream), on
 * the npm-start server. The ramps are seeded: the sandbox (in this process) holds an executed order and a confirmed
 * deposit for each, and workflows of the ramp types (bench/statement/seed-workflows.ts, on a task queue of their own)
 * close at once with the final state a settled on-ramp of that order has. The product's statement-read workflow runs
 * on a worker in this process with the real activity, so each row is reconciled against a fresh operator read.
 *
 * Figure: the export time of the whole statement, from the first visibility page to the totals. Target: under 60 s
 * for 10,000 ramps (the figure). The note has the rows per second, the rows reconciled `matches`, and, with
 * `NODE_OPTIONS=--expose-gc`, how the heap after collection moved from the 2,500th row to the last: flat when the
 * statement holds one page at a time whatever the period (bounded memory).
 */
import { Writable } from 'node:stream';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Worker } from '@temporalio/worker';
import { toOrderSnapshot, toTransactionSnapshot } from '../activities/shared/snapshots';
import { createStatementActivities } from '../activities/statement/activities';
import type { ActivityDeps } from '../activities/deps';
import { RampClient } from '../src/client/ramp-client';
import { statementWriter } from '../src/client/statement-formats';
import { amountsAgainstQuote } from '../src/domain/amounts-against-quote';
import { onRampWorkflowId, WORKFLOW_TYPES } from '../src/domain/ids';
import { createOrder, createTransaction } from '../src/sandbox/flows/records';
import type { OnRampState } from '../workflows/ramps/onramp/types';
import { newOutbox } from '../workflows/outcomes/outbox';
import { BENCH_NAMESPACE, startBenchOperator } from './lib/context';
import { RUN_TAG, type Measurement } from './lib/measurement';
import type { Figure } from './lib/report';

/** The figure: 10,000 ramps exported in under a minute. */
const TARGET_MS = 60_000;
/** Seed starts in flight at once. */
const SEED_CONCURRENCY = 50;
/** Rows between two heap samples. */
const HEAP_SAMPLE_ROWS = 2_500;
const MASTER_ADDRESS = 'TBenchMasterWallet0000000000000000';

export const statementExport: Measurement = {
  name: 'statement',
  description: 'the settlement statement of a period with many ended ramps, exported as CSV and reconciled',
  async run(context, settings, _shared, log) {
    const count = settings.statementRamps;
    const address = context.subject.server.address;
    const client = context.subject.temporal.client;
    const { sandbox, operator } = await startBenchOperator({ timeScale: 1, deliveryConcurrency: 1 });
    const readsQueue = `bench-statement-reads-${RUN_TAG}`;
    const seedQueue = `bench-statement-seed-${RUN_TAG}`;
    const connection = await NativeConnection.connect({ address });
    const logger = new DefaultLogger('WARN');
    const [productBundle, seedBundle] = await Promise.all([
      bundleWorkflowCode({ workflowsPath: path.resolve(__dirname, '../workflows/index.ts'), logger }),
      bundleWorkflowCode({ workflowsPath: path.resolve(__dirname, 'statement/seed-workflows.ts'), logger }),
    ]);
    const readsWorker = await Worker.create({
      connection,
      namespace: BENCH_NAMESPACE,
      taskQueue: readsQueue,
      workflowBundle: productBundle,
      activities: createStatementActivities({ operator } as unknown as ActivityDeps),
    });
    const seedWorker = await Worker.create({
      connection,
      namespace: BENCH_NAMESPACE,
      taskQueue: seedQueue,
      workflowBundle: seedBundle,
    });
    const running = Promise.all([readsWorker.run(), seedWorker.run()]);
    const ramp = new RampClient({
      connection: context.subject.temporal.connection,
      namespace: BENCH_NAMESPACE,
      taskQueue: readsQueue,
      timings: context.timings,
    });
    try {
      // ---- seed: an executed order and its confirmed deposit at the sandbox, and a closed on-ramp for each
      const from = new Date().toISOString();
      const seedStarted = Date.now();
      let next = 0;
      const seedOne = async (index: number) => {
        const reference = `bench-st-${RUN_TAG}-${index}`;
        const deposit = createTransaction(
          sandbox.ctx,
          {
            status: 'confirmed',
            type: 'Deposit',
            subtype: 'external',
            walletId: 'bench-master',
            network: 'networks/tron-mainnet',
            asset: 'USDT',
            amount: '57.681159',
            fromAddress: null,
            toAddress: MASTER_ADDRESS,
            relatedTransactionId: null,
            orderId: null,
          },
          true,
        );
        const order = createOrder(
          sandbox.ctx,
          {
            orderReference: reference,
            status: 'executed',
            direction: 'on-ramp',
            coinFrom: 'MXN',
            coinTo: 'USDT',
            chainTo: 'TRX',
            amountFrom: '1000',
            amountTo: deposit.amount,
            transactionId: deposit.id,
            quoteId: null,
          },
          true,
        );
        deposit.orderId = order.id;
        const orderSnapshot = toOrderSnapshot({ ...order });
        const state: OnRampState = {
          orderReference: reference,
          status: 'settled',
          step: 'Settled',
          endUserId: `bench-user-${index % 500}`,
          unattributed: false,
          order: orderSnapshot,
          deposit: toTransactionSnapshot({ ...deposit }),
          cryptoAmount: deposit.amount,
          asset: 'USDT',
          amounts: amountsAgainstQuote(
            { amountFrom: '1000', amountTo: deposit.amount, executedAt: orderSnapshot.readAt },
            { amountFrom: '1000', targetAmount: '57.68', expiresAt: from },
          ),
          eventsApplied: 3,
          duplicates: 0,
          polls: 0,
          startedAt: from,
          endedAt: new Date().toISOString(),
          outcomes: newOutbox(),
        };
        await client.workflow.execute(WORKFLOW_TYPES.onRamp, {
          workflowId: onRampWorkflowId(reference),
          taskQueue: seedQueue,
          args: [state],
        });
      };
      await Promise.all(
        Array.from({ length: SEED_CONCURRENCY }, async () => {
          while (next < count) await seedOne(next++);
        }),
      );
      const to = new Date(Date.now() + 1_000).toISOString();
      const query = `WorkflowType = '${WORKFLOW_TYPES.onRamp}' AND ExecutionStatus != 'Running' AND CloseTime >= '${from}' AND CloseTime < '${to}'`;
      for (;;) {
        const { count: listed } = await client.workflow.count(query);
        if (listed >= count) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const seedMs = Date.now() - seedStarted;
      log(`[bench] statement: ${count} ramps seeded in ${(seedMs / 1000).toFixed(1)} s`);

      // ---- the export, to a sink (the bytes are counted, never kept). The heap is sampled after a collection (with
      // node --expose-gc) every HEAP_SAMPLE_ROWS rows: a statement that held its rows would grow with them.
      const heap = () => {
        global.gc?.();
        return process.memoryUsage().heapUsed;
      };
      const heapSamples: number[] = [];
      let bytes = 0;
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          done();
        },
      });
      const writer = statementWriter('csv', { from, to });
      let rows = 0;
      let matches = 0;
      const started = Date.now();
      sink.write(writer.start());
      for await (const item of ramp.statement({ from, to })) {
        if (item.kind === 'row') {
          rows += 1;
          if (item.row.reconciled === 'matches') matches += 1;
        }
        sink.write(writer.item(item));
        if (item.kind === 'row' && rows % HEAP_SAMPLE_ROWS === 0) heapSamples.push(heap());
      }
      const exportMs = Date.now() - started;
      const collected = typeof global.gc === 'function';
      // From the first sample to the last: the process also hosts the sandbox, whose call log grows with every read.
      const growthMb =
        heapSamples.length > 1 ? (heapSamples[heapSamples.length - 1]! - heapSamples[0]!) / 2 ** 20 : 0;
      const heapNote = collected
        ? `heap after collection grew ${growthMb.toFixed(1)} MB from row ${HEAP_SAMPLE_ROWS} to row ${heapSamples.length * HEAP_SAMPLE_ROWS} (the in-process sandbox's call log included)`
        : 'heap not sampled (run with NODE_OPTIONS=--expose-gc)';
      log(
        `[bench] statement: ${rows} rows (${matches} reconciled matches), ${(bytes / 2 ** 20).toFixed(1)} MB of CSV in ${(exportMs / 1000).toFixed(1)} s; ${heapNote}`,
      );
      const figure: Figure = {
        measurement: 'statement',
        what: `export of a ${count}-ramp statement (CSV, reconciled)`,
        value: Math.round(exportMs / 100) / 10,
        unit: 's',
        target: `< ${TARGET_MS / 1000} s for 10,000 ramps`,
        met: rows === count && exportMs < (TARGET_MS * count) / 10_000,
        note: `${Math.round((rows / exportMs) * 1000)} rows/s; ${matches}/${rows} reconciled matches; ${heapNote}; seeding took ${(seedMs / 1000).toFixed(0)} s`,
      };
      return {
        figures: [figure],
        legs: {
          ramps: count,
          rows,
          matches,
          exportMs,
          seedMs,
          csvBytes: bytes,
          heapSamplesMb: heapSamples.map((bytes_) => Math.round(bytes_ / 2 ** 20)),
        },
      };
    } finally {
      await ramp.close().catch(() => undefined);
      readsWorker.shutdown();
      seedWorker.shutdown();
      await running.catch(() => undefined);
      await connection.close();
      await sandbox.close();
    }
  },
};
