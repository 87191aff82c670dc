/**
 * Reconciliation's pages against a real database, with a fake operator (each call counted as the transport counts a
 * send) and a fake Temporal client (queries answered per process, signal-with-start, describe and the incident store
 * recorded).
 */
import { WorkflowNotFoundError } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import pino from 'pino';
import type { ActivityDeps } from '../../../../activities/deps';
import { createReconcileActivities } from '../../../../activities/operations/reconcile/activities';
import type { PageHeartbeat } from '../../../../activities/operations/reconcile/pages';
import type { WorkflowTimings } from '../../../../src/domain/timings';
import { writeRamp } from '../../../../src/ledger/ramps';
import { countOperatorCall } from '../../../../src/operator/call-meter';
import { OperatorError } from '../../../../src/operator/errors';
import type { Transaction } from '../../../../src/operator/schemas';
import { newProgress } from '../../../../workflows/operations/reconcile/progress';
import type { PageInput, ReconcileProgress } from '../../../../workflows/operations/reconcile/types';
import type { OffRampState } from '../../../../workflows/ramps/offramp/types';
import type { OnRampState } from '../../../../workflows/ramps/onramp/types';
import { freshTestDatabase, type TestDatabase } from '../../../helpers/database';
import { testActivityConfig } from '../../../helpers/activities';

/** Passed through to the off-ramps reconciliation starts. */
const TIMINGS = { activityStartToCloseMs: 1000 } as WorkflowTimings;
const TRON = 'networks/tron-mainnet';
const ETHEREUM = 'networks/ethereum-mainnet';
/** The run's start: a minute ago, since the ledger marks a wallet checked at the database's own now(). */
const STARTED_MS = Date.now() - 60_000;
const STARTED = new Date(STARTED_MS).toISOString();
/** An instant `hours` before the run started. */
const before = (hours: number) => new Date(STARTED_MS - hours * 3_600_000).toISOString();

/** A process's query answers (an Error is thrown), and whether Temporal says it runs (and lists it, with its type). */
interface FakeProcess {
  queries?: Record<string, unknown>;
  running?: boolean;
  type?: string;
}

function fakeTemporal(processes: Record<string, FakeProcess>) {
  const queried: string[] = [];
  const signalWithStart = jest.fn((_type: string, _options: Record<string, unknown>) => Promise.resolve({}));
  const executeUpdateWithStart = jest.fn((_update: unknown, _options: Record<string, unknown>) =>
    Promise.resolve({ notify: false, isNew: false }),
  );
  const temporal = {
    withAbortSignal: (_signal: AbortSignal, call: () => unknown) => call(),
    workflow: {
      // `for await` walks a plain array as well as a page stream.
      list: ({ query }: { query: string }) =>
        Object.entries(processes)
          .filter(([, process]) => process.type)
          .filter(([, process]) => query.includes(process.running === false ? "'Completed'" : "'Running'"))
          .map(([workflowId, process]) => ({ workflowId, type: process.type })),
      getHandle: (workflowId: string) => ({
        workflowId,
        query: ({ name }: { name: string }) => {
          queried.push(workflowId);
          const answer = processes[workflowId]?.queries?.[name];
          return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
        },
        describe: () => {
          const process = processes[workflowId];
          if (!process) return Promise.reject(new WorkflowNotFoundError('not found', workflowId, undefined));
          return Promise.resolve({
            status: { name: process.running === false ? 'COMPLETED' : 'RUNNING' },
            typedSearchAttributes: { get: () => undefined },
          });
        },
      }),
      signalWithStart,
      executeUpdateWithStart,
    },
  };
  return { temporal, queried, signalWithStart, executeUpdateWithStart };
}

/** Each method counts one operator call, as the transport does for each request it sends. */
function counted<T extends Record<string, (...args: never[]) => Promise<unknown>>>(operator: T): T {
  return Object.fromEntries(
    Object.entries(operator).map(([name, method]) => [
      name,
      (...args: never[]) => {
        countOperatorCall();
        return method(...args);
      },
    ]),
  ) as T;
}

const tx = (id: string, overrides: Partial<Transaction> = {}): Transaction => ({
  id,
  status: 'confirmed',
  type: 'Deposit',
  walletId: 'w-1',
  ...overrides,
});

const snapshot = (id: string, status: string, extra: Record<string, unknown> = {}) =>
  ({
    id,
    status,
    type: 'Deposit',
    subtype: null,
    walletId: 'w-1',
    network: TRON,
    asset: 'USDT',
    amount: '25',
    relatedTransactionId: null,
    orderId: null,
    readAt: STARTED,
    ...extra,
  }) as const;

