/**
 * The webhook routers (routes/<task queue>/<n>), the durable fallback for deliveries the receiver does not forward
 * itself. End to end through the sandbox, the receiver and the real activities: both ramps settle once with every
 * delivery sent twice, a resource the operator does not know is given up without holding up the others, and a worker
 * killed inside a batch leaves nothing doubled. Against stub activities: timings, failures, continue-as-new handing
 * a lane waiting to retry and deliveries not yet routed to the next run, hops in batches. Behind the receiver:
 * deliveries that wait for their router's signal go together, and a router that is not keeping up is answered 503.
 */
import { randomUUID } from 'node:crypto';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { WorkflowTimings } from '../../../../src/domain/timings';
import type { RampActivities } from '../../../../activities';
import {
  offRampWorkflowId,
  onRampWorkflowId,
  routerWorkflowId,
  WORKFLOW_TYPES,
} from '../../../../src/domain/ids';
import { routerStateQuery, webhookDeliveriesSignal } from '../../../../workflows/ramps/router/messages';
import type {
  HopResult,
  RoutedEvent,
  RouteEventInput,
  RouteEventsInput,
  RouterDeliveries,
  RouterState,
} from '../../../../workflows/ramps/router/types';
import { routeEachHop } from '../../../../src/routing/hop-batch';
import { recordHistory } from '../../../helpers/histories';
import { captureLines } from '../../../helpers/logs';
import { testReceiverConfig } from '../../../helpers/receiver';
import { type RunningReceiver, startReceiver } from '../../../../src/webhooks/receiver';
import { startWorkerProcess } from '../../../helpers/killable-worker';
import { metricValue } from '../../../helpers/metrics';
import { freePort } from '../../../../src/http/free-port';
import {
  EMAIL,
  PASSCODE,
  depositCrypto,
  depositFiat,
  endUserWithWallet,
  offRampEnded,
  onRampEnded,
  postToReceiver,
  routerIdOf,
  useRampStacks,
  waitFor,
} from '../../../helpers/ramp-stack';
import {
  connectTestClient,
  fastTimings,
  type RunningTestWorker,
  startTestWorker,
} from '../../../helpers/temporal';

/** One transaction delivery for a router, as the receiver's hand-over signals it. */
function deliveries(resourceId: string, timings: WorkflowTimings, newStatus?: string): RouterDeliveries {
  const event = {
    eventType: newStatus ? 'transaction-updated' : 'transaction-created',
    resourceId,
    ...(newStatus ? { newStatus } : {}),
    receivedAt: new Date().toISOString(),
  };
  return { deliveries: [{ kind: 'transaction', event }], timings };
}

/** `count` fresh resource IDs that all hash to the same router of `taskQueue` (routes/<queue>/0). */
function idsOfFirstRouter(taskQueue: string, count: number, prefix = 'tx'): string[] {
  const ids: string[] = [];
  while (ids.length < count) {
    const id = `${prefix}-${randomUUID().slice(0, 8)}`;
    if (routerWorkflowId(taskQueue, 'transaction', id) === `routes/${taskQueue}/0`) ids.push(id);
  }
  return ids;
}

/** The state of every router on the stack's task queue. */
async function routerStates(client: Client, taskQueue: string): Promise<RouterState[]> {
  const states: RouterState[] = [];
  const query = `WorkflowType = '${WORKFLOW_TYPES.webhookRouter}' AND TaskQueue = '${taskQueue}' AND ExecutionStatus = 'Running'`;
  for await (const execution of client.workflow.list({ query }))
    states.push(await client.workflow.getHandle(execution.workflowId).query(routerStateQuery));
  return states;
}

/** The decoded payloads of every signal in a workflow's history (a router's deliveries). */
async function signalPayloads(client: Client, workflowId: string): Promise<string[]> {
  const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  return events.flatMap((event) =>
    (event.workflowExecutionSignaledEventAttributes?.input?.payloads ?? []).map((payload) =>
      Buffer.from(payload.data ?? []).toString(),
    ),
  );
}

async function runsOf(client: Client, workflowId: string): Promise<number> {
  let runs = 0;
  for await (const execution of client.workflow.list({ query: `WorkflowId = '${workflowId}'` }))
    if (execution) runs += 1;
  return runs;
}

