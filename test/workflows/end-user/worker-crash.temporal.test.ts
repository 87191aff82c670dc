/**
 * A worker killed (SIGKILL, its own process) at each instant of the CreateWallet round trip: after the request is
 * journaled, while the request is in flight at the operator, after the operator answered, after the answer is
 * journaled. A new worker takes over. Whatever the instant, the user is shown exactly one wallet, and every other
 * wallet the operator may hold for the user's label is recorded on the user's process (its query and the Web UI;
 * the typed client and the HTTP API show the wallet shown) and raised as an incident. Besides:
 * - a live attempt slower than its heartbeat timeout is not taken for a dead one: no second attempt creates beside it;
 * - a worker frozen (SIGSTOP) with its request in flight is taken for dead, but the retry on another worker waits for
 *   that request instead of creating beside it;
 * - an answer the server holds back behind a dead worker's workflow task is waited for, not created over.
 */
import { freshTestDatabase } from '../../helpers/database';
import { randomUUID } from 'node:crypto';
import { temporal as proto } from '@temporalio/proto';
import pino from 'pino';
import request from 'supertest';
import { createActivities } from '../../../activities';
import { createApiApp } from '../../../src/api/app';
import { RampClient } from '../../../src/client/ramp-client';
import { SecretString } from '../../../src/secrets/secret-string';
import type { RunningSandbox } from '../../../src/sandbox/server';
import type { EndUserState } from '../../../workflows/end-user/types';
import type { WorkflowTimings } from '../../../src/domain/timings';
import { connectTestClient, fastTimings, startTestWorker, testServer } from '../../helpers/temporal';
import { recordHistory } from '../../helpers/histories';
import { operatorEnv, operatorFor, startTestSandbox, waitFor } from '../../helpers/client-stack';
import { DEFAULT_PROCESS_IDS, endUserWorkflowId } from '../../../src/domain/ids';
import { endUserStateQuery } from '../../../workflows/end-user/messages';
import { ledgerIdempotency } from '../../../src/api/idempotency';
import { testActivityConfig } from '../../helpers/activities';
import { type KillableWorker, startWorkerProcess } from '../../helpers/killable-worker';

const { PendingActivityState, PendingWorkflowTaskState } = proto.api.enums.v1;

const API_KEY = 'worker-crash-api-key-2b7e';
const SLOW_MS = 2_500;

/** A worker found dead within seconds (heartbeat 3 s), and time for several attempts. */
const crashTimings = () =>
  fastTimings({
    activityHeartbeatMs: 3_000,
    activityStartToCloseMs: 8_000,
    activityScheduleToCloseMs: 90_000,
  });

/** Every wallet the operator may hold besides the one shown, as the user's process records it. */
const recordedExtras = (state: EndUserState) =>
  state.orphanWallets.length + state.walletJournal.unconfirmed.length;

/** A task queue of its own, with its own incident store, and the typed client for it. */
async function walletTestSetup(name: string, timings: WorkflowTimings) {
  const { client, connection } = await connectTestClient();
  const database = await freshTestDatabase();
  const taskQueue = `${name}-${randomUUID()}`;
  const processIds = { ...DEFAULT_PROCESS_IDS };
  const ramp = new RampClient({
    database,
    connection,
    namespace: testServer().namespace,
    taskQueue,
    timings,
    processIds,
  });
  /** The end user's own record of its wallets (journal, orphans): the workflow's query. */
  const endUserState = (endUserId: string) =>
    client.workflow.getHandle(endUserWorkflowId(endUserId)).query(endUserStateQuery);
  return { client, connection, database, taskQueue, processIds, ramp, endUserState };
}

type WalletTestSetup = Awaited<ReturnType<typeof walletTestSetup>>;

/** A worker in this process with the real activities, against the sandbox. */
function inProcessWorker(
  sandbox: RunningSandbox,
  { client, processIds, taskQueue, database }: WalletTestSetup,
) {
  return startTestWorker(
    createActivities({
      ledger: database.db,
      operator: operatorFor(sandbox),
      temporal: client,
      logger: pino({ level: 'silent' }),
      config: testActivityConfig({ processIds }),
    }),
    taskQueue,
  );
}