/** What every running ramp's state holds besides its snapshots. */
const RUNNING = {
  step: 'step',
  unattributed: false,
  eventsApplied: 0,
  duplicates: 0,
  polls: 0,
  outcomes: { sequence: 0, events: [] },
};

const offRamp = (depositId: string, startedAt: string, extra: Partial<OffRampState> = {}): OffRampState => ({
  ...RUNNING,
  startedAt,
  status: 'awaiting-deposit-confirmation',
  depositTransactionId: depositId,
  endUserId: 'alice',
  alertsRaised: 0,
  deposit: snapshot(depositId, 'published'),
  ...extra,
});

let database: TestDatabase;
beforeEach(async () => {
  database = await freshTestDatabase();
});
afterEach(async () => {
  await database.close();
});

async function openOffRamp(state: OffRampState, revision = 1): Promise<void> {
  await writeRamp(database.db, {
    ramp: { direction: 'off-ramp', workflowId: `offramp/${state.depositTransactionId}`, state },
    revision,
    raised: [],
    retryForMs: 0,
    at: state.startedAt,
  });
}

function setup(processes: Record<string, FakeProcess>, operator: Record<string, unknown>) {
  const fake = fakeTemporal(processes);
  const deps = {
    operator,
    temporal: fake.temporal,
    logger: pino({ level: 'silent' }),
    ledger: database.db,
    config: testActivityConfig(),
  } as unknown as ActivityDeps;
  const activities = createReconcileActivities(deps);
  /** Runs one call in an activity context, as a first attempt or as a retry resuming from `heartbeat`. */
  const run = <T>(call: () => Promise<T>, heartbeat?: PageHeartbeat) =>
    new MockActivityEnvironment({
      taskQueue: 'ramp-queue',
      startToCloseTimeoutMs: 60_000,
      ...(heartbeat ? { heartbeatDetails: heartbeat, attempt: 2 } : {}),
    }).run<[], T, () => Promise<T>>(call);
  const begin = async (budget?: number): Promise<ReconcileProgress> => {
    const begun = await run(() =>
      activities.beginReconcile({ runId: 'ops/reconcile-t', startedAt: STARTED, intervalMs: 3_600_000 }),
    );
    return newProgress('ops/reconcile-t', STARTED, 3_600_000, budget ?? begun.budget);
  };
  const page = (progress: ReconcileProgress, pageSize?: number): PageInput => ({
    progress,
    timings: TIMINGS,
    startMissing: true,
    ...(pageSize ? { pageSize } : {}),
  });
  const findings = () =>
    database.db
      .selectFrom('reconcile_findings')
      .select(['kind', 'subject'])
      .orderBy('kind')
      .orderBy('subject')
      .execute();
  return { ...fake, activities, run, begin, page, findings };
}

