/**
 * The end-user workflow on the real dev server, with a stubbed operator (the operator-level behaviour is tested
 * against the sandbox in the other process tests). Covers the patterns every ramp process uses: update-with-start,
 * a signal (the wallet-creation journal), a query, and search attributes.
 */
import { freshTestDatabase, type TestDatabase } from '../../helpers/database';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { createActivities, type RampActivities } from '../../../activities';
import type { OperatorClient } from '../../../src/operator/client';
import { deadlinePassed } from '../../../src/operator/errors';
import { RampClient } from '../../../src/client/ramp-client';
import { endUserWorkflowId } from '../../../src/domain/ids';
import { EndUserId, WalletId } from '../../../src/domain/search-attributes';
import { endUserWorkflow } from '../../../workflows/end-user/workflow';
import { endUserStateQuery } from '../../../workflows/end-user/messages';
import { walletCreationRequestedSignal } from '../../../workflows/wallet-creation/messages';
import { recordHistory } from '../../helpers/histories';
import {
  connectTestClient,
  fastTimings,
  type RunningTestWorker,
  startTestWorker,
  testServer,
} from '../../helpers/temporal';
import { testActivityConfig } from '../../helpers/activities';

/** A stand-in operator that counts wallet creations; enough for workflow-level behaviour. */
function countingOperator() {
  const created: string[] = [];
  const operator = {
    ensureSession: () => Promise.resolve(),
    createWallet: ({ externalUserId }: { externalUserId: string }) => {
      created.push(externalUserId);
      return Promise.resolve({ id: `wallet-${created.length}`, externalUserId, networks: [], balances: [] });
    },
    getWalletAddresses: (walletId: string) =>
      Promise.resolve([
        {
          id: walletId,
          address: `0x${walletId.replace(/\D/g, '').padStart(40, 'a')}`,
          network: {
            name: 'networks/ethereum-mainnet',
            displayName: 'Ethereum',
            isCustom: false,
            isTestnet: false,
          },
          balances: [],
        },
      ]),
  };
  return { created, operator: operator as unknown as OperatorClient };
}