/** The wallets the operator holds for an end user's label. */
const operatorWalletsOf = (sandbox: RunningSandbox, endUserId: string) =>
  [...sandbox.state.wallets.values()].filter((wallet) => wallet.externalUserId === `end-user:${endUserId}`);

type KillPoint = 'request-journaled' | 'request-sent' | 'operator-answered' | 'answer-journaled';

/** Wallets at the operator after each instant: created before the kill (the lost one) and by the retry. */
const EXPECTED: Record<KillPoint, { operatorWallets: number; extras: number }> = {
  // Killed before CreateWallet went out: the retry creates the only wallet; the journaled request stays on record
  // as "may exist" (from the outside it cannot be told apart from a request that reached the operator).
  'request-journaled': { operatorWallets: 1, extras: 1 },
  // The operator completes the request after the worker died: a wallet whose ID nobody received.
  'request-sent': { operatorWallets: 2, extras: 1 },
  'operator-answered': { operatorWallets: 2, extras: 1 },
  // The answer was journaled: the retry returns it and creates nothing.
  'answer-journaled': { operatorWallets: 1, extras: 0 },
};

describe('worker killed inside the CreateWallet round trip (real dev server + sandbox over HTTP)', () => {
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: Math.floor(Math.random() * 2 ** 31) });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const SHORT_HEARTBEAT_MS = 2_000;
  const shortHeartbeatTimings = (startToCloseMs: number) =>
    fastTimings({
      activityHeartbeatMs: SHORT_HEARTBEAT_MS,
      activityStartToCloseMs: startToCloseMs,
      activityScheduleToCloseMs: 90_000,
    });

  /** One request on record, nothing extra, and the operator holds only the wallet shown. */
  async function expectOnlyTheWalletShown(
    setup: WalletTestSetup,
    endUserId: string,
    wallet: { walletId: string },
  ) {
    // An attempt beside the first would have journaled a request of its own before creating.
    const state = await setup.endUserState(endUserId);
    expect(state.walletJournal.requests).toHaveLength(1);
    expect(recordedExtras(state)).toBe(0);
    expect(operatorWalletsOf(sandbox, endUserId).map((record) => record.id)).toEqual([wallet.walletId]);
  }

  test.each(Object.keys(EXPECTED) as KillPoint[])(
    'killed at %s: one wallet shown, every other operator wallet recorded and raised',
    async (point) => {
      const setup = await walletTestSetup('crash', crashTimings());
      const { client, taskQueue, ramp } = setup;
      const endUserId = `crash-${point}-${randomUUID().slice(0, 8)}`;
      const operatorWallets = () => operatorWalletsOf(sandbox, endUserId);
      let worker: KillableWorker | undefined;
      let replacement: Awaited<ReturnType<typeof startTestWorker>> | undefined;
      try {
        if (point === 'request-sent')
          sandbox.setFaults({ api: { slowMs: SLOW_MS, routes: ['createWallet'] } });
        worker = await startWorkerProcess({
          ...operatorEnv(sandbox),
          TASK_QUEUE: taskQueue,
          DATABASE_URL: setup.database.url,
          KILL_POINT: point,
        });
        const shown = ramp.ensureDepositWallet(endUserId);
        shown.catch(() => undefined);

        await worker.printed(`kill-point:${point}`);
        // In flight: the slowed sandbox holds the request; give it time to arrive before the kill.
        if (point === 'request-sent') await new Promise((resolve) => setTimeout(resolve, 300));
        await worker.kill();
        if (point === 'request-sent') {
          await waitFor(
            () => operatorWallets().length === 1,
            'the operator to complete the request of the killed worker',
            SLOW_MS + 5_000,
          );
        }
        sandbox.setFaults({});

        replacement = await inProcessWorker(sandbox, setup);
        const wallet = await shown;
        const again = await Promise.all([
          ramp.ensureDepositWallet(endUserId),
          ramp.getDepositWallet(endUserId),
        ]);
        expect(again).toEqual([wallet, wallet]);

        const state = await setup.endUserState(endUserId);
        const operatorSide = operatorWallets().map((record) => record.id);
        process.stdout.write(
          `[worker-crash ${point}] ${JSON.stringify({ operatorWallets: operatorSide.length, orphans: state.orphanWallets.length, unconfirmed: state.walletJournal.unconfirmed.length })}\n`,
        );

        // One wallet shown, a real wallet of this user at the operator.
        expect(operatorSide).toContain(wallet.walletId);
        expect(state.wallet?.walletId).toBe(wallet.walletId);
        expect(operatorSide).toHaveLength(EXPECTED[point].operatorWallets);
        // Nothing unrecorded: every wallet besides the one shown is an orphan (ID known) or an unanswered request.
        expect(recordedExtras(state)).toBe(EXPECTED[point].extras);
        expect(recordedExtras(state)).toBeGreaterThanOrEqual(operatorSide.length - 1);
        for (const orphan of state.orphanWallets) expect(operatorSide).toContain(orphan.walletId);
        expect(state.walletJournal.requests.length).toBeGreaterThanOrEqual(1);

        // The HTTP API shows the wallet shown, read from the ledger.
        const api = createApiApp({
          ramp,
          idempotency: ledgerIdempotency(setup.database.db),
          apiKey: new SecretString(API_KEY),
          logger: pino({ level: 'silent' }),
        });
        const read = await request(api)
          .get(`/v1/end-users/${endUserId}`)
          .set('Authorization', `Bearer ${API_KEY}`);
        expect(read.status).toBe(200);
        expect(read.body.data).toMatchObject({
          walletStatus: 'ready',
          wallet: { walletId: wallet.walletId },
        });

        // Raised once as an incident for the operations team (only when there is something to close).
        const incidents = await waitFor(async () => {
          const alerts = await ramp.listAlerts({ kind: 'extra-wallet', limit: 100 });
          const open = alerts.data.filter(
            (incident) => incident.key === `extra-wallet/end-user/${endUserId}`,
          );
          return EXPECTED[point].extras === 0 || open.length > 0 ? open : undefined;
        }, 'the extra-wallet incident');
        expect(incidents).toHaveLength(EXPECTED[point].extras === 0 ? 0 : 1);
        if (point === 'operator-answered')
          await recordHistory(client, `end-user/${endUserId}`, 'end-user-extra-wallet-incident', {
            running: true,
          });
      } finally {
        await worker?.kill();
        sandbox.setFaults({});
        await replacement?.stop();
        await setup.connection.close();
        await setup.database.close();
      }
    },
  );

  test('a live attempt slower than its heartbeat timeout is not retried beside itself: one wallet', async () => {
    // CreateWallet takes more than twice the heartbeat timeout, and fits in the attempt.
    const setup = await walletTestSetup('slow', shortHeartbeatTimings(15_000));
    const { connection, ramp } = setup;
    const endUserId = `slow-${randomUUID().slice(0, 8)}`;
    const worker = await inProcessWorker(sandbox, setup);
    try {
      sandbox.setFaults({ api: { slowMs: SHORT_HEARTBEAT_MS * 2.5, routes: ['createWallet'] } });
      await expectOnlyTheWalletShown(setup, endUserId, await ramp.ensureDepositWallet(endUserId));
    } finally {
      sandbox.setFaults({});
      await worker.stop();
      await connection.close();
      await setup.database.close();
    }
  });

  test('a worker frozen with CreateWallet in flight: the retry elsewhere waits for its answer, one wallet', async () => {
    const setup = await walletTestSetup('frozen', shortHeartbeatTimings(20_000));
    const { client, connection, ramp, taskQueue } = setup;
    const endUserId = `frozen-${randomUUID().slice(0, 8)}`;
    let frozen: KillableWorker | undefined;
    let other: Awaited<ReturnType<typeof startTestWorker>> | undefined;
    try {
      sandbox.setFaults({ api: { slowMs: SLOW_MS, routes: ['createWallet'] } });
      // One activity slot: busy with the frozen attempt, the frozen worker holds no poll open for the retry.
      frozen = await startWorkerProcess({
        ...operatorEnv(sandbox),
        TASK_QUEUE: taskQueue,
        DATABASE_URL: setup.database.url,
        KILL_POINT: 'request-sent',
        WORKER_MAX_CONCURRENT_ACTIVITIES: '1',
        // Its request must outlast the freeze: its deadline is then 90 % of the attempt (18 s).
        OPERATOR_REQUEST_TIMEOUT: '30s',
      });
      const shown = ramp.ensureDepositWallet(endUserId);
      shown.catch(() => undefined);
      await frozen.printed('kill-point:request-sent');
      await new Promise((resolve) => setTimeout(resolve, 300));
      frozen.freeze();
      other = await inProcessWorker(sandbox, setup);

      // The server takes the silent attempt for dead and retries it on the other worker, which finds the request
      // journaled without an answer, and waits while the operator completes it for the frozen worker.
      const frozenIdentity = `${frozen.child.pid}@`;
      await waitFor(
        async () => {
          const { raw } = await client.workflow.getHandle(`end-user/${endUserId}`).describe();
          const activity = raw.pendingActivities?.[0];
          return (
            (activity?.attempt ?? 0) >= 2 &&
            activity?.state === PendingActivityState.PENDING_ACTIVITY_STATE_STARTED &&
            !activity.lastWorkerIdentity?.startsWith(frozenIdentity)
          );
        },
        'the retry of the silent attempt, started on the other worker',
        30_000,
      );
      await waitFor(
        () => operatorWalletsOf(sandbox, endUserId).length === 1,
        "the operator to complete the frozen worker's request",
        SLOW_MS + 5_000,
      );
      frozen.thaw();
      await expectOnlyTheWalletShown(setup, endUserId, await shown);
    } finally {
      frozen?.thaw();
      await frozen?.kill();
      sandbox.setFaults({});
      await other?.stop();
      await connection.close();
      await setup.database.close();
    }
  }, 120_000);

  test("an answer held back behind a dead worker's workflow task is waited for: one wallet", async () => {
    const setup = await walletTestSetup('held-back', crashTimings());
    const { client, connection, ramp, taskQueue } = setup;
    const endUserId = `held-back-${randomUUID().slice(0, 8)}`;
    const owner = client.workflow.getHandle(`end-user/${endUserId}`);
    const env = { ...operatorEnv(sandbox), TASK_QUEUE: taskQueue, DATABASE_URL: setup.database.url };
    let workflows: KillableWorker | undefined;
    let activities: KillableWorker | undefined;
    let replacement: Awaited<ReturnType<typeof startTestWorker>> | undefined;
    try {
      workflows = await startWorkerProcess({ ...env, WORKER_ROLE: 'workflows' });
      activities = await startWorkerProcess({
        ...env,
        WORKER_ROLE: 'activities',
        PAUSE_POINT: 'request-journal',
        KILL_POINT: 'answer-journaled',
      });
      const shown = ramp.ensureDepositWallet(endUserId);
      shown.catch(() => undefined);
      await activities.printed('pause-point:request-journal');
      // Frozen with its polls open, the workflow worker is handed the owner's task for the request signal and never
      // ends it: the answer signal that follows is held back from the history.
      await new Promise((resolve) => setTimeout(resolve, 500));
      workflows.freeze();
      activities.resume();
      await activities.printed('kill-point:answer-journaled');
      const { raw } = await owner.describe();
      expect(raw.pendingWorkflowTask?.state).toBe(
        PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_STARTED,
      );
      const { events } = await owner.fetchHistory();
      const signals = (events ?? []).map(
        (event) => event.workflowExecutionSignaledEventAttributes?.signalName,
      );
      expect(signals).toContain('walletCreationRequested');
      expect(signals).not.toContain('walletCreated');

      await activities.kill();
      await workflows.kill();
      replacement = await inProcessWorker(sandbox, setup);
      await expectOnlyTheWalletShown(setup, endUserId, await shown);
    } finally {
      await activities?.kill();
      await workflows?.kill();
      await replacement?.stop();
      await connection.close();
      await setup.database.close();
    }
  }, 120_000);
});