describe('a page of open ramps', () => {
  test('a ramp the operator is ahead of is asked for its state and handed what it lacks; one in step is not asked', async () => {
    await openOffRamp(offRamp('tx-1', '2026-01-01T00:00:01.000Z'));
    await openOffRamp(
      offRamp('tx-quiet', '2026-01-01T00:00:02.000Z', { deposit: snapshot('tx-quiet', 'confirmed') }),
    );
    await openOffRamp(offRamp('tx-broken', '2026-01-01T00:00:03.000Z'));
    const onRamp: OnRampState = {
      ...RUNNING,
      startedAt: '2026-01-01T00:00:04.000Z',
      status: 'awaiting-execution',
      orderReference: 'ref',
      endUserId: null,
      unattributed: true,
      order: { id: 'o-2', status: 'awaiting_funds' } as OnRampState['order'],
    };
    await writeRamp(database.db, {
      ramp: { direction: 'on-ramp', workflowId: 'onramp/ref', state: onRamp },
      revision: 1,
      raised: [],
      retryForMs: 0,
      at: onRamp.startedAt,
    });
    const operator = counted({
      getTransaction: (id: string) =>
        Promise.resolve(
          id === 'tx-1'
            ? tx('tx-1', { relatedTransactionId: 'sweep-1' })
            : id === 'sweep-1'
              ? tx('sweep-1', { type: 'AutoSweep', status: 'published', orderId: 'o-1' })
              : tx(id),
        ),
      getOrder: (id: string) =>
        Promise.resolve({ id, orderReference: 'ref', status: 'executed', transactionId: null }),
    });
    const { run, activities, begin, page, queried, signalWithStart, findings } = setup(
      {
        'offramp/tx-1': {
          queries: { offRampState: { ...offRamp('tx-1', '2026-01-01T00:00:01.000Z'), recordedRevision: 3 } },
        },
        'offramp/tx-broken': { queries: { offRampState: new Error('no worker') } },
        'onramp/ref': { queries: { onRampState: onRamp } },
      },
      operator,
    );
    const progress = await begin();

    const result = await run(() => activities.reconcileRampsPage(page(progress)));

    expect(result).toMatchObject({ checked: 4, cursor: null, budgetReached: false });
    // tx-1: deposit, sweep, order, and the order the sweep's forward reads; tx-quiet: its deposit; tx-broken: its
    // deposit; the on-ramp: its order.
    expect(result.operatorCalls).toBe(7);
    expect(result.found).toEqual({ 'status-mismatch': 4, unreadable: 1 });
    expect(queried.sort()).toEqual(['offramp/tx-1', 'offramp/tx-broken', 'onramp/ref']);
    const forwards = signalWithStart.mock.calls.map(([, options]) => options);
    expect(
      signalWithStart.mock.calls
        .map(([type, options]) => [type, options.workflowId, (options.signal as { name: string }).name])
        .sort(),
    ).toEqual([
      ['offRampWorkflow', 'offramp/tx-1', 'offRampTransaction'],
      ['offRampWorkflow', 'offramp/tx-1', 'offRampTransaction'],
      ['onRampWorkflow', 'onramp/ref', 'onRampOrder'],
    ]);
    expect(forwards).toContainEqual(
      expect.objectContaining({
        signalArgs: [
          {
            role: 'sweep',
            transaction: expect.objectContaining({ id: 'sweep-1', status: 'published' }),
            order: expect.objectContaining({ id: 'o-1' }),
          },
        ],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      }),
    );
    expect(await findings()).toEqual([
      { kind: 'status-mismatch', subject: 'deposit tx-1' },
      { kind: 'status-mismatch', subject: 'order o-1' },
      { kind: 'status-mismatch', subject: 'order o-2' },
      { kind: 'status-mismatch', subject: 'sweep sweep-1' },
      { kind: 'unreadable', subject: 'offramp/tx-broken' },
    ]);
    // The process was ahead of the ledger (its revision 3): its row is written as it holds it.
    const row = await database.db
      .selectFrom('ramps')
      .select('revision')
      .where('workflow_id', '=', 'offramp/tx-1')
      .executeTakeFirstOrThrow();
    expect(row.revision).toBe(3);
    // The run's progress is recorded as each page starts.
    const recorded = await database.db
      .selectFrom('reconcile_runs')
      .select(['budget'])
      .executeTakeFirstOrThrow();
    expect(recorded.budget).toBe(36_000);
  });

  test('pages go on after their cursor; a retry goes on from its heartbeat, not from the page start', async () => {
    for (let index = 0; index < 5; index += 1)
      await openOffRamp(
        offRamp(`tx-${index}`, `2026-01-01T00:00:0${index}.000Z`, {
          deposit: snapshot(`tx-${index}`, 'confirmed'),
        }),
      );
    const reads: string[] = [];
    const operator = counted({
      getTransaction: (id: string) => {
        reads.push(id);
        return Promise.resolve(tx(id));
      },
    });
    const { run, activities, begin, page } = setup({}, operator);
    const progress = await begin();

    const first = await run(() => activities.reconcileRampsPage(page(progress, 2)));
    expect(first).toMatchObject({ checked: 2, operatorCalls: 2, cursor: { id: 'offramp/tx-1' } });
    expect(reads).toEqual(['tx-0', 'tx-1']);

    // The next page's first attempt was killed after tx-2: its retry reads tx-3 alone and counts both.
    reads.length = 0;
    const heartbeat: PageHeartbeat = {
      after: { at: '2026-01-01 00:00:02+00', id: 'offramp/tx-2' },
      checked: 1,
      calls: 1,
      found: {},
    };
    const retried = await run(
      () => activities.reconcileRampsPage(page({ ...progress, cursor: first.cursor }, 2)),
      heartbeat,
    );
    expect(reads).toEqual(['tx-3']);
    expect(retried).toMatchObject({ checked: 2, operatorCalls: 2, cursor: { id: 'offramp/tx-3' } });

    const last = await run(() =>
      activities.reconcileRampsPage(page({ ...progress, cursor: retried.cursor }, 2)),
    );
    expect(last).toMatchObject({ checked: 1, cursor: null });
  });

  test('an item starts only while the budget covers the most it can take: the page stops there', async () => {
    for (let index = 0; index < 3; index += 1)
      await openOffRamp(
        offRamp(`tx-${index}`, `2026-01-01T00:00:0${index}.000Z`, {
          deposit: snapshot(`tx-${index}`, 'confirmed'),
        }),
      );
    const operator = counted({ getTransaction: (id: string) => Promise.resolve(tx(id)) });
    const { run, activities, begin, page } = setup({}, operator);
    // Seven calls is one ramp at the most: a second cannot start until the first is done and has taken one.
    const progress = await begin(8);
    const result = await run(() => activities.reconcileRampsPage(page(progress)));
    expect(result).toMatchObject({ checked: 2, operatorCalls: 2, budgetReached: true });
    expect(result.cursor).toMatchObject({ id: 'offramp/tx-1' });
  });
});

