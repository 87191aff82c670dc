/**
 * The dev server as the product launches it keeps its search attribute definitions in a cache. With the CLI's own
 * defaults it reads the cluster's metadata from SQLite for every visibility record it writes (two or three times,
 * as measured here); with the cache it does not. The attributes registered at launch are usable at once: a list
 * query by one finds every workflow started with it.
 * It also writes every task queue's tasks to one partition, the root, where the CLI's defaults spread them over four,
 * and hands a worker the activity it schedules with the answer to its workflow task.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { NativeConnection } from '@temporalio/worker';
import { WORKFLOW_TYPES } from '../../../src/domain/ids';
import { freePort } from '../../../src/http/free-port';
import {
  DEV_SERVER_TUNING,
  type DevServerTuning,
  type RunningDevServer,
  startDevServer,
} from '../../../src/temporal/dev-server';
import { EndUserId } from '../../../src/domain/search-attributes';
import { createRampWorker } from '../../../src/temporal/worker';
import type { QuoteRequestInput, QuoteResult } from '../../../workflows/quote/types';
import type { quoteWorkflow } from '../../../workflows/quote/workflow';
import { fastTimings, testServer } from '../../helpers/temporal';
import { waitFor } from '../../helpers/wait';

const NAMESPACE = 'tuning-test';
const STARTS = 40;

/** The product's pragmas with the CLI's own dynamic config: what the product's dynamic config is compared with. */
const CLI_DEFAULTS: DevServerTuning = { ...DEV_SERVER_TUNING, dynamicConfig: [] };

/** A dev server of the test's own, launched with `tuning`; its metrics on `metricsPort` when given. */
const startTunedServer = (tuning: DevServerTuning, metricsPort?: number): Promise<RunningDevServer> =>
  startDevServer({
    cliPath: process.env.TEST_TEMPORAL_CLI_PATH!,
    namespace: NAMESPACE,
    uiPort: null,
    tuning,
    ...(metricsPort === undefined ? {} : { extraArgs: ['--metrics-port', String(metricsPort)] }),
  });