describe('webhook routers (sandbox + receiver + dev server)', () => {
  const stacks = useRampStacks();

  test('an off-ramp and an on-ramp settle once through the routers, every event delivered twice', async () => {
    const stack = await stacks.start({ sandbox: { faults: { deliveries: { duplicate: 1 } } } });
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address, '50');
    const reference = `ref-${randomUUID().slice(0, 8)}`;
    await depositFiat(stack, reference);
    expect(await offRampEnded(stack, depositId)).toMatchObject({ status: 'settled', fiatAmount: '858.18' });
    expect(await onRampEnded(stack, reference)).toMatchObject({ status: 'settled', unattributed: true });
    expect(await runsOf(stacks.client, offRampWorkflowId(depositId))).toBe(1);
    expect(await runsOf(stacks.client, onRampWorkflowId(reference))).toBe(1);

    const delivered = () => stack.sandbox.deliveries().filter((attempt) => attempt.outcome === 'delivered');
    expect(delivered().some((attempt) => attempt.duplicateOf)).toBe(true);
    // Every accepted delivery is in a router, and every router has routed all it got.
    const routers = await waitFor('the routers to finish routing', async () => {
      const states = await routerStates(stacks.client, stack.worker.taskQueue);
      const received = states.reduce((sum, state) => sum + state.totals.eventsReceived, 0);
      return received === delivered().length && states.every((state) => state.active.length === 0)
        ? states
        : undefined;
    });
    expect(routers.length).toBeGreaterThanOrEqual(1);
    expect(routers.length).toBeLessThanOrEqual(4);
    const duplicates = routers.reduce((sum, state) => sum + state.totals.duplicates, 0);
    expect(duplicates).toBeGreaterThan(0);
    await recordHistory(stacks.client, routerIdOf(stack, 'transaction', depositId), 'router-ramps', {
      running: true,
    });
  });

  test('a resource the operator does not know is given up after bounded re-reads and counted; its router routes the others meanwhile', async () => {
    const stack = await stacks.start({
      timings: { unknownResourceTimeoutMs: 5_000, pollInitialMs: 200, pollMaximumMs: 400 },
    });
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address, '50');
    // A forged resource that hashes to the deposit's router, delivered while the off-ramp runs.
    const routerId = routerIdOf(stack, 'transaction', depositId);
    let forged = `forged-${randomUUID()}`;
    while (routerIdOf(stack, 'transaction', forged) !== routerId) forged = `forged-${randomUUID()}`;
    const answer = await postToReceiver(
      stack.receiver.recipientUrls.transaction,
      JSON.stringify({ data: { eventType: 'transaction-created', payload: { id: forged } } }),
    );
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as { workflowId: string }).workflowId).toBe(routerId);
    expect(await offRampEnded(stack, depositId)).toMatchObject({ status: 'settled' });
    const settledAt = Date.now();

    const after = await waitFor('the router to give up the forged resource', async () => {
      const state = await stacks.client.workflow.getHandle(routerId).query(routerStateQuery);
      return state.totals.unknownResources === 1 ? state : undefined;
    });
    const lane = after.recent.find((recent) => recent.resourceId === forged);
    expect(lane?.unknownResource).toMatchObject({ eventsDropped: 1 });
    // The off-ramp settled while the forged resource's lane was still re-reading.
    expect(Date.parse(lane!.unknownResource!.gaveUpAt!)).toBeGreaterThan(settledAt);
    expect(lane?.forwardedTo).toEqual([]);
    const reads = stack.sandbox
      .calls()
      .filter((call) => call.route === 'getTransaction' && call.path.endsWith(`/${forged}`));
    // Reads doubling from 200 ms without the poll maximum: about log2(5000 / 200) + 1, not one per 400 ms.
    expect(reads.length).toBe(lane!.unknownResource!.reads);
    expect(reads.length).toBeGreaterThanOrEqual(3);
    expect(reads.length).toBeLessThanOrEqual(7);
    expect(reads.every((call) => call.status === 404)).toBe(true);
    expect(after.totals.resourcesRouted).toBeGreaterThan(0);
    expect(after.active).toEqual([]);
    await recordHistory(stacks.client, routerId, 'router-unknown-resource', { running: true });
  });

  test("the routers count their hops and what they give up on the worker's metrics, from the workflow", async () => {
    const stack = await stacks.start({
      timings: { unknownResourceTimeoutMs: 3_000, pollInitialMs: 200, pollMaximumMs: 400 },
    });
    // The stack's worker leaves; a worker process serving its SDK metrics takes its task queue.
    await stack.stopWorker();
    const port = await freePort();
    const worker = await startWorkerProcess({
      OPERATOR_BASE_URL: stack.sandbox.url,
      OPERATOR_EMAIL: EMAIL,
      OPERATOR_PASSCODE: PASSCODE,
      TASK_QUEUE: stack.worker.taskQueue,
      DATABASE_URL: stack.database.url,
      TEMPORAL_METRICS_BIND_ADDRESS: `127.0.0.1:${port}`,
    });
    try {
      const scrape = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      const fromRouters = { workflowType: WORKFLOW_TYPES.webhookRouter };
      // Declared at 0 from the start, before any router ran.
      expect(await scrape()).toContain('ramp_router_hops_total{result="failed"} 0');
      const forged = `forged-${randomUUID()}`;
      const answer = await postToReceiver(
        stack.receiver.recipientUrls.transaction,
        JSON.stringify({ data: { eventType: 'transaction-created', payload: { id: forged } } }),
      );
      expect((JSON.parse(answer.body) as { workflowId: string }).workflowId).toBe(
        routerIdOf(stack, 'transaction', forged),
      );
      const text = await waitFor('the router to give up the forged resource, counted', async () => {
        const current = await scrape();
        return metricValue(current, 'ramp_router_resources_given_up_total', {
          ...fromRouters,
          reason: 'unknown-resource',
        }) === 1
          ? current
          : undefined;
      });
      expect(
        metricValue(text, 'ramp_router_hops_total', { ...fromRouters, result: 'not-found' }),
      ).toBeGreaterThanOrEqual(2);
      expect(metricValue(text, 'ramp_router_hops_total', { ...fromRouters, result: 'routed' })).toBe(0);
    } finally {
      await worker.kill();
      await stack.startWorker();
    }
  });

  test('a worker killed after a batch forwarded, before it completed: the next worker routes the batch again, each off-ramp settles once', async () => {
    const stack = await stacks.start();
    const users = [];
    for (let index = 0; index < 3; index += 1) users.push(await endUserWithWallet(stack));
    // With no worker, the deposits' deliveries wait in their routers, so the first worker sends each router's in one
    // batch.
    await stack.stopWorker();
    const deposits: string[] = [];
    for (const user of users) deposits.push(await depositCrypto(stack, user.address));
    const routers = [...new Set(deposits.map((depositId) => routerIdOf(stack, 'transaction', depositId)))];
    await waitFor('every deposit delivered to its router', async () => {
      const carried = (
        await Promise.all(routers.map((router) => signalPayloads(stacks.client, router)))
      ).flat();
      return deposits.every((depositId) => carried.some((payload) => payload.includes(depositId)))
        ? true
        : undefined;
    });

    const dying = await startWorkerProcess({
      OPERATOR_BASE_URL: stack.sandbox.url,
      OPERATOR_EMAIL: EMAIL,
      OPERATOR_PASSCODE: PASSCODE,
      TASK_QUEUE: stack.worker.taskQueue,
      DATABASE_URL: stack.database.url,
      KILL_POINT: 'hop-forwarded',
    });
    try {
      await dying.printed('kill-point:hop-forwarded');
    } finally {
      await dying.kill();
    }
    await stack.startWorker();

    for (const [index, depositId] of deposits.entries()) {
      expect(await offRampEnded(stack, depositId)).toMatchObject({ status: 'settled', alertsRaised: 0 });
      expect(await runsOf(stacks.client, offRampWorkflowId(depositId))).toBe(1);
      const endUser = await stack.endUserState(users[index]!.endUserId);
      expect(endUser.recentOffRamps).toEqual([depositId]);
    }
    // The kill landed inside a router's first batch, which carried its deposits (with the chains' other
    // transactions delivered meanwhile) and ran again on the new worker.
    const firstBatches = await Promise.all(
      routers.map(async (router) => {
        const events = (await stacks.client.workflow.getHandle(router).fetchHistory()).events ?? [];
        const scheduled = events.find(
          (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'routeEvents',
        );
        const input = JSON.parse(
          Buffer.from(scheduled!.activityTaskScheduledEventAttributes!.input!.payloads![0]!.data!).toString(),
        ) as RouteEventsInput;
        const started = events.find(
          (event) =>
            event.activityTaskStartedEventAttributes &&
            String(event.activityTaskStartedEventAttributes.scheduledEventId) === String(scheduled!.eventId),
        );
        return {
          resources: input.hops.map((hop) => hop.resourceId),
          attempt: started?.activityTaskStartedEventAttributes?.attempt ?? 0,
        };
      }),
    );
    expect(firstBatches.flatMap((batch) => batch.resources)).toEqual(expect.arrayContaining(deposits));
    expect(firstBatches.some((batch) => batch.attempt >= 2)).toBe(true);
  }, 120_000);
});