describe('a page of deposit wallets', () => {
  async function endUser(endUserId: string, walletId: string, fields: Record<string, string | null> = {}) {
    await database.db
      .insertInto('end_users')
      .values({
        end_user_id: endUserId,
        workflow_id: `end-user/${endUserId}`,
        wallet_id: walletId,
        created_at: STARTED,
        updated_at: STARTED,
        active_at: before(30 * 24),
        ...fields,
      })
      .execute();
  }

  const addresses = (usdt: string) => [
    {
      id: 'a1',
      address: 'T1',
      network: { name: TRON },
      balances: [
        { asset: 'USDT', amount: usdt },
        { asset: 'TRX', amount: '12' },
      ],
    },
    {
      id: 'a2',
      address: '0x1',
      network: { name: ETHEREUM },
      balances: [{ asset: 'USDC', amount: '10' }],
    },
  ];

  test('starts the off-ramp of a deposit nobody knows, and reports balances no open off-ramp covers', async () => {
    await endUser('alice', 'w-1', { active_at: before(12) });
    await endUser('bob', 'w-2');
    // Checked lately and quiet since: not due.
    await endUser('carol', 'w-3', { wallet_checked_at: before(4) });
    await openOffRamp(offRamp('tx-known', before(12)));
    const operator = counted({
      listWalletTransactions: (walletId: string) =>
        Promise.resolve(
          walletId === 'w-1'
            ? [
                tx('tx-lost', { network: TRON, asset: 'USDT', amount: '25' }),
                tx('tx-known', { network: TRON, asset: 'USDT', amount: '5' }),
                tx('tx-ended', { network: ETHEREUM }),
                tx('tx-onramp', { orderId: 'o-1', network: ETHEREUM }),
              ]
            : [],
        ),
      getWalletAddresses: (walletId: string) => Promise.resolve(addresses(walletId === 'w-1' ? '30' : '0')),
    });
    const { run, activities, begin, page, signalWithStart, findings } = setup(
      { 'offramp/tx-ended': { running: false } },
      operator,
    );
    const progress = await begin();

    const result = await run(() => activities.reconcileWalletsPage(page(progress)));

    expect(result).toMatchObject({ checked: 2, cursor: null, operatorCalls: 4, transactionListing: true });
    expect(signalWithStart).toHaveBeenCalledTimes(1);
    expect(signalWithStart.mock.calls[0]![1]).toMatchObject({
      workflowId: 'offramp/tx-lost',
      taskQueue: 'ramp-queue',
      args: [{ depositTransactionId: 'tx-lost', timings: TIMINGS }],
      signal: { name: 'offRampTransaction' },
      signalArgs: [{ role: 'deposit', transaction: { id: 'tx-lost', status: 'confirmed', amount: '25' } }],
    });
    expect(await findings()).toEqual([
      { kind: 'unaccounted-funds', subject: `wallet w-1 ${ETHEREUM} USDC` },
      { kind: 'unaccounted-funds', subject: `wallet w-2 ${ETHEREUM} USDC` },
      { kind: 'unknown-deposit', subject: 'deposit tx-lost' },
    ]);
    // One incident per unaccounted balance, in the ledger's incident store.
    const incidents = await database.db
      .selectFrom('incidents')
      .select(['kind', 'key'])
      .where('resolved_at', 'is', null)
      .orderBy('key')
      .execute();
    expect(incidents.map((incident) => incident.kind)).toEqual(['unaccounted-funds', 'unaccounted-funds']);
    const checked = await database.db
      .selectFrom('end_users')
      .select(['end_user_id', 'wallet_checked_at'])
      .orderBy('end_user_id')
      .execute();
    expect(checked.map((row) => [row.end_user_id, row.wallet_checked_at !== null])).toEqual([
      ['alice', true],
      ['bob', true],
      ['carol', true],
    ]);
    expect(checked[2]!.wallet_checked_at).toBe(before(4));
  });

  test('the most recently active wallets first; a wallet checked by this run is not taken again', async () => {
    await endUser('quiet', 'w-q');
    await endUser('busy', 'w-b', { active_at: before(2) });
    await endUser('newer', 'w-n', { active_at: before(1) });
    const order: string[] = [];
    const operator = counted({
      listWalletTransactions: (walletId: string) => {
        order.push(walletId);
        return Promise.resolve([]);
      },
      getWalletAddresses: () => Promise.resolve([]),
    });
    const { run, activities, begin, page } = setup({}, operator);
    const progress = await begin();
    const first = await run(() => activities.reconcileWalletsPage(page(progress, 2)));
    expect(order).toEqual(['w-n', 'w-b']);
    const rest = await run(() =>
      activities.reconcileWalletsPage(page({ ...progress, cursor: first.cursor }, 2)),
    );
    expect(order).toEqual(['w-n', 'w-b', 'w-q']);
    expect(rest).toMatchObject({ checked: 1, cursor: null });
    // A retry of a page from its start finds nothing left: every wallet was checked since the run began.
    const again = await run(() => activities.reconcileWalletsPage(page(progress)));
    expect(again.checked).toBe(0);
  });

  test('an operator without the wallet-transactions list: balances only, covered by an open off-ramp of the end user', async () => {
    await endUser('alice', 'w-1');
    await endUser('bob', 'w-2');
    await openOffRamp(offRamp('tx-9', before(12)));
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
    const operator = counted({
      listWalletTransactions,
      getWalletAddresses: () => Promise.resolve(addresses('25').slice(0, 1)),
    });
    const { run, activities, begin, page, findings } = setup({}, operator);
    const progress = await begin();
    const result = await run(() => activities.reconcileWalletsPage(page(progress)));
    // Each wallet in flight before the first refusal asks once; none asks after it.
    expect(listWalletTransactions.mock.calls.length).toBeLessThanOrEqual(2);
    expect(result).toMatchObject({ checked: 2, transactionListing: false });
    expect(await findings()).toEqual([{ kind: 'unaccounted-funds', subject: `wallet w-2 ${TRON} USDT` }]);
  });
});

