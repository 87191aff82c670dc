import { WorkflowNotFoundError } from '@temporalio/client';
import { freshTestDatabase, type TestDatabase } from '../../helpers/database';
import { MockActivityEnvironment } from '@temporalio/testing';
import pino from 'pino';
import type { ActivityDeps } from '../../../activities/deps';
import { createOffRampActivities } from '../../../activities/ramps/offramp/activities';
import { createOnRampActivities } from '../../../activities/ramps/onramp/activities';
import { createRouterActivities } from '../../../activities/ramps/router/activities';
import { snapshotReads } from '../../../activities/shared/snapshots';
import { createHop, forwardOutcome } from '../../../src/routing/hop';
import { OFF_RAMP_ORDER_UNROUTABLE } from '../../../workflows/ramps/router/owner';
import { OperatorError } from '../../../src/operator/errors';
import type { WorkflowTimings } from '../../../src/domain/timings';
import { EndUserId } from '../../../src/domain/search-attributes';
import { linkOffRampUpdate } from '../../../workflows/end-user/messages';
import type { OffRampRole, OffRampTransactionSignal } from '../../../workflows/ramps/offramp/types';
import type { TransactionSnapshot } from '../../../workflows/ramps/shared/snapshots';
import { testActivityConfig } from '../../helpers/activities';
import { answeringOperator as operator } from '../../helpers/answering-operator';

type Raw = Record<string, unknown>;
const quietLogger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

function deps(extra: Partial<Record<keyof ActivityDeps, unknown>>): ActivityDeps {
  return {
    logger: pino({ level: 'silent' }),
    config: testActivityConfig(),
    ...extra,
  } as unknown as ActivityDeps;
}

describe('ramp activities', () => {
  test('the ramp factories keep the ramp activity names', () => {
    const d = deps({ operator: {}, temporal: {} });
    const names = [createRouterActivities(d), createOffRampActivities(d), createOnRampActivities(d)].flatMap(
      (f) => Object.keys(f),
    );
    expect(names).toEqual([
      'routeEvents',
      'attributeOffRamp',
      'readOrderSnapshot',
      'pollOffRamp',
      'pollOnRamp',
    ]);
  });

  test('a forward answers the process reached, or how it had ended', () => {
    expect(forwardOutcome({ delivered: true, workflowId: 'offramp/d' })).toEqual({
      workflowId: 'offramp/d',
    });
    const closed = { executionStatus: 'COMPLETED', status: 'settled', closedAt: null };
    expect(forwardOutcome({ delivered: false, workflowId: 'offramp/d', closed })).toEqual({
      workflowId: 'offramp/d',
      closed,
    });
  });
});

describe('pollOffRamp', () => {
  test('reads the deposit, the sweep it links and the order the sweep links', async () => {
    const op = operator({
      'dep-1': { relatedTransactionId: 'sweep-1' },
      'sweep-1': { type: 'AutoSweep', orderId: 'o-1' },
    });
    const activities = createOffRampActivities(deps({ operator: op.client }));
    const found = await activities.pollOffRamp({ depositTransactionId: 'dep-1' });
    expect(op.reads).toEqual(['tx:dep-1', 'tx:sweep-1', 'order:o-1']);
    expect(Object.keys(found)).toEqual(['deposit', 'sweep', 'order']);
    expect(found.sweep).toMatchObject({ id: 'sweep-1', orderId: 'o-1', relatedTransactionId: null });
  });

  test('IDs known from events are read as given; the order comes from the order transaction first', async () => {
    const op = operator({ 'otx-1': { type: 'AutoSwap', orderId: 'o-otx' }, 's-9': { orderId: 'o-sweep' } });
    const activities = createOffRampActivities(deps({ operator: op.client }));
    await activities.pollOffRamp({
      depositTransactionId: 'dep-1',
      sweepId: 's-9',
      gasTopUpId: 'g-1',
      orderTransactionId: 'otx-1',
    });
    expect(op.reads).toEqual(['tx:dep-1', 'tx:s-9', 'tx:g-1', 'tx:otx-1', 'order:o-otx']);
  });

  test('a deposit alone when nothing else is known', async () => {
    const op = operator({});
    const activities = createOffRampActivities(deps({ operator: op.client }));
    expect(Object.keys(await activities.pollOffRamp({ depositTransactionId: 'dep-1' }))).toEqual(['deposit']);
  });
});