describe('a router on stub activities: timings, failures, continue-as-new, hops in batches', () => {
  let client: Client;
  let running: RunningTestWorker | undefined;

  beforeAll(async () => {
    ({ client } = await connectTestClient());
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });

  test('a delivery brings the receiver’s current timings: new lanes and the next run take them', async () => {
    const routed = new Set<string>();
    running = await routingWorker(`test-${randomUUID()}`, routed);
    const shard = `routes/${running.taskQueue}/0`;
    const first = fastTimings({ activityStartToCloseMs: 4_000 });
    const changed = fastTimings({ activityStartToCloseMs: 7_000 });
    const deliver = (resourceId: string, timings: WorkflowTimings) =>
      client.workflow.signalWithStart(WORKFLOW_TYPES.webhookRouter, {
        workflowId: shard,
        taskQueue: running!.taskQueue,
        args: [{ router: shard, timings: first, continueAsNewAfterEvents: 25 }],
        signal: webhookDeliveriesSignal,
        signalArgs: [deliveries(resourceId, timings)],
      });
    const firstRun = (await deliver('before', first)).signaledRunId;
    await waitFor('the first lane routed', () => Promise.resolve(routed.has('before') ? true : undefined));
    for (const id of ['after-1', 'after-2', 'after-3', 'after-4']) await deliver(id, changed);
    await waitFor('every lane routed', () => Promise.resolve(routed.size === 5 ? true : undefined));
    const history = await client.workflow.getHandle(shard, firstRun).fetchHistory();
    const startToClose = (history.events ?? []).flatMap((event) => {
      const scheduled = event.activityTaskScheduledEventAttributes;
      return scheduled ? [Number(scheduled.startToCloseTimeout?.seconds ?? 0)] : [];
    });
    expect(startToClose[0]).toBe(4);
    expect(startToClose.slice(1).length).toBeGreaterThan(0);
    expect(startToClose.slice(1).every((seconds) => seconds === 7)).toBe(true);
    // Past 25 events the router hands over: the next run starts with the timings the deliveries brought. Deliveries
    // that shared workflow tasks leave the first run with about 21 events, so further ones come until it hands over
    // (each adds at least a signal, a workflow task and a lane's activity).
    let further = 0;
    const next = await waitFor('the next run', async () => {
      const description = await client.workflow.getHandle(shard).describe();
      if (description.runId !== firstRun) return description;
      if (further < 5) await deliver(`further-${++further}`, changed);
      return undefined;
    });
    const started = (await client.workflow.getHandle(shard, next.runId).fetchHistory()).events?.[0];
    const input = JSON.parse(
      Buffer.from(started!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!.data!).toString(),
    ) as { timings: WorkflowTimings };
    expect(input.timings.activityStartToCloseMs).toBe(7_000);
    await recordHistory(client, shard, 'router-new-timings', { runId: firstRun });
  });

  test('past the process timeout an operator failure ends the lane, counted; a defect fails the workflow task instead', async () => {
    const routed: string[] = [];
    const activities = {
      routeEvent: (input: RouteEventInput): Promise<RoutedEvent> => {
        if (input.resourceId === 'operator-down')
          return Promise.reject(ApplicationFailure.retryable('operator unavailable', 'OperatorUnavailable'));
        // An answer the lane cannot read (no status): a defect in the worker, which is no operator failure.
        if (input.resourceId === 'unreadable') return Promise.resolve(undefined as unknown as RoutedEvent);
        routed.push(input.resourceId);
        return Promise.resolve({
          status: 'created',
          outcome: { workflowId: offRampWorkflowId(input.resourceId) },
        });
      },
    };
    running = await startTestWorker(withBatches(activities.routeEvent));
    const timings = fastTimings({
      activityStartToCloseMs: 300,
      activityScheduleToCloseMs: 400,
      processTimeoutMs: 2_000,
    });
    const deliver = (router: string, resourceId: string) =>
      client.workflow.signalWithStart(WORKFLOW_TYPES.webhookRouter, {
        workflowId: router,
        taskQueue: running!.taskQueue,
        args: [{ router, timings }],
        signal: webhookDeliveriesSignal,
        signalArgs: [deliveries(resourceId, timings)],
      });
    const failing = `routes/${running.taskQueue}/0`;
    const defective = `routes/${running.taskQueue}/1`;
    await deliver(failing, 'operator-down');
    await deliver(defective, 'unreadable');

    const given = await waitFor('the failing lane to be given up', async () => {
      const state = await client.workflow.getHandle(failing).query(routerStateQuery);
      return state.totals.failedResources === 1 ? state : undefined;
    });
    expect(given.recent.find((lane) => lane.resourceId === 'operator-down')).toMatchObject({
      gaveUpAt: expect.any(String),
      lastFailure: expect.objectContaining({ message: expect.any(String) }),
    });
    // The router goes on: the next resource is routed.
    await deliver(failing, 'after');
    await waitFor('the next resource routed', () =>
      Promise.resolve(routed.includes('after') ? true : undefined),
    );

    const failedTask = await waitFor('the defective router task to fail', async () => {
      const events = (await client.workflow.getHandle(defective).fetchHistory()).events ?? [];
      return events.find((event) => event.workflowTaskFailedEventAttributes)
        ?.workflowTaskFailedEventAttributes;
    });
    expect(failedTask?.failure?.message).toMatch(/routeEvents gave no answer for transaction unreadable/);
    // Stalled, not ended: the delivery stays in its history for a worker without the defect.
    expect((await client.workflow.getHandle(defective).describe()).status.name).toBe('RUNNING');
    await recordHistory(client, failing, 'router-lane-given-up', { running: true });
  });

  test('a lane waiting to retry and deliveries not yet routed go to the next run, and are routed there', async () => {
    let operatorBack = false;
    const routed: string[] = [];
    const activities = {
      routeEvent: (input: RouteEventInput): Promise<RoutedEvent> => {
        if (input.resourceId === 'stuck' && !operatorBack)
          return Promise.reject(ApplicationFailure.retryable('operator unavailable', 'OperatorUnavailable'));
        routed.push(input.resourceId);
        return Promise.resolve({
          status: 'confirmed',
          outcome: { workflowId: offRampWorkflowId(input.resourceId) },
        });
      },
    };
    running = await startTestWorker(withBatches(activities.routeEvent));
    const shard = `routes/${running.taskQueue}/0`;
    const timings = fastTimings({ activityStartToCloseMs: 500, activityScheduleToCloseMs: 600 });
    const deliver = (resourceId: string) =>
      client.workflow.signalWithStart(WORKFLOW_TYPES.webhookRouter, {
        workflowId: shard,
        taskQueue: running!.taskQueue,
        args: [{ router: shard, timings, continueAsNewAfterEvents: 60 }],
        signal: webhookDeliveriesSignal,
        signalArgs: [deliveries(resourceId, timings, 'confirmed')],
      });
    const firstRun = (await deliver('stuck')).signaledRunId;
    const others = Array.from({ length: 12 }, (_, index) => `tx-${index}`);
    for (const id of others) await deliver(id);

    // The others are routed while the stuck one fails; the history grows past 60 events and the run hands over.
    const handedOver = await waitFor('a second run still holding the stuck lane', async () => {
      const state = await client.workflow.getHandle(shard).query(routerStateQuery);
      return state.totals.runs >= 2 && state.active.some((lane) => lane.resourceId === 'stuck')
        ? state
        : undefined;
    });
    expect(handedOver.active.find((lane) => lane.resourceId === 'stuck')?.lastFailure?.message).toMatch(
      /operator unavailable|timed out/i,
    );
    expect(new Set(routed)).toEqual(new Set(others));
    // Deliveries arriving now land in the new run.
    await deliver('late-comer');
    operatorBack = true;

    const done = await waitFor('every lane routed', async () => {
      const state = await client.workflow.getHandle(shard).query(routerStateQuery);
      return state.active.length === 0 && routed.includes('stuck') && routed.includes('late-comer')
        ? state
        : undefined;
    });
    expect(done.totals.eventsReceived).toBe(others.length + 2);
    expect(done.totals.resourcesRouted).toBe(others.length + 2);
    // Each resource's snapshot went out once: nothing routed twice across the hand-over.
    expect(routed.filter((id) => id === 'stuck')).toHaveLength(1);
    expect(routed.length).toBe(others.length + 2);
    await recordHistory(client, shard, 'router-continued-as-new', { runId: firstRun });
  });

  test('hops ready together go in one activity; a hop that fails is retried alone, the others routed once', async () => {
    const ids = ['flaky', ...Array.from({ length: 5 }, (_, index) => `tx-${index}`)];
    const { taskQueue, shard } = await shardWithWaitingDeliveries(client, ids);
    const attempts: string[] = [];
    running = await startTestWorker(
      withBatches((input) => {
        attempts.push(input.resourceId);
        if (input.resourceId === 'flaky' && attempts.filter((id) => id === 'flaky').length < 3)
          return Promise.reject(ApplicationFailure.retryable('operator unavailable', 'OperatorUnavailable'));
        return Promise.resolve({
          status: 'created',
          outcome: { workflowId: offRampWorkflowId(input.resourceId) },
        });
      }),
      taskQueue,
    );
    const done = await everyLaneRouted(client, shard, ids.length);
    expect(done.totals.failedResources).toBe(0);
    expect(done.recent.filter((lane) => lane.forwardedTo.length === 1)).toHaveLength(ids.length);
    // Retried as the activity's retry policy would retry it: the lane never saw the failures.
    expect(done.recent.find((lane) => lane.resourceId === 'flaky')?.lastFailure).toBeUndefined();
    // One activity for the six lanes, then the failing hop alone, twice.
    expect(await activitiesScheduled(client, shard)).toEqual([
      { type: 'routeEvents', resources: ids },
      { type: 'routeEvents', resources: ['flaky'] },
      { type: 'routeEvents', resources: ['flaky'] },
    ]);
    expect(attempts.filter((id) => id !== 'flaky').sort()).toEqual(ids.slice(1).sort());
    await recordHistory(client, shard, 'router-hop-batches', { running: true });
  });

  test('a routeEvents that fails as a whole is retried whole by its policy; each hop routed once, no lane sees it', async () => {
    const ids = ['tx-0', 'tx-1', 'tx-2', 'tx-3'];
    const { taskQueue, shard } = await shardWithWaitingDeliveries(client, ids);
    const hopsRouted: string[] = [];
    const batchAttempts: number[] = [];
    running = await startTestWorker(
      wholeBatch((input) => {
        batchAttempts.push(Context.current().info.attempt);
        // A batch lost before any hop ran: the worker's connection to the operator dropped, say.
        if (batchAttempts.length === 1) throw new Error('connection reset before the first hop');
        return routeEachHop(routedOnce(hopsRouted), input, 10_000);
      }),
      taskQueue,
    );
    const done = await everyLaneRouted(client, shard, ids.length);
    expect(done.totals.failedResources).toBe(0);
    expect(done.recent.every((lane) => lane.lastFailure === undefined)).toBe(true);
    expect(batchAttempts).toEqual([1, 2]);
    expect(hopsRouted.sort()).toEqual([...ids].sort());
    // The retry is the same activity: one schedule carrying every hop.
    expect(await activitiesScheduled(client, shard)).toEqual([{ type: 'routeEvents', resources: ids }]);
  });

  test('a routeEvents its policy gives up on as a whole fails each lane, which tries again in a later batch', async () => {
    const ids = ['tx-0', 'tx-1', 'tx-2'];
    const { taskQueue, shard } = await shardWithWaitingDeliveries(client, ids);
    const hopsRouted: string[] = [];
    let batches = 0;
    running = await startTestWorker(
      wholeBatch((input) => {
        batches += 1;
        if (batches === 1) throw ApplicationFailure.nonRetryable('batch refused', 'OperatorRejected');
        return routeEachHop(routedOnce(hopsRouted), input, 10_000);
      }),
      taskQueue,
    );
    const done = await everyLaneRouted(client, shard, ids.length);
    expect(done.totals.failedResources).toBe(0);
    // Each lane saw the batch's failure and came back with its own backoff.
    for (const lane of done.recent) expect(lane.lastFailure?.message).toContain('batch refused');
    expect(hopsRouted.sort()).toEqual([...ids].sort());
    const [first, ...later] = await activitiesScheduled(client, shard);
    expect(first).toEqual({ type: 'routeEvents', resources: ids });
    expect(later.every(({ type }) => type === 'routeEvents')).toBe(true);
    expect(later.flatMap(({ resources }) => resources).sort()).toEqual([...ids].sort());
  });
});

