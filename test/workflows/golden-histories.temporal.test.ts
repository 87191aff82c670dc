/**
 * Scripted runs of the paths no other recorded history covers (an off-ramp settled by its events, its order carried
 * by a forward, its last two events in one workflow task, a first snapshot that comes late, failures, timeouts,
 * polls, a quote, unknown events). Each runs on the real dev server against stub activities and checks where the
 * process ended; with RECORD_HISTORIES=1 it also records its history, which the replay test then checks against
 * every later version of the workflow code. Existing files are kept (test/helpers/histories.ts).
 */
import type { OutcomeEventData, RaisedEvent } from '../../src/domain/outcome-events';
import type { RampRecord } from '../../src/ledger/ramps';
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import type { Client, Connection } from '@temporalio/client';
import type { RampActivities } from '../../activities';
import { offRampStateQuery, offRampTransactionSignal } from '../../workflows/ramps/offramp/messages';
import { onRampOrderSignal, onRampTransactionSignal } from '../../workflows/ramps/onramp/messages';
import { unknownEventSignal, unknownEventsQuery } from '../../workflows/ramps/unknown-events/messages';
import type { AlertInput } from '../../workflows/operations/alerts/types';
import type { OffRampState } from '../../workflows/ramps/offramp/types';
import type { OnRampState } from '../../workflows/ramps/onramp/types';
import type { OrderSnapshot, TransactionSnapshot } from '../../workflows/ramps/shared/snapshots';
import type { WorkflowTimings } from '../../src/domain/timings';
import type { QuoteRequestInput, QuoteResult } from '../../workflows/quote/types';
import { recordHistory } from '../helpers/histories';
import { connectTestClient, fastTimings, type RunningTestWorker, startTestWorker } from '../helpers/temporal';

const TRON = 'networks/tron-mainnet';

function tx(id: string, extra: Partial<TransactionSnapshot> = {}): TransactionSnapshot {
  return {
    id,
    status: 'completed',
    type: 'Deposit',
    subtype: null,
    walletId: 'wallet-golden',
    network: TRON,
    asset: 'USDT',
    amount: '50',
    relatedTransactionId: null,
    orderId: null,
    readAt: new Date().toISOString(),
    ...extra,
  };
}

function order(id: string, extra: Partial<OrderSnapshot> = {}): OrderSnapshot {
  return {
    id,
    orderReference: `ref-${id}`,
    status: 'awaiting_funds',
    direction: 'off-ramp',
    coinFrom: 'USDT',
    coinTo: 'MXN',
    chainTo: null,
    amountFrom: '50',
    amountTo: '858.18',
    transactionId: null,
    readAt: new Date().toISOString(),
    ...extra,
  };
}

const SWEEP_FEE = { asset: 'TRX', amount: '30' };
const TOP_UP_FEE = { asset: 'TRX', amount: '15' };

const GOLDEN_OWNER = { endUserId: 'user-golden', endUserSearchValue: 'user-golden', linked: true };