describe('the ramps the ledger lacks', () => {
  test('a running ramp Temporal lists that the ledger has no row of is written from its state', async () => {
    const missing = offRamp('tx-lost-row', '2026-01-01T00:00:01.000Z');
    await openOffRamp(offRamp('tx-known', '2026-01-01T00:00:02.000Z'));
    const { run, activities, begin, page, findings } = setup(
      {
        'offramp/tx-lost-row': { type: 'offRampWorkflow', queries: { offRampState: missing } },
        'offramp/tx-known': { type: 'offRampWorkflow' },
      },
      {},
    );
    const progress = await begin();
    const result = await run(() =>
      activities.reconcileUnrecordedRamps(page({ ...progress, pass: 'unrecorded' })),
    );
    expect(result).toMatchObject({ checked: 2, cursor: null, found: { 'ledger-repaired': 1 } });
    expect(await findings()).toEqual([{ kind: 'ledger-repaired', subject: 'view of offramp/tx-lost-row' }]);
    const rows = await database.db.selectFrom('ramps').select('workflow_id').orderBy('workflow_id').execute();
    expect(rows.map((row) => row.workflow_id)).toEqual(['offramp/tx-known', 'offramp/tx-lost-row']);
  });
});

describe('a run in one pass (started before paging)', () => {
  test('walks every page of its pass in one activity and answers its findings', async () => {
    for (let index = 0; index < 3; index += 1)
      await openOffRamp(offRamp(`tx-${index}`, `2026-01-01T00:00:0${index}.000Z`));
    const operator = counted({ getTransaction: (id: string) => Promise.resolve(tx(id)) });
    const { run, activities } = setup(
      Object.fromEntries(
        [0, 1, 2].map((index) => [
          `offramp/tx-${index}`,
          { queries: { offRampState: offRamp(`tx-${index}`, `2026-01-01T00:00:0${index}.000Z`) } },
        ]),
      ),
      operator,
    );
    const result = await run(() => activities.reconcileOpenProcesses({ timings: TIMINGS }));
    expect(result.checked).toBe(3);
    expect(result.findings.map((finding) => finding.subject).sort()).toEqual([
      'deposit tx-0',
      'deposit tx-1',
      'deposit tx-2',
    ]);
  });
});