/**
 * A router started with a transaction delivery for each of `ids` waiting in its history and no worker yet, so that
 * the first workflow task starts every lane at once and their hops go in one batch.
 */
async function shardWithWaitingDeliveries(client: Client, ids: string[]) {
  const taskQueue = `test-${randomUUID()}`;
  const shard = `routes/${taskQueue}/0`;
  const timings = fastTimings({ activityRetryInitialMs: 100, activityScheduleToCloseMs: 5_000 });
  await client.workflow.start(WORKFLOW_TYPES.webhookRouter, {
    workflowId: shard,
    taskQueue,
    args: [{ router: shard, timings }],
  });
  for (const resourceId of ids)
    await client.workflow.getHandle(shard).signal(webhookDeliveriesSignal, deliveries(resourceId, timings));
  return { taskQueue, shard };
}

async function everyLaneRouted(client: Client, shard: string, lanes: number): Promise<RouterState> {
  return waitFor('every lane routed', async () => {
    const state = await client.workflow.getHandle(shard).query(routerStateQuery);
    return state.totals.resourcesRouted === lanes ? state : undefined;
  });
}

/** Every activity the router scheduled, in order, with the resources of its hops. */
async function activitiesScheduled(client: Client, shard: string) {
  const events = (await client.workflow.getHandle(shard).fetchHistory()).events ?? [];
  return events.flatMap((event) => {
    const attributes = event.activityTaskScheduledEventAttributes;
    if (!attributes) return [];
    const input = JSON.parse(
      Buffer.from(attributes.input!.payloads![0]!.data!).toString(),
    ) as RouteEventsInput;
    return [{ type: attributes.activityType?.name, resources: input.hops.map((hop) => hop.resourceId) }];
  });
}

