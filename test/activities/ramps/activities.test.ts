import { WorkflowNotFoundError } from '@temporalio/client';
import { freshTestDatabase, type TestDatabase } from '../../helpers/database';
import pino from 'pino';
import type { ActivityDeps } from '../../../activities/deps';
import { createOffRampActivities } from '../../../activities/ramps/offramp/activities';
import { createOnRampActivities } from '../../../activities/ramps/onramp/activities';
import { EndUserId } from '../../../src/domain/search-attributes';
import { linkOffRampUpdate } from '../../../workflows/end-user/messages';
import { testActivityConfig } from '../../helpers/activities';
import { answeringOperator as operator } from '../../helpers/answering-operator';

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
    const names = [createOffRampActivities(d), createOnRampActivities(d)].flatMap((f) => Object.keys(f));
    expect(names).toEqual(['attributeOffRamp', 'readOrderSnapshot', 'pollOffRamp', 'pollOnRamp']);
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
