/**
 * A release and a rollback on the real dev server, with two builds of the workflows side by side: version A (the
 * product's workflows) and version B (the same with a change that would not replay on A's histories: an on-ramp runs
 * a new activity before the deposit that settles it, test/fixtures/workflows/release-b.ts). A runs on-ramps and an end
 * user; B starts beside it and is made current (src/temporal/worker-deployment.ts, as `npm run release` does). The
 * on-ramps started on A settle on A, new ones run on B, the end user moves to B at its continue-as-new, A drains; then
 * A is made current again (as the CLI would) and the next on-ramp runs on A at once, the end user moving back at its
 * next message. No workflow task fails in any history, and each is completed by the version the run is pinned to.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Client, Connection } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import type { RampActivities } from '../../../activities';
import type { WorkerVersion } from '../../../src/config/worker-version';
import { endUserWorkflowId, onRampWorkflowId, WORKFLOW_TYPES } from '../../../src/domain/ids';
import { deploymentReport, drainage, makeCurrent } from '../../../src/temporal/worker-deployment';
import { WORKFLOWS_PATH } from '../../../src/temporal/worker';
import { RampMetrics } from '../../../src/observability/metrics';
import { endUserStateQuery, offRampLinkedSignal } from '../../../workflows/end-user/messages';
import { onRampOrderSignal, onRampTransactionSignal } from '../../../workflows/ramps/onramp/messages';
import type { OnRampState } from '../../../workflows/ramps/onramp/types';
import type { ReleaseBActivities } from '../../fixtures/workflows/release-b';
import { order, tx } from '../../helpers/ramp-fixtures';
import {
  connectTestClient,
  fastTimings,
  type RunningTestWorker,
  startTestWorker,
} from '../../helpers/temporal';
import { waitFor } from '../../helpers/wait';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

// No step is late while the test drives the ramps, so nothing polls.
const timings = fastTimings({ stepDeadlineMs: 120_000, processTimeoutMs: 300_000 });
const WAIT_MS = 30_000;

describe('a release beside the old version, and a rollback', () => {
  let client: Client;
  let connection: Connection;
  const workers: RunningTestWorker[] = [];

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await connection.close();
  });

  const noPolls = {
    pollOnRamp: () => Promise.reject(new Error('not expected: every step has its event in time')),
  } as unknown as RampActivities;

  /** An on-ramp of a known end user, its order executed: what is left is the deposit that settles it. */
  async function startOnRamp(taskQueue: string, reference: string): Promise<void> {
    const orderId = `order-${reference}`;
    const opened = order(orderId, { orderReference: reference, direction: 'on-ramp', coinFrom: 'MXN' });
    await client.workflow.signalWithStart('onRampWorkflow', {
      workflowId: onRampWorkflowId(reference),
      taskQueue,
      args: [{ orderReference: reference, endUserId: 'user-release', timings }],
      signal: onRampOrderSignal,
      signalArgs: [opened],
    });
    await client.workflow
      .getHandle(onRampWorkflowId(reference))
      .signal(onRampOrderSignal, { ...opened, status: 'executed', transactionId: `dep-${reference}` });
  }

  async function settle(reference: string): Promise<OnRampState> {
    const handle = client.workflow.getHandle(onRampWorkflowId(reference));
    await handle.signal(
      onRampTransactionSignal,
      tx(`dep-${reference}`, { status: 'confirmed', orderId: `order-${reference}`, amount: '49.5' }),
    );
    return (await handle.result()) as OnRampState;
  }

  /** The version a run is pinned to, once its first workflow task completed. */
  const pinnedTo = (workflowId: string, runId?: string) =>
    waitFor(
      async () =>
        (await client.workflow.getHandle(workflowId, runId).describe()).raw.workflowExecutionInfo
          ?.versioningInfo?.deploymentVersion?.buildId,
      `the version ${workflowId} is pinned to`,
      WAIT_MS,
    );

  async function history(workflowId: string, runId?: string): Promise<HistoryEvent[]> {
    return (await client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];
  }

  /** The build IDs that completed the run's workflow tasks, and whether any workflow task failed. */
  function taskVersions(events: HistoryEvent[]): { completedBy: string[]; failedTasks: number } {
    const completedBy = events.flatMap(
      (event) => event.workflowTaskCompletedEventAttributes?.deploymentVersion?.buildId ?? [],
    );
    const failedTasks = events.filter((event) => event.workflowTaskFailedEventAttributes).length;
    return { completedBy: [...new Set(completedBy)], failedTasks };
  }

  const activitiesOf = (events: HistoryEvent[]) =>
    events.flatMap((event) => event.activityTaskScheduledEventAttributes?.activityType?.name ?? []);

  /** Every run of a workflow ID, oldest first. */
  async function runsOf(workflowId: string): Promise<string[]> {
    const runs: Array<{ runId: string; startTime: Date }> = [];
    for await (const run of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runs.push(run);
    return runs.sort((a, b) => a.startTime.getTime() - b.startTime.getTime()).map((run) => run.runId);
  }

  test('B is made current beside A: pinned ramps finish where they started, the end user moves, a rollback is at once', async () => {
    const taskQueue = `release-${randomUUID()}`;
    const A: WorkerVersion = { deploymentName: taskQueue, buildId: 'a' };
    const B: WorkerVersion = { deploymentName: taskQueue, buildId: 'b' };
    const audited: string[] = [];
    const auditDeposit: ReleaseBActivities['auditDeposit'] = (workflowId) => {
      audited.push(workflowId);
      return Promise.resolve();
    };
    const bundleB = await bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      workflowInterceptorModules: [path.join(__dirname, '..', '..', 'fixtures', 'workflows', 'release-b.ts')],
      logger: { info() {}, warn() {}, error() {}, debug() {}, trace() {}, log() {} },
    });

    // ---- version A: current, two on-ramps halfway, an end user
    workers.push(await startTestWorker(noPolls, taskQueue, { version: A }));
    expect(await makeCurrent(client, A, { workersWaitMs: WAIT_MS })).toEqual({
      previous: null,
      told: 0,
      stillElsewhere: 0,
    });
    const early = [`early-1-${randomUUID()}`, `early-2-${randomUUID()}`];
    for (const reference of early) await startOnRamp(taskQueue, reference);
    const endUserId = `release-${randomUUID()}`;
    const endUser = endUserWorkflowId(endUserId);
    await client.workflow.start(WORKFLOW_TYPES.endUser, {
      workflowId: endUser,
      taskQueue,
      args: [{ endUserId, endUserSearchValue: endUserId, timings }],
    });
    for (const reference of early) expect(await pinnedTo(onRampWorkflowId(reference))).toBe('a');
    expect(await pinnedTo(endUser)).toBe('a');

    // ---- version B starts beside A and is made current: the end user is told and hands over
    const workerB = await startTestWorker(
      { ...noPolls, auditDeposit } as unknown as RampActivities,
      taskQueue,
      { version: B, workflowBundle: { code: bundleB.code } },
    );
    workers.push(workerB);
    expect(await makeCurrent(client, B, { workersWaitMs: WAIT_MS, handOverWaitMs: WAIT_MS })).toEqual({
      previous: 'a',
      told: 1,
      stillElsewhere: 0,
    });
    const endUserRuns = await waitFor(async () => {
      const runs = await runsOf(endUser);
      return runs.length === 2 ? runs : undefined;
    }, 'the end user to continue as new');
    expect(await pinnedTo(endUser, endUserRuns[1])).toBe('b');
    const movedState = await client.workflow.getHandle(endUser).query(endUserStateQuery);
    expect(movedState.runs).toBe(2);

    // ---- new on-ramps run on B, with B's new activity
    const late = [`late-1-${randomUUID()}`, `late-2-${randomUUID()}`];
    for (const reference of late) await startOnRamp(taskQueue, reference);
    for (const reference of late) {
      expect(await pinnedTo(onRampWorkflowId(reference))).toBe('b');
      expect((await settle(reference)).status).toBe('settled');
    }
    expect(audited.sort()).toEqual(late.map(onRampWorkflowId).sort());

    // ---- the on-ramps started on A settle on A, without B's activity; A is draining until they end
    expect((await deploymentReport(client, taskQueue)).versions).toEqual([
      { buildId: 'b', state: 'current', running: 1, longLived: 1 },
      { buildId: 'a', state: 'draining', running: 2, longLived: 0 },
    ]);
    expect(await drainage(client, A)).toEqual({ drained: false, reason: '2 workflows still run on a' });
    for (const reference of early) expect((await settle(reference)).status).toBe('settled');
    expect(audited).toHaveLength(late.length);
    const drainedA = await waitFor(
      async () => ((await drainage(client, A)).drained ? true : undefined),
      'version A to drain',
      WAIT_MS,
      500,
    );
    expect(drainedA).toBe(true);

    // ---- each run's tasks were all completed by the version it is pinned to, and none failed
    const expected: Array<[string, string | undefined, string]> = [
      ...early.map((reference): [string, undefined, string] => [onRampWorkflowId(reference), undefined, 'a']),
      ...late.map((reference): [string, undefined, string] => [onRampWorkflowId(reference), undefined, 'b']),
      [endUser, endUserRuns[0], 'a'],
      [endUser, endUserRuns[1], 'b'],
    ];
    for (const [workflowId, runId, buildId] of expected) {
      const events = await history(workflowId, runId);
      expect({ workflowId, ...taskVersions(events) }).toEqual({
        workflowId,
        completedBy: [buildId],
        failedTasks: 0,
      });
      if (workflowId.startsWith('onramp/'))
        expect(activitiesOf(events).includes('auditDeposit')).toBe(buildId === 'b');
    }
    // B's change would not replay on A: had an on-ramp started on A been moved to B, its task would have failed.
    await expect(
      Worker.runReplayHistory(
        { workflowBundle: { code: bundleB.code } },
        { events: await history(onRampWorkflowId(early[0]!)) },
        onRampWorkflowId(early[0]!),
      ),
    ).rejects.toBeInstanceOf(DeterminismViolationError);

    // ---- rollback: A is current again (as `temporal worker deployment set-current-version` makes it)
    await client.workflowService.setWorkerDeploymentCurrentVersion({
      namespace: client.options.namespace,
      deploymentName: taskQueue,
      buildId: 'a',
      identity: 'release test',
    });
    const again = `again-${randomUUID()}`;
    await startOnRamp(taskQueue, again);
    expect(await pinnedTo(onRampWorkflowId(again))).toBe('a');
    expect((await settle(again)).status).toBe('settled');
    expect(audited).toHaveLength(late.length);
    // The end user learns it at its next message (no release told it) and moves back to A.
    await client.workflow.getHandle(endUser).signal(offRampLinkedSignal, { depositTransactionId: 'dep-x' });
    const backRuns = await waitFor(async () => {
      const runs = await runsOf(endUser);
      return runs.length === 3 ? runs : undefined;
    }, 'the end user to move back to A');
    expect(await pinnedTo(endUser, backRuns[2])).toBe('a');
    expect(taskVersions(await history(endUser, backRuns[1]))).toEqual({ completedBy: ['b'], failedTasks: 0 });
    expect(taskVersions(await history(endUser, backRuns[2]))).toEqual({ completedBy: ['a'], failedTasks: 0 });

    // ---- B, now the old version, drains once nothing runs on it, and its worker leaves
    await waitFor(
      async () => ((await drainage(client, B)).drained ? true : undefined),
      'version B to drain',
      WAIT_MS,
      500,
    );
    await workerB.stop();
    const final = await deploymentReport(client, taskQueue);
    expect(final.current).toBe('a');
    expect(final.versions.find((version) => version.buildId === 'b')).toMatchObject({
      state: 'drained',
      running: 0,
    });
    // What the dashboard's versions panel shows: the end user on A, nothing left on B.
    const metrics = new RampMetrics({ temporal: client, workerDeployment: taskQueue });
    await metrics.versionRead;
    const exposition = (await metrics.render()).body;
    metrics.close();
    expect(exposition).toContain('ramp_worker_version_workflows{build_id="a",state="current"} 1');
    expect(exposition).toContain('ramp_worker_version_workflows{build_id="b",state="drained"} 0');
  });
});