/** A routeEvent that records the resource it routed and forwards it to its off-ramp. */
function routedOnce(routed: string[]) {
  return (input: RouteEventInput): Promise<RoutedEvent> => {
    routed.push(input.resourceId);
    return Promise.resolve({
      status: 'created',
      outcome: { workflowId: offRampWorkflowId(input.resourceId) },
    });
  };
}

/** Stub activities whose routeEvents is `routeEvents` itself, for failures of the batch as a whole. */
function wholeBatch(routeEvents: (input: RouteEventsInput) => Promise<HopResult[]>): RampActivities {
  return { routeEvents } as unknown as RampActivities;
}

/** A worker whose routeEvent records each resource it routes, and fails (retryably) while `operatorDown()`. */
function routingWorker(taskQueue: string, routed: Set<string>, operatorDown = () => false) {
  const routeEvent = (input: RouteEventInput): Promise<RoutedEvent> => {
    if (operatorDown())
      return Promise.reject(ApplicationFailure.retryable('operator unavailable', 'OperatorUnavailable'));
    routed.add(input.resourceId);
    return Promise.resolve({
      status: 'created',
      outcome: { workflowId: offRampWorkflowId(input.resourceId) },
    });
  };
  return startTestWorker(withBatches(routeEvent), taskQueue);
}