describe('pollOnRamp', () => {
  test('reads the order, then the deposit it names', async () => {
    const op = operator({}, { 'o-1': { transactionId: 'dep-1' } });
    const activities = createOnRampActivities(deps({ operator: op.client }));
    const found = await activities.pollOnRamp({ orderId: 'o-1' });
    expect(op.reads).toEqual(['order:o-1', 'tx:dep-1']);
    expect(found.deposit?.id).toBe('dep-1');
  });

  test('no deposit before the order names one', async () => {
    const op = operator({}, { 'o-1': { status: 'awaiting_funds' } });
    const activities = createOnRampActivities(deps({ operator: op.client }));
    expect(Object.keys(await activities.pollOnRamp({ orderId: 'o-1' }))).toEqual(['order']);
  });
});

describe('attributeOffRamp', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await freshTestDatabase();
  });
  afterEach(async () => {
    await database.close();
  });
  /** The off-ramp activities over this test's ledger (empty unless a test records an end user). */
  const offRampActivities = (client: unknown) =>
    createOffRampActivities(deps({ temporal: client, ledger: database.db }));

  test('the ledger names the owner of the wallet: no visibility query, then the link', async () => {
    const t = temporal([], () => Promise.resolve(null));
    await database.db
      .insertInto('end_users')
      .values({
        end_user_id: 'user-3',
        workflow_id: 'end-user/user-3',
        wallet_id: 'w-3',
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    await expect(
      offRampActivities(t.client).attributeOffRamp({ walletId: 'w-3', depositTransactionId: 'dep-3' }),
    ).resolves.toEqual({ endUserId: 'user-3', endUserSearchValue: 'user-3', linked: true });
    expect(t.calls).toEqual(['link end-user/user-3']);
  });

  function temporal(owners: string[], link: () => Promise<unknown>, searchAttributeEndUserId?: string) {
    const calls: string[] = [];
    return {
      calls,
      client: {
        workflow: {
          list: ({ query }: { query: string }) => {
            calls.push(`list ${query}`);
            return (function* () {
              for (const workflowId of owners)
                yield {
                  workflowId,
                  typedSearchAttributes: {
                    get: (key: unknown) => (key === EndUserId ? searchAttributeEndUserId : undefined),
                  },
                };
            })();
          },
          getHandle: (id: string) => {
            calls.push(`link ${id}`);
            return { executeUpdate: link };
          },
        },
      },
    };
  }

  test('a wallet the ledger does not know (an end user from before it): found by visibility, then told, in one activity', async () => {
    const updates: unknown[] = [];
    const t = temporal(['end-user/user-1'], (...args: unknown[]) => {
      updates.push(args);
      return Promise.resolve(null);
    });
    const activities = offRampActivities(t.client);
    await expect(
      activities.attributeOffRamp({ walletId: 'w-1', depositTransactionId: 'dep-1' }),
    ).resolves.toEqual({ endUserId: 'user-1', endUserSearchValue: 'user-1', linked: true });
    expect(t.calls).toEqual([
      "list WorkflowType = 'endUserWorkflow' AND RampWalletId = 'w-1'",
      'link end-user/user-1',
    ]);
    expect(updates).toEqual([[linkOffRampUpdate, { args: [{ depositTransactionId: 'dep-1' }] }]]);
  });

  test('the quote the end user was shown for the deposit comes back with the owner', async () => {
    const shown = {
      amountFrom: '100',
      targetAmount: '1716.37',
      expiresAt: '2030-01-01T00:00:00.000Z',
      coinFrom: 'USDT',
      chainFrom: 'TRX',
      coinTo: 'MXN',
      shownAt: '2029-12-31T23:59:40.000Z',
    };
    const t = temporal(['end-user/user-1'], () => Promise.resolve(shown));
    await expect(
      offRampActivities(t.client).attributeOffRamp({
        walletId: 'w-1',
        depositTransactionId: 'dep-1',
      }),
    ).resolves.toEqual({ endUserId: 'user-1', endUserSearchValue: 'user-1', linked: true, quote: shown });
  });

  test('another workflow ID falls back to RampEndUserId', async () => {
    const t = temporal(['not-an-end-user-id'], () => Promise.resolve(null), 'user-2');
    const activities = offRampActivities(t.client);
    await expect(
      activities.attributeOffRamp({ walletId: 'w-1', depositTransactionId: 'dep-1' }),
    ).resolves.toMatchObject({ endUserId: 'user-2' });
  });

  test('no owner yet: retryable, and nobody is signalled; a wallet ID a query cannot carry is not retried', async () => {
    const t = temporal([], () => Promise.reject(new Error('not expected')));
    const activities = offRampActivities(t.client);
    await expect(
      activities.attributeOffRamp({ walletId: 'w-1', depositTransactionId: 'dep-1' }),
    ).rejects.toMatchObject({ type: 'WalletOwnerNotFound', nonRetryable: false });
    expect(t.calls).toHaveLength(1);
    await expect(
      activities.attributeOffRamp({ walletId: "w' OR '1'='1", depositTransactionId: 'dep-1' }),
    ).rejects.toMatchObject({
      type: 'InvalidInput',
      message: 'wallet id has characters a visibility query cannot carry',
      nonRetryable: true,
    });
  });

  test('an end user that is not running is attributed, not linked; another failed link is retried without naming the user', async () => {
    const gone = temporal(['end-user/user-1'], () =>
      Promise.reject(new WorkflowNotFoundError('not found', 'end-user/user-1', undefined)),
    );
    await expect(
      offRampActivities(gone.client).attributeOffRamp({
        walletId: 'w-1',
        depositTransactionId: 'dep-1',
      }),
    ).resolves.toEqual({ endUserId: 'user-1', endUserSearchValue: 'user-1', linked: false });

    const failed = temporal(['end-user/user-1'], () => Promise.reject(new TypeError('boom')));
    const retried: unknown = await offRampActivities(failed.client)
      .attributeOffRamp({ walletId: 'w-1', depositTransactionId: 'dep-1' })
      .catch((e: unknown) => e);
    expect(retried).toMatchObject({
      type: 'EndUserLinkFailed',
      message: 'could not link the end user workflow of this deposit (TypeError)',
      nonRetryable: false,
    });
    expect((retried as Error).message).not.toContain('user-1');
  });
});

