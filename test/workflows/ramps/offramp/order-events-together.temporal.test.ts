/**
 * The sweep's confirmation and the order transaction's completion reach the off-ramp in one workflow task (they
 * came together, or the worker was away): the process must read its order at once and settle, not wait for its
 * step deadline and a poll, since no further event comes.
 */
import { randomUUID } from 'node:crypto';
import type { Client, Connection } from '@temporalio/client';
import type { RampActivities } from '../../../../activities';
import { offRampWorkflowId, WORKFLOW_TYPES } from '../../../../src/domain/ids';
import { offRampStateQuery, offRampTransactionSignal } from '../../../../workflows/ramps/offramp/messages';
import type { OffRampState } from '../../../../workflows/ramps/offramp/types';
import { recordHistory } from '../../../helpers/histories';
import { order, tx } from '../../../helpers/ramp-fixtures';
import {
  connectTestClient,
  fastTimings,
  type RunningTestWorker,
  startTestWorker,
} from '../../../helpers/temporal';
import { waitFor } from '../../../helpers/wait';

describe('off-ramp whose last two events arrive in one workflow task', () => {
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

  test('reads its order at once and settles without a poll', async () => {
    const depositId = `dep-${randomUUID()}`;
    const sweepId = `sweep-${randomUUID()}`;
    const swap = order(`order-${randomUUID()}`, { status: 'executed' });
    const orderReads: string[] = [];
    const activities = {
      findEndUserByWallet: () => Promise.resolve({ endUserId: 'user-1', endUserSearchValue: 'user-1' }),
      linkOffRampToEndUser: () => Promise.resolve(),
      readOrderSnapshot: ({ id }: { id: string }) => {
        orderReads.push(id);
        return Promise.resolve(swap);
      },
      pollOffRamp: () => Promise.reject(new Error('not expected: the order is read without a poll')),
    } as unknown as RampActivities;
    running = await startTestWorker(activities);
    const { taskQueue } = running;
    // A step deadline far beyond the test's wait: only reading at once can settle it in time.
    const handle = await client.workflow.signalWithStart(WORKFLOW_TYPES.offRamp, {
      workflowId: offRampWorkflowId(depositId),
      taskQueue,
      args: [{ depositTransactionId: depositId, timings: fastTimings({ stepDeadlineMs: 600_000 }) }],
      signal: offRampTransactionSignal,
      signalArgs: [{ role: 'deposit', transaction: tx(depositId, { status: 'confirmed' }) }],
    });
    await handle.signal(offRampTransactionSignal, {
      role: 'sweep',
      transaction: tx(sweepId, { type: 'AutoSweep', status: 'published', relatedTransactionId: depositId }),
    });
    await waitFor(
      async () => (await handle.query(offRampStateQuery)).status === 'awaiting-sweep-confirmation',
      'awaiting-sweep-confirmation',
    );

    // The worker goes away, both events are recorded, and a worker on the same queue gets them in one task.
    await running.stop();
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
    running = await startTestWorker(activities, taskQueue);

    const state = (await handle.result()) as OffRampState;
    expect(state).toMatchObject({ status: 'settled', orderId: swap.id, polls: 0 });
    expect(orderReads).toEqual([swap.id]);
    await recordHistory(client, handle.workflowId, 'offramp-order-events-together');
  });
});