describe('end-user workflow on the real Temporal dev server', () => {
  let client: Client;
  let connection: Connection;
  let running: RunningTestWorker | undefined;
  let database: TestDatabase;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
  });
  // Each test its own ledger: the stub operator names every test's wallet wallet-1, and a wallet has one owner.
  beforeEach(async () => {
    database = await freshTestDatabase();
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    await database.close();
  });
  afterAll(async () => {
    await connection.close();
  });

  function rampClient(taskQueue: string) {
    const { namespace } = testServer();
    return new RampClient({ database: database, connection, namespace, taskQueue, timings: fastTimings() });
  }

  test('20 concurrent update-with-start calls create one wallet and every caller gets it', async () => {
    const { created, operator } = countingOperator();
    running = await startTestWorker(
      createActivities({
        ledger: database.db,
        operator,
        temporal: client,
        logger: pino({ level: 'silent' }),
        config: testActivityConfig(),
      }),
    );
    const ramp = rampClient(running.taskQueue);
    const endUserId = `user-${Date.now()}`;

    const wallets = await Promise.all(Array.from({ length: 20 }, () => ramp.ensureDepositWallet(endUserId)));

    expect(created).toEqual([`end-user:${endUserId}`]);
    expect(new Set(wallets.map((wallet) => wallet.walletId))).toEqual(new Set(['wallet-1']));
    expect(wallets[0]!.addresses).toHaveLength(1);

    const state = await client.workflow.getHandle(endUserWorkflowId(endUserId)).query(endUserStateQuery);
    expect(state.walletStatus).toBe('ready');
    expect(state.wallet?.walletId).toBe('wallet-1');

    const description = await client.workflow.getHandle(endUserWorkflowId(endUserId)).describe();
    expect(description.typedSearchAttributes.get(EndUserId)).toBe(endUserId);
    expect(description.typedSearchAttributes.get(WalletId)).toBe('wallet-1');

    await recordHistory(client, endUserWorkflowId(endUserId), 'end-user-wallet-created', { running: true });
  });

  test('a completion lost after the journal signal does not create a second wallet', async () => {
    const { created, operator } = countingOperator();
    const real = createActivities({
      ledger: database.db,
      operator,
      temporal: client,
      logger: pino({ level: 'silent' }),
      config: testActivityConfig(),
    });
    const activities: RampActivities = {
      ...real,
      // Attempt 1 reaches the operator and journals, then "dies" before reporting: the retry must reuse the journal.
      async createDepositWallet(input) {
        const result = await real.createDepositWallet(input);
        if (Context.current().info.attempt === 1)
          throw ApplicationFailure.retryable('worker lost before completing');
        return result;
      },
    };
    running = await startTestWorker(activities);
    const endUserId = `crash-${Date.now()}`;

    const wallet = await rampClient(running.taskQueue).ensureDepositWallet(endUserId);

    expect(created).toHaveLength(1);
    expect(wallet.walletId).toBe('wallet-1');
    const state = await client.workflow.getHandle(endUserWorkflowId(endUserId)).query(endUserStateQuery);
    expect(state.walletJournal.journaled?.walletId).toBe('wallet-1');
    expect(state.orphanWallets).toEqual([]);
  });

  test('a new creation after one that ended with its request unanswered is told how long to wait for it', async () => {
    const { operator } = countingOperator();
    const real = createActivities({
      ledger: database.db,
      operator,
      temporal: client,
      logger: pino({ level: 'silent' }),
      config: testActivityConfig(),
    });
    const inputs: Parameters<RampActivities['createDepositWallet']>[0][] = [];
    const activities: RampActivities = {
      ...real,
      // The first activity journals a request and ends without an answer (as when its schedule-to-close passes with
      // the request in flight); the next one is a new activity, attempt 1.
      async createDepositWallet(input) {
        inputs.push(input);
        if (inputs.length > 1) return real.createDepositWallet(input);
        await client.workflow.getHandle(input.workflowId).signal(walletCreationRequestedSignal, {
          requestId: 'earlier/1#1',
          attempt: 1,
          externalUserId: `end-user:${input.endUserId}`,
          inFlightForMs: 1_500,
        });
        throw ApplicationFailure.nonRetryable('ended with its request in flight');
      },
    };
    running = await startTestWorker(activities);
    const ramp = rampClient(running.taskQueue);
    const endUserId = `earlier-${Date.now()}`;

    await expect(ramp.ensureDepositWallet(endUserId)).rejects.toThrow();
    const wallet = await ramp.ensureDepositWallet(endUserId);

    const state = await client.workflow.getHandle(endUserWorkflowId(endUserId)).query(endUserStateQuery);
    const earlier = state.walletJournal.requests.find((entry) => entry.requestId === 'earlier/1#1');
    expect(earlier?.inFlightForMs).toBe(1_500);
    expect(inputs).toHaveLength(2);
    expect(inputs[0]!.earlierRequestsOpenUntilMs).toBeUndefined();
    expect(inputs[1]!.earlierRequestsOpenUntilMs).toBe(Date.parse(earlier!.requestedAt) + 1_500);
    expect(wallet.walletId).toBe('wallet-1');
    // The earlier request stays on record as one the operator may have carried out.
    expect(state.walletJournal.unconfirmed.map((entry) => entry.requestId)).toEqual(['earlier/1#1']);
    await recordHistory(client, endUserWorkflowId(endUserId), 'end-user-wallet-failed-then-created', {
      running: true,
    });
  });

  test('a CreateWallet never carried out is journaled as not sent: the retry creates at once, nothing is reported', async () => {
    const { created, operator } = countingOperator();
    let sends = 0;
    const refusingFirst = Object.assign(Object.create(operator) as OperatorClient, {
      requestTimeoutMs: 4_000,
      // The first send's deadline passes in a re-login after a 401, as the operator client reports it.
      createWallet: (...args: Parameters<OperatorClient['createWallet']>) =>
        ++sends === 1 ? Promise.reject(deadlinePassed('createWallet')) : operator.createWallet(...args),
    });
    const real = createActivities({
      ledger: database.db,
      operator: refusingFirst,
      temporal: client,
      logger: pino({ level: 'silent' }),
      config: testActivityConfig(),
    });
    const attempts: number[] = [];
    running = await startTestWorker({
      ...real,
      async createDepositWallet(input) {
        attempts.push(Context.current().info.attempt);
        return real.createDepositWallet(input);
      },
    });
    const endUserId = `not-sent-${Date.now()}`;

    const wallet = await rampClient(running.taskQueue).ensureDepositWallet(endUserId);

    expect(created).toHaveLength(1);
    expect(wallet.walletId).toBe('wallet-1');
    // The second attempt did not wait out the first request's 4 s window (it would have failed at least once with
    // RequestMayBeInFlight: its journal budget is 40 % of the 5 s attempt).
    expect(attempts).toEqual([1, 2]);
    const state = await client.workflow.getHandle(endUserWorkflowId(endUserId)).query(endUserStateQuery);
    expect(state.walletJournal.requests).toEqual([
      expect.objectContaining({ attempt: 1, notSent: true }),
      expect.objectContaining({ attempt: 2, answeredWalletId: 'wallet-1' }),
    ]);
    // Not a wallet the operator may hold: no unconfirmed creation, no incident.
    expect(state.walletJournal.unconfirmed).toEqual([]);
    expect(state.extraWalletsReported).toBe(0);

    await recordHistory(client, endUserWorkflowId(endUserId), 'end-user-wallet-creation-not-sent', {
      running: true,
    });
  });

  test('continues as new before its history grows large, carrying the wallet; callers keep getting it', async () => {
    const { created, operator } = countingOperator();
    running = await startTestWorker(
      createActivities({
        ledger: database.db,
        operator,
        temporal: client,
        logger: pino({ level: 'silent' }),
        config: testActivityConfig(),
      }),
    );
    const endUserId = `long-${Date.now()}`;
    const handle = await client.workflow.start(endUserWorkflow, {
      workflowId: endUserWorkflowId(endUserId),
      taskQueue: running.taskQueue,
      args: [
        { endUserId, endUserSearchValue: endUserId, timings: fastTimings(), continueAsNewAfterEvents: 40 },
      ],
    });
    const ramp = rampClient(running.taskQueue);
    const first = await ramp.ensureDepositWallet(endUserId);
    // Each call adds events (update accepted and completed, workflow tasks) until the run hands over.
    for (let call = 0; call < 15; call += 1) expect(await ramp.ensureDepositWallet(endUserId)).toEqual(first);

    const state = await client.workflow.getHandle(endUserWorkflowId(endUserId)).query(endUserStateQuery);
    expect(state.runs).toBeGreaterThan(1);
    expect(state.wallet).toEqual(first);
    expect(created).toHaveLength(1);
    const latest = await client.workflow.getHandle(endUserWorkflowId(endUserId)).describe();
    expect(latest.runId).not.toBe(handle.firstExecutionRunId);
    expect(latest.typedSearchAttributes.get(WalletId)).toBe(first.walletId);
    // The first run, which ended by continuing as new with the carried state.
    await recordHistory(client, handle.workflowId, 'end-user-continued-as-new', {
      runId: handle.firstExecutionRunId,
    });
  });

  test('an invalid end user ID is refused before reaching Temporal', async () => {
    const ramp = rampClient('unused-queue');
    await expect(ramp.ensureDepositWallet('bad id with spaces')).rejects.toThrow('Invalid end user ID');
    await expect(ramp.getEndUser('')).rejects.toThrow('Invalid end user ID');
  });
});