describe("the router's hop", () => {
  function temporal() {
    const started: Array<{ workflowId: string; signalArgs: unknown[] }> = [];
    return {
      started,
      client: {
        workflow: {
          signalWithStart: (_type: string, options: { workflowId: string; signalArgs: unknown[] }) => {
            started.push({ workflowId: options.workflowId, signalArgs: options.signalArgs });
            return Promise.resolve();
          },
        },
      },
    };
  }
  const timings = {} as WorkflowTimings;
  const hopOf = ({ operator, temporal, logger }: ActivityDeps) =>
    createHop({ reads: snapshotReads(operator), temporal, logger });

  async function forward(
    role: OffRampRole,
    transaction: Raw,
    op = operator({}, { 'o-1': { amountTo: '858.18' } }),
    logger: unknown = pino({ level: 'silent' }),
  ) {
    const t = temporal();
    const hop = hopOf(deps({ operator: op.client, temporal: t.client, logger }));
    const signal = { role, transaction: transaction as unknown as TransactionSnapshot };
    const outcome = await hop.forwardToOffRamp(
      { depositTransactionId: 'dep-1', signal, timings },
      { taskQueue: 'q' },
    );
    return {
      outcome,
      reads: op.reads,
      sent: t.started.map((s) => s.signalArgs[0] as OffRampTransactionSignal),
    };
  }

  test('an order transaction goes with its order, read once', async () => {
    const { outcome, reads, sent } = await forward('orderTransaction', {
      id: 'otx-1',
      status: 'completed',
      orderId: 'o-1',
    });
    expect(outcome).toEqual({ workflowId: 'offramp/dep-1' });
    expect(reads).toEqual(['order:o-1']);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ role: 'orderTransaction', order: { id: 'o-1', amountTo: '858.18' } });
  });

  test('a transaction that names no order (or is a deposit) goes alone, with no read', async () => {
    for (const [role, transaction] of [
      ['deposit', { id: 'dep-1', status: 'completed', orderId: 'o-1' }],
      ['sweep', { id: 's-1', status: 'confirmed', orderId: null }],
      ['orderTransaction', { id: 'otx-1', status: 'completed', orderId: null }],
    ] as const) {
      const { reads, sent } = await forward(role, transaction);
      expect(reads).toEqual([]);
      expect(sent).toEqual([{ role, transaction }]);
    }
  });

  async function route(
    input: { kind: 'transaction' | 'order'; resourceId: string; lastStatus?: string },
    op: ReturnType<typeof operator>,
  ) {
    const t = temporal();
    const hop = hopOf(deps({ operator: op.client, temporal: t.client }));
    const routed = await hop.routeEvent({ ...input, timings }, { taskQueue: 'q' });
    return { routed, reads: op.reads, started: t.started };
  }

  test('routeEvent: a deposit is re-read and forwarded to its off-ramp in one activity', async () => {
    const { routed, reads, started } = await route(
      { kind: 'transaction', resourceId: 'dep-1' },
      operator({ 'dep-1': { status: 'mined' } }),
    );
    expect(routed).toEqual({ status: 'mined', outcome: { workflowId: 'offramp/dep-1' } });
    expect(reads).toEqual(['tx:dep-1']);
    expect(started).toEqual([
      {
        workflowId: 'offramp/dep-1',
        signalArgs: [
          { role: 'deposit', transaction: expect.objectContaining({ id: 'dep-1', status: 'mined' }) },
        ],
      },
    ]);
  });

  test('routeEvent: the status last forwarded is a duplicate, forwarded nowhere', async () => {
    const { routed, started } = await route(
      { kind: 'transaction', resourceId: 'dep-1', lastStatus: 'mined' },
      operator({ 'dep-1': { status: 'mined' } }),
    );
    expect(routed).toEqual({ status: 'mined', duplicate: true });
    expect(started).toEqual([]);
  });

  test('routeEvent: a transaction of no ramp, and an off-ramp order, are unroutable', async () => {
    const strange = await route(
      { kind: 'transaction', resourceId: 'x-1' },
      operator({ 'x-1': { type: 'Withdrawal' } }),
    );
    expect(strange.routed).toEqual({
      status: 'completed',
      unroutable: 'transaction type Withdrawal belongs to no ramp process',
    });
    const offRampOrder = await route(
      { kind: 'order', resourceId: 'o-1' },
      operator({}, { 'o-1': { direction: 'off-ramp' } }),
    );
    expect(offRampOrder.routed).toEqual({ status: 'executed', unroutable: OFF_RAMP_ORDER_UNROUTABLE });
    expect([...strange.started, ...offRampOrder.started]).toEqual([]);
  });

  test('routeEvent: an on-ramp order goes to onramp/<reference>; its crypto deposit goes with the order', async () => {
    const order = await route(
      { kind: 'order', resourceId: 'o-1' },
      operator({}, { 'o-1': { direction: 'on-ramp' } }),
    );
    expect(order.routed).toEqual({ status: 'executed', outcome: { workflowId: 'onramp/ref-o-1' } });
    expect(order.started.map((s) => s.workflowId)).toEqual(['onramp/ref-o-1']);

    const deposit = await route(
      { kind: 'transaction', resourceId: 'dep-9' },
      operator({ 'dep-9': { orderId: 'o-1' } }, { 'o-1': { direction: 'on-ramp' } }),
    );
    expect(deposit.routed).toEqual({ status: 'completed', outcome: { workflowId: 'onramp/ref-o-1' } });
    expect(deposit.reads).toEqual(['tx:dep-9', 'order:o-1']);
    // The order first, then the deposit, as separate signals to the same process.
    expect(deposit.started).toEqual([
      { workflowId: 'onramp/ref-o-1', signalArgs: [expect.objectContaining({ id: 'o-1' })] },
      { workflowId: 'onramp/ref-o-1', signalArgs: [expect.objectContaining({ id: 'dep-9' })] },
    ]);
  });

  test('routeEvents: each hop routed on its own, a failure in its place, a hop past its deadline failed alone', async () => {
    const op = operator({ 'dep-1': { status: 'mined' }, 'dep-2': { status: 'confirmed' } });
    const getTransaction = op.client.getTransaction;
    op.client.getTransaction = (id: string) => {
      if (id === 'gone')
        return Promise.reject(
          new OperatorError('operator getTransaction answered 404', {
            operation: 'getTransaction',
            code: 'not_found',
            retryable: false,
            status: 404,
          }),
        );
      if (id === 'hangs') return new Promise(() => undefined);
      return getTransaction(id);
    };
    const t = temporal();
    const activities = createRouterActivities(deps({ operator: op.client, temporal: t.client }));
    const hops = ['dep-1', 'gone', 'hangs', 'dep-2'].map((resourceId) => ({
      kind: 'transaction' as const,
      resourceId,
    }));
    const results = await new MockActivityEnvironment(
      { taskQueue: 'q', startToCloseTimeoutMs: 500 },
      { logger: quietLogger },
    ).run((input) => activities.routeEvents(input), { timings, hops });
    expect(results).toEqual([
      { routed: { status: 'mined', outcome: { workflowId: 'offramp/dep-1' } } },
      {
        failed: {
          type: 'OperatorRejected',
          message: 'operator getTransaction answered 404',
          nonRetryable: true,
          details: [{ operation: 'getTransaction', code: 'not_found', status: 404 }],
        },
      },
      {
        failed: {
          type: 'HopDeadlineExceeded',
          message: 'Hop did not finish within 400 ms',
          nonRetryable: false,
        },
      },
      { routed: { status: 'confirmed', outcome: { workflowId: 'offramp/dep-2' } } },
    ]);
    expect(t.started.map((start) => start.workflowId)).toEqual(['offramp/dep-1', 'offramp/dep-2']);
  });

  test('an order that cannot be read leaves the transaction to go alone (the off-ramp reads the order)', async () => {
    const failing = operator({});
    failing.client.getOrder = (id: string) => {
      failing.reads.push(`order:${id}`);
      return Promise.reject(new Error('operator down'));
    };
    const warnings: Array<[Record<string, unknown>, string]> = [];
    const logger = {
      warn: (fields: Record<string, unknown>, message: string) => warnings.push([fields, message]),
    };
    const { outcome, reads, sent } = await forward(
      'orderTransaction',
      { id: 'otx-1', status: 'completed', orderId: 'o-1' },
      failing,
      logger,
    );
    expect(outcome).toEqual({ workflowId: 'offramp/dep-1' });
    expect(reads).toEqual(['order:o-1']);
    // Said once, for whoever wonders why that off-ramp read its order itself.
    expect(warnings).toEqual([
      [
        { orderId: 'o-1', depositTransactionId: 'dep-1', error: 'operator down' },
        'Order not read for the forward; the off-ramp reads it itself',
      ],
    ]);
    expect(sent).toEqual([
      { role: 'orderTransaction', transaction: { id: 'otx-1', status: 'completed', orderId: 'o-1' } },
    ]);
  });
});
