import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { freshTestDatabase, type TestDatabase } from '../../../helpers/database';
import { MockActivityEnvironment } from '@temporalio/testing';
import pino from 'pino';
import type { ActivityDeps } from '../../../../activities/deps';
import { createReconcileActivities } from '../../../../activities/operations/reconcile/activities';
import { OperatorError } from '../../../../src/operator/errors';
import type { Transaction } from '../../../../src/operator/schemas';
import type { WorkflowTimings } from '../../../../src/domain/timings';

/** Passed through to the off-ramps reconciliation starts. */
const TIMINGS = { activityStartToCloseMs: 1000 } as WorkflowTimings;
const TRON = 'networks/tron-mainnet';
const ETHEREUM = 'networks/ethereum-mainnet';

interface FakeProcess {
  type: string;
  /** Query name -> answer (or an error to throw). */
  queries: Record<string, unknown>;
  running?: boolean;
}

/**
 * A Temporal client over a fixed set of processes: list answers by the workflow type named in the query,
 * handles answer queries, record signals, and describe; signal-with-start is recorded.
 */
function fakeTemporal(processes: Record<string, FakeProcess>) {
  const lists: string[] = [];
  const signals: Array<{ workflowId: string; name: string; args: unknown[] }> = [];
  const signalWithStart = jest.fn((_type: string, _options: Record<string, unknown>) => Promise.resolve({}));
  const temporal = {
    withAbortSignal: (_signal: AbortSignal, call: () => unknown) => call(),
    workflow: {
      list: ({ query }: { query: string }) => {
        lists.push(query);
        const ids = Object.entries(processes)
          .filter(([, process]) => process.running !== false)
          .filter(([, process]) =>
            query.includes("RampDirection IN ('on-ramp', 'off-ramp')")
              ? ['offRampWorkflow', 'onRampWorkflow'].includes(process.type)
              : query.includes(`WorkflowType = '${process.type}'`),
          );
        // `for await` walks a plain array as well as a page stream.
        return ids.map(([workflowId, process]) => ({ workflowId, type: process.type }));
      },
      getHandle: (workflowId: string) => ({
        workflowId,
        query: ({ name }: { name: string }) => {
          const answer = processes[workflowId]?.queries[name];
          return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
        },
        signal: ({ name }: { name: string }, ...args: unknown[]) => {
          signals.push({ workflowId, name, args });
          return Promise.resolve();
        },
        describe: () => {
          const process = processes[workflowId];
          if (!process) return Promise.reject(new WorkflowNotFoundError('not found', workflowId, undefined));
          return Promise.resolve({ status: { name: process.running === false ? 'COMPLETED' : 'RUNNING' } });
        },
      }),
      signalWithStart,
    },
  };
  return { temporal, lists, signals, signalWithStart };
}

function tx(id: string, overrides: Partial<Transaction> = {}): Transaction {
  return { id, status: 'confirmed', type: 'Deposit', walletId: 'w-1', ...overrides };
}

let database: TestDatabase;
beforeEach(async () => {
  database = await freshTestDatabase();
});
afterEach(async () => {
  await database.close();
});

function setup(
  processes: Record<string, FakeProcess>,
  operator: Record<string, unknown>,
  taskQueue = 'ramp-queue',
) {
  const fake = fakeTemporal(processes);
  const logger = pino({ level: 'silent' });
  const deps = { operator, temporal: fake.temporal, logger, ledger: database.db } as unknown as ActivityDeps;
  const env = new MockActivityEnvironment({ taskQueue });
  /** Runs one call in the activity context, keeping its result type. */
  const run = <T>(call: () => Promise<T>) => env.run<[], T, () => Promise<T>>(call);
  return { ...fake, run, activities: createReconcileActivities(deps) };
}