/** The sum of a counter's samples for one operation, over its other labels, in a Prometheus text exposition. */
function counterOf(exposition: string, metric: string, operation: string): number {
  let sum = 0;
  for (const line of exposition.split('\n')) {
    if (line.startsWith(`${metric}{`) && line.includes(`operation="${operation}"`))
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/**
 * Starts `STARTS` workflows carrying a product search attribute and waits until a list query by it finds them all;
 * answers how many cluster metadata reads that cost the server.
 */
async function metadataReadsOfStarts(tuning: DevServerTuning, label: string): Promise<number> {
  const metricsPort = await freePort();
  const server: RunningDevServer = await startTunedServer(tuning, metricsPort);
  const connection = await Connection.connect({ address: server.address });
  try {
    const client = new Client({ connection, namespace: NAMESPACE });
    const scrape = async () => {
      const exposition = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      return {
        metadataReads: counterOf(exposition, 'persistence_requests', 'GetCurrentClusterMetadata'),
        visibilityWrites: counterOf(
          exposition,
          'visibility_persistence_requests',
          'RecordWorkflowExecutionStarted',
        ),
      };
    };
    const before = await scrape();
    for (let index = 0; index < STARTS; index += 1) {
      // No worker: the workflows stay open, each with the attribute set at its start.
      await client.workflow.start('noSuchWorkflow', {
        taskQueue: 'no-worker',
        workflowId: `${label}-${index}`,
        typedSearchAttributes: [{ key: EndUserId, value: label }],
      });
    }
    await waitFor(
      async () => (await client.workflow.count(`${EndUserId.name} = '${label}'`)).count === STARTS,
      `${STARTS} workflows listed by ${EndUserId.name}`,
      20_000,
      100,
    );
    // The server publishes its counters about once a second: read them once they show every visibility write.
    const after = await waitFor(
      async () => {
        const now = await scrape();
        return now.visibilityWrites - before.visibilityWrites >= STARTS ? now : undefined;
      },
      `${STARTS} visibility writes in the server's metrics`,
      20_000,
      100,
    );
    return after.metadataReads - before.metadataReads;
  } finally {
    await connection.close();
    await server.stop();
  }
}

describe('the dev server search attribute cache', () => {
  test('on as the product launches it: visibility writes read no cluster metadata', async () => {
    const cached = await metadataReadsOfStarts(DEV_SERVER_TUNING, 'cached');
    // Each of the server's services loads its cache once and refreshes it on its own interval: a few reads,
    // however many records are written.
    expect(cached).toBeLessThanOrEqual(STARTS / 8);
  });

  test("off with the CLI's defaults: every visibility write reads it", async () => {
    const uncached = await metadataReadsOfStarts(CLI_DEFAULTS, 'uncached');
    expect(uncached).toBeGreaterThanOrEqual(STARTS);
  });
});

const { TaskQueueKind, TaskQueueType } = temporal.api.enums.v1;
const BACKLOGGED = 40;
const READ_PARTITIONS = 4;

/**
 * Starts `BACKLOGGED` workflows on a task queue no worker polls, so that their first tasks stay in its backlog;
 * answers how many of them each of the queue's read partitions holds (the root first), once they add up.
 */
async function backlogPerPartition(tuning: DevServerTuning): Promise<number[]> {
  const server = await startTunedServer(tuning);
  const connection = await Connection.connect({ address: server.address });
  try {
    const client = new Client({ connection, namespace: NAMESPACE });
    for (let index = 0; index < BACKLOGGED; index += 1)
      await client.workflow.start('noSuchWorkflow', {
        taskQueue: 'no-worker',
        workflowId: `backlog-${index}`,
      });
    const partitionNames = Array.from({ length: READ_PARTITIONS }, (_, partition) =>
      partition === 0 ? 'no-worker' : `/_sys/no-worker/${partition}`,
    );
    const backlogs = () =>
      Promise.all(
        partitionNames.map(async (name) => {
          const answer = await connection.workflowService.describeTaskQueue({
            namespace: NAMESPACE,
            taskQueue: { name, kind: TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
            taskQueueType: TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
            includeTaskQueueStatus: true,
          });
          return Number(answer.taskQueueStatus?.backlogCountHint ?? 0);
        }),
      );
    return await waitFor(
      async () => {
        const counts = await backlogs();
        return counts.reduce((sum, count) => sum + count, 0) === BACKLOGGED ? counts : undefined;
      },
      `${BACKLOGGED} tasks in the backlog of the task queue's partitions`,
      20_000,
      100,
    );
  } finally {
    await connection.close();
    await server.stop();
  }
}

describe('the dev server task queue partitions', () => {
  test('as the product launches it: every new task is written to the root partition', async () => {
    const [root, ...others] = await backlogPerPartition(DEV_SERVER_TUNING);
    expect(root).toBe(BACKLOGGED);
    expect(others).toEqual([0, 0, 0]);
  });

  test("with the CLI's defaults: the tasks are spread over four", async () => {
    const [root, ...others] = await backlogPerPartition(CLI_DEFAULTS);
    expect(root).toBeLessThan(BACKLOGGED);
    expect(others.filter((count) => count > 0).length).toBeGreaterThanOrEqual(2);
  });
});

const QUOTES = 5;

/**
 * Runs `QUOTES` quote workflows (one Create quote activity each, answered by a stub) on a worker of the server's own;
 * answers how many of their activities the server handed over in its answer to a completed workflow task.
 */
async function eagerActivitiesOfQuotes(tuning: DevServerTuning): Promise<number> {
  const metricsPort = await freePort();
  const server = await startTunedServer(tuning, metricsPort);
  const workerConnection = await NativeConnection.connect({ address: server.address });
  const connection = await Connection.connect({ address: server.address });
  try {
    const taskQueue = `eager-${randomUUID()}`;
    const createQuote = (request: QuoteRequestInput): Promise<QuoteResult> =>
      Promise.resolve({
        ...request,
        targetAmount: '1',
        expiresAt: new Date(Date.now() + 25_000).toISOString(),
        quotedAt: new Date().toISOString(),
      });
    const worker = await createRampWorker({
      connection: workerConnection,
      namespace: NAMESPACE,
      taskQueue,
      activities: { createQuote },
      workflowBundle: { codePath: testServer().bundlePath },
      shutdownForceTime: '5s',
    });
    const quoted = await worker.runUntil(async () => {
      const client = new Client({ connection, namespace: NAMESPACE });
      const request: QuoteRequestInput = {
        direction: 'on-ramp',
        coinFrom: 'MXN',
        coinTo: 'USDT',
        chainTo: 'TRX',
        amountFrom: '100',
      };
      const results: QuoteResult[] = [];
      for (let index = 0; index < QUOTES; index += 1)
        results.push(
          await client.workflow.execute<typeof quoteWorkflow>(WORKFLOW_TYPES.quote, {
            taskQueue,
            workflowId: `quote/eager-${index}`,
            args: [{ request, timings: fastTimings() }],
          }),
        );
      return results;
    });
    expect(quoted.map((quote) => quote.targetAmount)).toEqual(Array(QUOTES).fill('1'));
    // The server publishes its counters about once a second: read them until every activity shows, for at most
    // a few publishing intervals (with none to come, the count read last stays 0).
    const scrape = async () =>
      counterOf(
        await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(),
        'activity_eager_execution',
        'RespondWorkflowTaskCompleted',
      );
    const until = Date.now() + 4_000;
    let eager = await scrape();
    while (eager < QUOTES && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      eager = await scrape();
    }
    return eager;
  } finally {
    await workerConnection.close();
    await connection.close();
    await server.stop();
  }
}

describe('the dev server eager activities', () => {
  test('as the product launches it: each activity goes to the worker with the answer to its workflow task', async () => {
    expect(await eagerActivitiesOfQuotes(DEV_SERVER_TUNING)).toBe(QUOTES);
  });

  test("with the CLI's defaults: every activity goes through matching", async () => {
    expect(await eagerActivitiesOfQuotes(CLI_DEFAULTS)).toBe(0);
  });
});