/** Polls `read` until `done` holds (queries answer from the last completed workflow task). */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const until = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('golden histories: scripted runs of paths the other recorded histories do not cover', () => {
  let client: Client;
  let connection: Connection;
  let running: RunningTestWorker | undefined;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });
  afterAll(async () => {
    await connection.close();
  });

  /** The activity types a run scheduled, in order. */
  async function activitiesScheduled(workflowId: string): Promise<string[]> {
    const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    return events.flatMap((event) => event.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
  }

  async function worker(activities: Partial<Record<keyof RampActivities, unknown>>): Promise<string> {
    running = await startTestWorker(activities as unknown as RampActivities);
    return running.taskQueue;
  }

  /** An off-ramp started the way the router starts one: signal-with-start with the deposit's snapshot. */
  function startOffRamp(taskQueue: string, deposit: TransactionSnapshot, timings: WorkflowTimings) {
    return client.workflow.signalWithStart('offRampWorkflow', {
      workflowId: `offramp/${deposit.id}`,
      taskQueue,
      args: [{ depositTransactionId: deposit.id, timings }],
      signal: offRampTransactionSignal,
      signalArgs: [{ role: 'deposit', transaction: deposit }],
    });
  }

  /** An on-ramp of a known end user whose order event arrives first. */
  function startOnRamp(taskQueue: string, opened: OrderSnapshot) {
    return client.workflow.signalWithStart('onRampWorkflow', {
      workflowId: `onramp/${opened.orderReference}`,
      taskQueue,
      args: [
        {
          orderReference: opened.orderReference,
          endUserId: 'user-golden',
          timings: fastTimings({ stepDeadlineMs: 300 }),
        },
      ],
      signal: onRampOrderSignal,
      signalArgs: [opened],
    });
  }

  test('off-ramp: end user found and linked, then settled by events, its order read', async () => {
    const depositId = `dep-${randomUUID()}`;
    const swap = order(`order-${randomUUID()}`, { status: 'executed' });
    const linked: unknown[] = [];
    const taskQueue = await worker({
      attributeOffRamp: (input: unknown) => {
        linked.push(input);
        return Promise.resolve(GOLDEN_OWNER);
      },
      readOrderSnapshot: () => Promise.resolve(swap),
      pollOffRamp: () => Promise.reject(new Error('not expected: every step has its event in time')),
    });
    const handle = await startOffRamp(
      taskQueue,
      tx(depositId, { status: 'mined' }),
      fastTimings({ stepDeadlineMs: 30_000 }),
    );
    const stateIs = (status: OffRampState['status']) =>
      eventually(
        () => handle.query(offRampStateQuery),
        (state) => state.status === status,
        status,
      );
    await stateIs('awaiting-deposit-confirmation');
    await handle.signal(offRampTransactionSignal, {
      role: 'deposit',
      transaction: tx(depositId, { status: 'confirmed' }),
    });
    await stateIs('awaiting-sweep');
    const sweepId = `sweep-${randomUUID()}`;
    await handle.signal(offRampTransactionSignal, {
      role: 'sweep',
      transaction: tx(sweepId, { type: 'AutoSweep', status: 'published', relatedTransactionId: depositId }),
    });
    await stateIs('awaiting-sweep-confirmation');
    await handle.signal(offRampTransactionSignal, {
      role: 'sweep',
      transaction: tx(sweepId, {
        type: 'AutoSweep',
        status: 'confirmed',
        relatedTransactionId: depositId,
        orderId: swap.id,
      }),
    });
    await stateIs('awaiting-settlement');
    // The order transaction's event: the process then reads its order (the fiat amount) and settles.
    await handle.signal(offRampTransactionSignal, {
      role: 'orderTransaction',
      transaction: tx(`order-tx-${randomUUID()}`, {
        type: 'AutoSwap',
        status: 'completed',
        relatedTransactionId: depositId,
        orderId: swap.id,
      }),
    });

    const state = (await handle.result()) as OffRampState;
    expect(state).toMatchObject({ status: 'settled', endUserId: 'user-golden', orderId: swap.id, polls: 0 });
    expect(state.step).toBe(`Settled: 858.18 MXN (order ${swap.id})`);
    expect(linked).toEqual([{ walletId: 'wallet-golden', depositTransactionId: depositId }]);
    // One round trip before its first step (its ledger writes aside).
    const scheduled = await activitiesScheduled(handle.workflowId);
    expect(scheduled.filter((name) => name !== 'recordRamp')).toEqual([
      'attributeOffRamp',
      'readOrderSnapshot',
    ]);
    await recordHistory(client, handle.workflowId, 'offramp-settled-by-events');
  });

  test('off-ramp: the forwards that name its order carry it; it settles without a read of its own', async () => {
    const depositId = `dep-${randomUUID()}`;
    const sweepId = `sweep-${randomUUID()}`;
    const opened = order(`order-${randomUUID()}`);
    const executed = { ...opened, status: 'executed' };
    const taskQueue = await worker({
      attributeOffRamp: () => Promise.resolve(GOLDEN_OWNER),
      readOrderSnapshot: () =>
        Promise.reject(ApplicationFailure.nonRetryable('not expected: the forward carries the order')),
      pollOffRamp: () => Promise.reject(new Error('not expected: every step has its event in time')),
    });
    const handle = await startOffRamp(
      taskQueue,
      tx(depositId, { status: 'confirmed' }),
      fastTimings({ stepDeadlineMs: 30_000 }),
    );
    await handle.signal(offRampTransactionSignal, {
      role: 'sweep',
      transaction: tx(sweepId, { type: 'AutoSweep', status: 'confirmed', relatedTransactionId: depositId }),
    });
    const orderTransaction = tx(`order-tx-${randomUUID()}`, {
      type: 'AutoSwap',
      status: 'created',
      relatedTransactionId: depositId,
      orderId: opened.id,
    });
    await handle.signal(offRampTransactionSignal, {
      role: 'orderTransaction',
      transaction: orderTransaction,
      order: opened,
    });
    await eventually(
      () => handle.query(offRampStateQuery),
      (state) => state.order?.id === opened.id,
      'the order applied',
    );
    await handle.signal(offRampTransactionSignal, {
      role: 'orderTransaction',
      transaction: { ...orderTransaction, status: 'completed' },
      order: executed,
    });

    const state = (await handle.result()) as OffRampState;
    expect(state).toMatchObject({ status: 'settled', fiatAmount: '858.18', orderId: opened.id, polls: 0 });
    expect(state.lastFailure).toBeUndefined();
    const scheduled = await activitiesScheduled(handle.workflowId);
    expect(scheduled.filter((name) => name !== 'recordRamp')).toEqual(['attributeOffRamp']);
    await recordHistory(client, handle.workflowId, 'offramp-order-in-forward-settled');
  });

  test('off-ramp: the sweep confirmation and the order completion in one workflow task; the order is read at once', async () => {
    const depositId = `dep-${randomUUID()}`;
    const sweepId = `sweep-${randomUUID()}`;
    const swap = order(`order-${randomUUID()}`, { status: 'executed' });
    const orderReads: string[] = [];
    const activities = {
      attributeOffRamp: () => Promise.resolve(GOLDEN_OWNER),
      readOrderSnapshot: ({ id }: { id: string }) => {
        orderReads.push(id);
        return Promise.resolve(swap);
      },
      pollOffRamp: () => Promise.reject(new Error('not expected: the order is read without a poll')),
    };
    const taskQueue = await worker(activities);
    // A step deadline far beyond the test's timeout: only reading at once settles it in time.
    const handle = await startOffRamp(
      taskQueue,
      tx(depositId, { status: 'confirmed' }),
      fastTimings({ stepDeadlineMs: 600_000 }),
    );
    await handle.signal(offRampTransactionSignal, {
      role: 'sweep',
      transaction: tx(sweepId, { type: 'AutoSweep', status: 'published', relatedTransactionId: depositId }),
    });
    await eventually(
      () => handle.query(offRampStateQuery),
      (state) => state.status === 'awaiting-sweep-confirmation',
      'awaiting-sweep-confirmation',
    );
    // The worker goes away, both events are recorded, and a worker on the same queue gets them in one task.
    await running!.stop();
    running = undefined;
    await handle.signal(offRampTransactionSignal, {
      role: 'sweep',
      transaction: tx(sweepId, {
        type: 'AutoSweep',
        status: 'confirmed',
        relatedTransactionId: depositId,
        orderId: swap.id,
      }),
    });
    await handle.signal(offRampTransactionSignal, {
      role: 'orderTransaction',
      transaction: tx(`order-tx-${randomUUID()}`, {
        type: 'AutoSwap',
        status: 'completed',
        relatedTransactionId: depositId,
        orderId: swap.id,
      }),
    });
    running = await startTestWorker(activities as unknown as RampActivities, taskQueue);

    const state = (await handle.result()) as OffRampState;
    expect(state).toMatchObject({ status: 'settled', orderId: swap.id, polls: 0 });
    expect(orderReads).toEqual([swap.id]);
    await recordHistory(client, handle.workflowId, 'offramp-order-events-together');
  });

  test('off-ramp: no snapshot in its first activation; the timer fires and a poll reads the deposit', async () => {
    // Started without a snapshot (a signal-with-start delivers one in the first activation, which skips the wait).
    const depositId = `dep-${randomUUID()}`;
    const sweepId = `sweep-${randomUUID()}`;
    const swap = order(`order-${randomUUID()}`, { status: 'executed' });
    const polls: unknown[] = [];
    const taskQueue = await worker({
      pollOffRamp: (input: unknown) => {
        polls.push(input);
        return Promise.resolve({
          deposit: tx(depositId, { status: 'confirmed', relatedTransactionId: sweepId }),
          sweep: tx(sweepId, {
            type: 'AutoSweep',
            status: 'confirmed',
            relatedTransactionId: depositId,
            orderId: swap.id,
          }),
        });
      },
      attributeOffRamp: () =>
        Promise.reject(
          ApplicationFailure.nonRetryable('no end-user workflow owns the wallet', 'WalletOwnerNotFound'),
        ),
      readOrderSnapshot: () => Promise.resolve(swap),
    });
    const handle = await client.workflow.start('offRampWorkflow', {
      workflowId: `offramp/${depositId}`,
      taskQueue,
      args: [{ depositTransactionId: depositId, timings: fastTimings({ activityStartToCloseMs: 1_000 }) }],
    });

    const state = (await handle.result()) as OffRampState;
    expect(state).toMatchObject({ status: 'settled', unattributed: true, endUserId: null, polls: 1 });
    expect(polls).toEqual([{ depositTransactionId: depositId }]);
    await recordHistory(client, handle.workflowId, 'offramp-first-snapshot-late');
  });

  test('off-ramp: a poll answers a failed deposit', async () => {
    const depositId = `dep-${randomUUID()}`;
    const taskQueue = await worker({
      attributeOffRamp: () => Promise.resolve(GOLDEN_OWNER),
      pollOffRamp: () => Promise.resolve({ deposit: tx(depositId, { status: 'failed' }) }),
    });
    const handle = await startOffRamp(
      taskQueue,
      tx(depositId, { status: 'mined' }),
      fastTimings({ stepDeadlineMs: 300 }),
    );

    const state = (await handle.result()) as OffRampState;
    expect(state).toMatchObject({
      status: 'failed',
      failure: { transactionId: depositId, role: 'deposit', status: 'failed' },
    });
    expect(state.step).toBe(`Failed: deposit ${depositId} is failed`);
    await recordHistory(client, handle.workflowId, 'offramp-failed');
  });

  test('off-ramp: no progress until its process timeout, which raises an alert', async () => {
    const depositId = `dep-${randomUUID()}`;
    const alerts: AlertInput[] = [];
    const taskQueue = await worker({
      attributeOffRamp: () => Promise.resolve(GOLDEN_OWNER),
      pollOffRamp: () => Promise.resolve({ deposit: tx(depositId, { status: 'mined' }) }),
      raiseAlert: (alert: AlertInput) => {
        alerts.push(alert);
        return Promise.resolve({ delivered: 'log', key: `${alert.kind}:${depositId}`, isNew: true });
      },
    });
    const handle = await startOffRamp(
      taskQueue,
      tx(depositId, { status: 'mined' }),
      fastTimings({ stepDeadlineMs: 300, pollMaximumMs: 400, processTimeoutMs: 1_500 }),
    );

    const state = (await handle.result()) as OffRampState;
    expect(state).toMatchObject({ status: 'timed-out', alertsRaised: 1 });
    expect(state.polls).toBeGreaterThan(0);
    expect(alerts.map((alert) => alert.kind)).toEqual(['process-timed-out']);
    await recordHistory(client, handle.workflowId, 'offramp-timed-out');
  });

  test('on-ramp: one order event, then silence; polls find the order executed and the deposit confirmed', async () => {
    const orderId = `order-${randomUUID()}`;
    const depositId = `dep-${randomUUID()}`;
    const opened = order(orderId, { direction: 'on-ramp', coinFrom: 'MXN', coinTo: 'USDT', chainTo: 'TRX' });
    const answers = [
      { order: { ...opened, status: 'executed', transactionId: depositId } },
      {
        order: { ...opened, status: 'executed', transactionId: depositId },
        deposit: tx(depositId, { status: 'confirmed', orderId, amount: '49.5' }),
      },
    ];
    const polls: unknown[] = [];
    const taskQueue = await worker({
      pollOnRamp: (input: unknown) => {
        polls.push(input);
        return Promise.resolve(answers[Math.min(polls.length, answers.length) - 1]);
      },
    });
    const handle = await startOnRamp(taskQueue, opened);

    const state = (await handle.result()) as OnRampState;
    expect(state).toMatchObject({ status: 'settled', cryptoAmount: '49.5', asset: 'USDT', polls: 2 });
    // The order names the deposit, but the poll asks for it by ID only once the process has seen it.
    expect(polls).toEqual([{ orderId }, { orderId }]);
    await recordHistory(client, handle.workflowId, 'onramp-polled-settled');
  });

  test('off-ramp: first looked at after the operator finished; created, its exception, then settled with its booking', async () => {
    // Its events all came late: the order transaction's completion starts it, and a poll finds everything else.
    const depositId = `dep-${randomUUID()}`;
    const sweepId = `sweep-${randomUUID()}`;
    const swap = order(`order-${randomUUID()}`, { status: 'executed' });
    const records: RampRecord[] = [];
    const taskQueue = await worker({
      pollOffRamp: () =>
        Promise.resolve({
          deposit: tx(depositId, { status: 'confirmed', relatedTransactionId: sweepId }),
          sweep: tx(sweepId, {
            type: 'AutoSweep',
            status: 'confirmed',
            relatedTransactionId: depositId,
            orderId: swap.id,
            fee: SWEEP_FEE,
          }),
          order: swap,
        }),
      attributeOffRamp: () =>
        Promise.reject(
          ApplicationFailure.nonRetryable('no end-user workflow owns the wallet', 'WalletOwnerNotFound'),
        ),
      readOrderSnapshot: () =>
        Promise.reject(ApplicationFailure.nonRetryable('not expected: the poll read the order')),
      raiseAlert: (alert: AlertInput) =>
        Promise.resolve({ delivered: 'log', key: `${alert.kind}:${depositId}`, isNew: true }),
      recordRamp: (record: RampRecord) => {
        records.push(record);
        return Promise.resolve();
      },
    });
    const handle = await client.workflow.signalWithStart('offRampWorkflow', {
      workflowId: `offramp/${depositId}`,
      taskQueue,
      args: [{ depositTransactionId: depositId, timings: fastTimings() }],
      signal: offRampTransactionSignal,
      signalArgs: [
        {
          role: 'orderTransaction',
          transaction: tx(`order-tx-${randomUUID()}`, {
            type: 'AutoSwap',
            status: 'completed',
            relatedTransactionId: depositId,
            orderId: swap.id,
          }),
        },
      ],
    });

    const state = (await handle.result()) as OffRampState;
    await recordHistory(client, handle.workflowId, 'offramp-settled-at-first-look');
    expect(state).toMatchObject({ status: 'settled', unattributed: true, fiatAmount: '858.18', polls: 1 });
    const raised = records.flatMap((record) => record.raised.map((event) => event.event));
    expect(raised.map((event) => event.type)).toEqual([
      'off_ramp.created',
      'off_ramp.exception',
      'off_ramp.settled',
    ]);
    // The settled event, the one a client credits from, carries the exception and the gas it was booked with.
    expect(raised[2]?.data).toMatchObject({
      status: 'settled',
      exceptions: [expect.objectContaining({ reason: 'unattributed' })],
      gas: { sweep: SWEEP_FEE, total: SWEEP_FEE },
    });
  });

  test('off-ramp: a gas top-up that comes in while its last write runs is booked by one more', async () => {
    const depositId = `dep-${randomUUID()}`;
    const sweepId = `sweep-${randomUUID()}`;
    const opened = order(`order-${randomUUID()}`);
    const finalWrites: RampRecord[] = [];
    const workflowId = `offramp/${depositId}`;
    const topUp = tx(`top-up-${randomUUID()}`, {
      type: 'Internal Transfer',
      status: 'confirmed',
      relatedTransactionId: depositId,
      asset: 'TRX',
      fee: TOP_UP_FEE,
    });
    const taskQueue = await worker({
      attributeOffRamp: () => Promise.resolve(GOLDEN_OWNER),
      readOrderSnapshot: () =>
        Promise.reject(ApplicationFailure.nonRetryable('not expected: the forward carries the order')),
      pollOffRamp: () => Promise.reject(new Error('not expected: every step has its event in time')),
      // The top-up's event, the last to come, reaches the process while its first last write runs.
      recordRamp: async (record: RampRecord) => {
        if (record.closedAt === undefined) return;
        finalWrites.push(record);
        if (finalWrites.length === 1)
          await client.workflow
            .getHandle(workflowId)
            .signal(offRampTransactionSignal, { role: 'gasTopUp', transaction: topUp });
      },
    });
    const handle = await startOffRamp(
      taskQueue,
      tx(depositId, { status: 'confirmed' }),
      fastTimings({ stepDeadlineMs: 30_000 }),
    );
    await handle.signal(offRampTransactionSignal, {
      role: 'sweep',
      transaction: tx(sweepId, {
        type: 'AutoSweep',
        status: 'confirmed',
        relatedTransactionId: depositId,
        fee: SWEEP_FEE,
      }),
    });
    await handle.signal(offRampTransactionSignal, {
      role: 'orderTransaction',
      transaction: tx(`order-tx-${randomUUID()}`, {
        type: 'AutoSwap',
        status: 'completed',
        relatedTransactionId: depositId,
        orderId: opened.id,
      }),
      order: { ...opened, status: 'executed' },
    });

    const state = (await handle.result()) as OffRampState;
    await recordHistory(client, handle.workflowId, 'offramp-top-up-during-last-write');
    const total = { asset: 'TRX', amount: '45' };
    expect(state).toMatchObject({ status: 'settled', gasTopUp: { id: topUp.id } });
    const bookedGas = finalWrites.map((record) => (record.ramp.state as OffRampState).gas);
    expect(bookedGas.map((gas) => gas?.total)).toEqual([SWEEP_FEE, total]);
    // The booked row is what the process returns.
    expect(bookedGas.at(-1)).toEqual(state.gas);
    expect(finalWrites.at(-1)?.raised).toEqual([]);
  });

  test('on-ramp: first looked at with its deposit confirmed; created, then settled in its loop', async () => {
    const orderId = `order-${randomUUID()}`;
    const depositId = `dep-${randomUUID()}`;
    const executed = order(orderId, {
      direction: 'on-ramp',
      status: 'executed',
      coinFrom: 'MXN',
      coinTo: 'USDT',
      chainTo: 'TRX',
      transactionId: depositId,
    });
    const records: RampRecord[] = [];
    const taskQueue = await worker({
      pollOnRamp: () => Promise.resolve({ order: executed }),
      recordRamp: (record: RampRecord) => {
        records.push(record);
        return Promise.resolve();
      },
    });
    const handle = await client.workflow.signalWithStart('onRampWorkflow', {
      workflowId: `onramp/${executed.orderReference}`,
      taskQueue,
      args: [
        {
          orderReference: executed.orderReference,
          endUserId: 'user-golden',
          timings: fastTimings({ stepDeadlineMs: 300 }),
        },
      ],
      signal: onRampTransactionSignal,
      signalArgs: [tx(depositId, { status: 'confirmed', orderId, amount: '49.5' })],
    });

    const state = (await handle.result()) as OnRampState;
    await recordHistory(client, handle.workflowId, 'onramp-settled-at-first-look');
    expect(state).toMatchObject({ status: 'settled', cryptoAmount: '49.5' });
    const raised = records.flatMap((record) => record.raised.map((event) => event.event));
    expect(raised.map((event) => [event.type, (event.data as OutcomeEventData).status])).toEqual([
      ['on_ramp.created', 'awaiting-confirmation'],
      ['on_ramp.settled', 'settled'],
    ]);
  });

  test('on-ramp: a poll finds the order expired', async () => {
    const opened = order(`order-${randomUUID()}`, { direction: 'on-ramp', coinFrom: 'MXN', coinTo: 'USDT' });
    const taskQueue = await worker({
      pollOnRamp: () => Promise.resolve({ order: { ...opened, status: 'expired' } }),
    });
    const handle = await startOnRamp(taskQueue, opened);

    const state = (await handle.result()) as OnRampState;
    expect(state).toMatchObject({
      status: 'expired',
      step: 'Order expired',
      failure: { resource: 'order', id: opened.id, status: 'expired' },
    });
    await recordHistory(client, handle.workflowId, 'onramp-expired');
  });

  test('on-ramp: no event at all and no end user; it times out, nobody claims it, it closes unclaimed', async () => {
    const reference = `ref-${randomUUID()}`;
    const alerts: AlertInput[] = [];
    const recorded: RaisedEvent[] = [];
    const taskQueue = await worker({
      recordRamp: (record: { raised: RaisedEvent[] }) => {
        recorded.push(...record.raised);
        return Promise.resolve();
      },
      pollOnRamp: () => Promise.reject(new Error('not expected: without an order there is nothing to poll')),
      raiseAlert: (alert: AlertInput) => {
        alerts.push(alert);
        return Promise.resolve({
          delivered: 'log',
          key: `unclaimed-on-ramp/onramp/${reference}`,
          isNew: true,
        });
      },
    });
    const handle = await client.workflow.start('onRampWorkflow', {
      workflowId: `onramp/${reference}`,
      taskQueue,
      args: [
        {
          orderReference: reference,
          timings: fastTimings({ processTimeoutMs: 1_000, onRampClaimWindowMs: 500 }),
        },
      ],
    });

    const state = (await handle.result()) as OnRampState;
    expect(state).toMatchObject({
      status: 'unclaimed',
      unattributed: true,
      endUserId: null,
      polls: 0,
      unclaimedIncident: `unclaimed-on-ramp/onramp/${reference}`,
    });
    // Each raised once, in order, written to the ledger with the view.
    expect(recorded.map((record) => [record.sequence, record.event.type])).toEqual([
      [1, 'on_ramp.created'],
      [2, 'on_ramp.timed_out'],
      [3, 'on_ramp.unclaimed'],
    ]);
    expect(alerts).toEqual([
      expect.objectContaining({
        kind: 'unclaimed-on-ramp',
        details: expect.objectContaining({ endedAs: 'timed-out' }),
      }),
    ]);
    await recordHistory(client, handle.workflowId, 'onramp-timed-out-unclaimed');
  });

  test('quote: one createQuote', async () => {
    const request: QuoteRequestInput = {
      direction: 'off-ramp',
      coinFrom: 'USDT',
      coinTo: 'MXN',
      chainFrom: 'TRX',
      amountFrom: '100',
    };
    const quoted: QuoteResult = {
      ...request,
      targetAmount: '1716.36',
      expiresAt: new Date(Date.now() + 25_000).toISOString(),
      quoteId: 'quote-golden',
      quotedAt: new Date().toISOString(),
    };
    const taskQueue = await worker({ createQuote: () => Promise.resolve(quoted) });
    const handle = await client.workflow.start('quoteWorkflow', {
      workflowId: `quote/${randomUUID()}`,
      taskQueue,
      args: [{ request, timings: fastTimings() }],
    });

    expect(await handle.result()).toEqual(quoted);
    await recordHistory(client, handle.workflowId, 'quote');
  });

  test('unknown events: two deliveries kept', async () => {
    const taskQueue = await worker({});
    const receivedAt = new Date().toISOString();
    // Its own ID: the receiver's singleton webhooks/unknown-events may be in use by another test of the run.
    const handle = await client.workflow.signalWithStart('unknownEventsWorkflow', {
      workflowId: `webhooks/unknown-events-${randomUUID()}`,
      taskQueue,
      args: [{}],
      signal: unknownEventSignal,
      signalArgs: [
        {
          eventType: 'wallet-frozen',
          resourceId: 'wallet-1',
          kindPath: 'transaction',
          receivedAt,
          payloadKeys: ['id'],
        },
      ],
    });
    await handle.signal(unknownEventSignal, {
      eventType: 'order-amended',
      resourceId: null,
      kindPath: 'order',
      receivedAt,
      payloadKeys: ['eventType', 'note'],
    });

    const events = await eventually(
      () => handle.query(unknownEventsQuery),
      (kept) => kept.length === 2,
      'two unknown events',
    );
    expect(events.map((event) => event.eventType)).toEqual(['wallet-frozen', 'order-amended']);
    // The workflow never ends by itself (it continues as new when its history grows): its history so far.
    await recordHistory(client, handle.workflowId, 'unknown-events', { running: true });
    await handle.terminate('golden history recorded');
  });
});