describe('reconciling the deposit wallets', () => {
  const ALICE: FakeProcess = {
    type: 'endUserWorkflow',
    queries: { endUserState: { endUserId: 'alice', wallet: { walletId: 'w-1' } } },
  };

  test('starts the off-ramp of a deposit nobody knows, and reports balances no open off-ramp covers', async () => {
    const operator = {
      listWalletTransactions: jest.fn(() =>
        Promise.resolve([
          tx('tx-lost', { network: TRON, asset: 'USDT', amount: '25' }),
          tx('tx-known', { network: TRON, asset: 'USDT', amount: '5' }),
          tx('tx-onramp', { orderId: 'o-1', network: ETHEREUM }),
          tx('sweep-1', { type: 'AutoSweep', network: ETHEREUM }),
        ]),
      ),
      getWalletAddresses: jest.fn(() =>
        Promise.resolve([
          {
            id: 'a1',
            address: 'T1',
            network: { name: TRON },
            balances: [
              { asset: 'USDT', amount: '30' },
              { asset: 'TRX', amount: '12' },
            ],
          },
          {
            id: 'a2',
            address: '0x1',
            network: { name: ETHEREUM },
            balances: [
              { asset: 'USDC', amount: '10' },
              { asset: 'USDT', amount: '0' },
              { asset: 'ETH', amount: '1' },
            ],
          },
        ]),
      ),
    };
    const { run, activities, lists, signalWithStart } = setup(
      {
        'end-user/alice': ALICE,
        'end-user/bob': { type: 'endUserWorkflow', queries: { endUserState: { endUserId: 'bob' } } },
        'end-user/carol': {
          type: 'endUserWorkflow',
          queries: { endUserState: new Error('query timed out') },
        },
        'offramp/tx-known': { type: 'offRampWorkflow', queries: {} },
      },
      operator,
    );

    const result = await run(() =>
      activities.reconcileDepositWallets({ timings: TIMINGS, startMissing: true }),
    );

    expect(lists[0]).toBe(
      "TaskQueue = 'ramp-queue' AND WorkflowType = 'endUserWorkflow' AND ExecutionStatus = 'Running'",
    );
    expect(operator.listWalletTransactions).toHaveBeenCalledTimes(1);
    expect(signalWithStart).toHaveBeenCalledTimes(1);
    const [type, options] = signalWithStart.mock.calls[0]!;
    expect(type).toBe('offRampWorkflow');
    expect(options).toMatchObject({
      workflowId: 'offramp/tx-lost',
      taskQueue: 'ramp-queue',
      args: [{ depositTransactionId: 'tx-lost', timings: TIMINGS }],
      signal: { name: 'offRampTransaction' },
      signalArgs: [{ role: 'deposit', transaction: { id: 'tx-lost', status: 'confirmed', amount: '25' } }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
    expect(result.checked).toBe(1);
    expect(result.transactionListing).toBe(true);
    expect(result.findings).toEqual([
      {
        kind: 'unknown-deposit',
        workflowId: 'offramp/tx-lost',
        subject: 'deposit tx-lost',
        ours: 'no process',
        operator: 'confirmed',
        action: 'started its off-ramp (signal-with-start)',
        endUserId: 'alice',
        walletId: 'w-1',
        network: TRON,
        asset: 'USDT',
        amount: '25',
      },
      {
        kind: 'unaccounted-funds',
        workflowId: 'end-user/alice',
        subject: `wallet w-1 ${ETHEREUM} USDC`,
        ours: 'no open off-ramp',
        operator: '10 USDC',
        action: 'alert raised',
        endUserId: 'alice',
        walletId: 'w-1',
        network: ETHEREUM,
        asset: 'USDC',
        amount: '10',
      },
      {
        kind: 'unreadable',
        workflowId: 'end-user/carol',
        subject: 'end-user/carol',
        ours: '?',
        operator: '?',
        action: 'skipped: query timed out',
      },
    ]);
  });

  test('with startMissing off, the unknown deposit is only reported and its funds stay unaccounted', async () => {
    const operator = {
      listWalletTransactions: () =>
        Promise.resolve([tx('tx-lost', { network: TRON, asset: 'USDT', amount: '25' })]),
      getWalletAddresses: () =>
        Promise.resolve([
          { id: 'a1', address: 'T1', network: { name: TRON }, balances: [{ asset: 'USDT', amount: '25' }] },
        ]),
    };
    const { run, activities, signalWithStart } = setup({ 'end-user/alice': ALICE }, operator);
    const result = await run(() =>
      activities.reconcileDepositWallets({ timings: TIMINGS, startMissing: false }),
    );
    expect(signalWithStart).not.toHaveBeenCalled();
    expect(result.findings.map((finding) => [finding.kind, finding.action])).toEqual([
      ['unknown-deposit', 'reported (startMissing is off)'],
      ['unaccounted-funds', 'alert raised'],
    ]);
  });

  test('an operator without the wallet-transactions list: balances only, covered by any running off-ramp of the wallet', async () => {
    const listWalletTransactions = jest.fn(() =>
      Promise.reject(
        new OperatorError('not found', {
          operation: 'listWalletTransactions',
          code: 'not_found',
          retryable: false,
          status: 404,
        }),
      ),
    );
    const operator = {
      listWalletTransactions,
      getWalletAddresses: () =>
        Promise.resolve([
          { id: 'a1', address: 'T1', network: { name: TRON }, balances: [{ asset: 'USDT', amount: '25' }] },
        ]),
    };
    const bob: FakeProcess = {
      type: 'endUserWorkflow',
      queries: { endUserState: { endUserId: 'bob', wallet: { walletId: 'w-2' } } },
    };
    const { run, activities, lists } = setup(
      {
        'end-user/alice': ALICE,
        'end-user/bob': bob,
        'offramp/tx-9': { type: 'offRampWorkflow', queries: {} },
      },
      operator,
    );
    const result = await run(() =>
      activities.reconcileDepositWallets({ timings: TIMINGS, startMissing: true }),
    );
    expect(listWalletTransactions).toHaveBeenCalledTimes(1);
    expect(result.transactionListing).toBe(false);
    expect(result.checked).toBe(2);
    expect(lists).toContain(
      "TaskQueue = 'ramp-queue' AND WorkflowType = 'offRampWorkflow' AND ExecutionStatus = 'Running' AND RampWalletId = 'w-1'",
    );
    // The fake lists every running off-ramp for any wallet: both wallets count as covered.
    expect(result.findings).toEqual([]);
  });

  test('a task queue that cannot stand in a visibility query fails at once, not retried', async () => {
    const { run, activities } = setup({}, {}, "q' OR '1'='1");
    const failure = await run(() =>
      activities.reconcileDepositWallets({ timings: TIMINGS, startMissing: true }),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'InvalidInput', nonRetryable: true });
  });
});

/** What every running ramp's state holds besides its snapshots. */
const RUNNING = {
  step: 'step',
  unattributed: false,
  eventsApplied: 0,
  duplicates: 0,
  polls: 0,
  startedAt: '2026-01-01T00:00:00.000Z',
  outcomes: { sequence: 0, events: [] },
};

describe('reconciling the open processes', () => {
  const snapshot = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
    id,
    status,
    type: 'Deposit',
    walletId: 'w-1',
    readAt: 'x',
    ...extra,
  });

  test('hands a process behind the operator the fresh snapshot, and reports what it cannot read', async () => {
    const operator = {
      getTransaction: (id: string) =>
        Promise.resolve(
          id === 'tx-1'
            ? tx('tx-1', { relatedTransactionId: 'sweep-1' })
            : id === 'sweep-1'
              ? tx('sweep-1', { type: 'AutoSweep', status: 'published', orderId: 'o-1' })
              : tx(id, { status: 'confirmed' }),
        ),
      getOrder: (id: string) =>
        Promise.resolve({ id, orderReference: 'ref', status: 'executed', transactionId: 'dep-9' }),
    };
    const { run, activities, lists, signals } = setup(
      {
        'offramp/tx-1': {
          type: 'offRampWorkflow',
          queries: {
            offRampState: {
              ...RUNNING,
              status: 'awaiting-deposit-confirmation',
              depositTransactionId: 'tx-1',
              endUserId: 'alice',
              alertsRaised: 0,
              deposit: snapshot('tx-1', 'published'),
              recordedRevision: 3,
            },
          },
        },
        'onramp/ref': {
          type: 'onRampWorkflow',
          queries: {
            onRampState: {
              ...RUNNING,
              status: 'awaiting-execution',
              orderReference: 'ref',
              endUserId: null,
              unattributed: true,
              order: { id: 'o-2', status: 'awaiting_funds' },
              deposit: snapshot('dep-9', 'confirmed'),
            },
          },
        },
        'offramp/broken': { type: 'offRampWorkflow', queries: { offRampState: new Error('no worker') } },
        'end-user/alice': { type: 'endUserWorkflow', queries: {} },
      },
      operator,
    );

    const result = await run(() => activities.reconcileOpenProcesses({ timings: TIMINGS }));

    expect(lists[0]).toBe(
      "TaskQueue = 'ramp-queue' AND ExecutionStatus = 'Running' AND RampDirection IN ('on-ramp', 'off-ramp')",
    );
    expect(result.checked).toBe(3);
    expect(signals.map(({ workflowId, name }) => [workflowId, name])).toEqual([
      ['offramp/tx-1', 'offRampTransaction'],
      ['offramp/tx-1', 'offRampTransaction'],
      ['onramp/ref', 'onRampOrder'],
    ]);
    expect(signals[1]!.args[0]).toMatchObject({
      role: 'sweep',
      transaction: { id: 'sweep-1', status: 'published' },
    });
    expect(result.findings.map((f) => [f.kind, f.workflowId, f.subject, f.ours, f.operator])).toEqual([
      ['status-mismatch', 'offramp/tx-1', 'deposit tx-1', 'published', 'confirmed'],
      ['status-mismatch', 'offramp/tx-1', 'sweep sweep-1', 'unknown', 'published'],
      ['status-mismatch', 'offramp/tx-1', 'order o-1', 'unknown', 'executed'],
      ['status-mismatch', 'onramp/ref', 'order o-2', 'awaiting_funds', 'executed'],
      ['unreadable', 'offramp/broken', 'offramp/broken', '?', '?'],
    ]);
    expect(result.findings[2]!.action).toBe(
      'reported (the process reads the order when it reaches settlement)',
    );
    // The ledger had neither ramp: both views are written as their processes hold them.
    const rows = await database.db
      .selectFrom('ramps')
      .select(['workflow_id', 'status', 'revision'])
      .orderBy('workflow_id')
      .execute();
    expect(rows).toEqual([
      { workflow_id: 'offramp/tx-1', status: 'awaiting-deposit-confirmation', revision: 3 },
      { workflow_id: 'onramp/ref', status: 'awaiting-execution', revision: 0 },
    ]);
  });
});