/** Stub activities: `routeEvent`, and routeEvents batching it as the real one batches the real routeEvent. */
function withBatches(routeEvent: (input: RouteEventInput) => Promise<RoutedEvent>): RampActivities {
  const activities = {
    routeEvent,
    routeEvents: (input: RouteEventsInput) => routeEachHop(routeEvent, input, 10_000),
  };
  return activities as unknown as RampActivities;
}

describe('a router behind the receiver (receiver + dev server, stub activities)', () => {
  let client: Client;
  let running: RunningTestWorker | undefined;
  let receiver: RunningReceiver | undefined;

  beforeAll(async () => {
    ({ client } = await connectTestClient());
  });
  afterEach(async () => {
    await receiver?.close();
    await running?.stop();
    running = receiver = undefined;
  });

  test('deliveries that arrive while a signal to their router is on its way go together in one signal, each answered', async () => {
    const taskQueue = `test-${randomUUID()}`;
    const routed = new Set<string>();
    running = await routingWorker(taskQueue, routed);
    receiver = await startReceiver(testReceiverConfig(), {
      temporal: client,
      taskQueue,
      timings: fastTimings(),
      logger: captureLines().logger,
    });
    const ids = idsOfFirstRouter(taskQueue, 20);
    const answers = await Promise.all(
      ids.map((id) =>
        postToReceiver(
          receiver!.recipientUrls.transaction,
          JSON.stringify({ data: { eventType: 'transaction-created', payload: { id } } }),
        ),
      ),
    );
    const router = `routes/${taskQueue}/0`;
    expect(answers.map((answer) => answer.status)).toEqual(ids.map(() => 200));
    expect(
      answers.every((answer) => (JSON.parse(answer.body) as { workflowId: string }).workflowId === router),
    ).toBe(true);
    await waitFor('every delivery routed', () =>
      Promise.resolve(routed.size === ids.length ? true : undefined),
    );
    const signals = ((await client.workflow.getHandle(router).fetchHistory()).events ?? []).flatMap(
      (event) => {
        const signaled = event.workflowExecutionSignaledEventAttributes;
        if (!signaled) return [];
        const input = JSON.parse(
          Buffer.from(signaled.input!.payloads![0]!.data!).toString(),
        ) as RouterDeliveries;
        return [input.deliveries.map((delivery) => delivery.event.resourceId)];
      },
    );
    // Every delivery is in exactly one signal, and some signals carried several.
    expect(signals.flat().sort()).toEqual([...ids].sort());
    expect(signals.length).toBeLessThan(ids.length);
    expect(signals.some((resources) => resources.length > 1)).toBe(true);
    const state = await client.workflow.getHandle(router).query(routerStateQuery);
    expect(state.totals.eventsReceived).toBe(ids.length);
    await recordHistory(client, router, 'router-signal-batches', { running: true });
  });

  test('once its history is long, its deliveries are answered 503; when a worker comes, every accepted one is routed', async () => {
    const taskQueue = `test-${randomUUID()}`;
    const { logger, lines } = captureLines();
    receiver = await startReceiver(testReceiverConfig(), {
      temporal: client,
      taskQueue,
      timings: fastTimings(),
      logger,
      routerOverflow: { overflowAtEvents: 12, checkEveryMs: 0 },
    });
    const ids = idsOfFirstRouter(taskQueue, 20);
    const statuses: number[] = [];
    for (const id of ids) {
      const answer = await postToReceiver(
        receiver.recipientUrls.transaction,
        JSON.stringify({ data: { eventType: 'transaction-created', payload: { id } } }),
      );
      statuses.push(answer.status);
    }
    // No worker: the router's history only grows (3 events for its start, 1 per signal). From 12 events on, each
    // delivery is refused with 503, for the operator to retry.
    const accepted = statuses.filter((status) => status === 200).length;
    expect(accepted).toBeGreaterThanOrEqual(9);
    expect(accepted).toBeLessThan(ids.length);
    expect(statuses).toEqual(ids.map((_, index) => (index < accepted ? 200 : 503)));
    expect(
      lines().some(
        (line) =>
          line.msg ===
          'Router is not keeping up: its deliveries are answered 503 until it does (the operator retries them)',
      ),
    ).toBe(true);

    const routed = new Set<string>();
    running = await routingWorker(taskQueue, routed);
    await waitFor('every accepted delivery routed', () =>
      Promise.resolve(routed.size === accepted ? true : undefined),
    );
    expect([...routed].sort()).toEqual(ids.slice(0, accepted).sort());
  });

  test('a router holding as many resources as it should says so, and its new deliveries are answered 503 until it does not', async () => {
    const taskQueue = `test-${randomUUID()}`;
    const router = `routes/${taskQueue}/0`;
    const timings = fastTimings({ activityStartToCloseMs: 300, activityScheduleToCloseMs: 400 });
    let operatorBack = false;
    const routed = new Set<string>();
    running = await routingWorker(taskQueue, routed, () => !operatorBack);
    // The router the receiver would start, with room for 3 resources.
    await client.workflow.start(WORKFLOW_TYPES.webhookRouter, {
      workflowId: router,
      taskQueue,
      args: [{ router, timings, maxLanes: 3 }],
    });
    receiver = await startReceiver(testReceiverConfig(), {
      temporal: client,
      taskQueue,
      timings,
      logger: captureLines().logger,
      routerOverflow: { checkEveryMs: 0 },
    });
    const ids = idsOfFirstRouter(taskQueue, 8);
    const post = (id: string) =>
      postToReceiver(
        receiver!.recipientUrls.transaction,
        JSON.stringify({ data: { eventType: 'transaction-created', payload: { id } } }),
      );
    // The router's memo changes when its workflow task completes: each delivery gives it that long.
    const statuses: number[] = [];
    for (const id of ids) {
      statuses.push((await post(id)).status);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(statuses).toEqual([200, 200, 200, 503, 503, 503, 503, 503]);
    const held = await client.workflow.getHandle(router).query(routerStateQuery);
    expect(held.active.map((lane) => lane.resourceId).sort()).toEqual(ids.slice(0, 3).sort());
    expect((await client.workflow.getHandle(router).describe()).memo).toMatchObject({ overloaded: true });

    operatorBack = true;
    await waitFor('every accepted delivery routed', () =>
      Promise.resolve(routed.size === 3 ? true : undefined),
    );
    await waitFor('the router to take new resources again', async () => {
      const description = await client.workflow.getHandle(router).describe();
      return description.memo?.overloaded === false ? description : undefined;
    });
    // The operator retries a refused delivery: now it is taken and routed.
    expect((await post(ids[3]!)).status).toBe(200);
    await waitFor('the retried delivery routed', () =>
      Promise.resolve(routed.has(ids[3]!) ? true : undefined),
    );
  });
});
