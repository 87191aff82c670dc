/**
 * An off-ramp that is already settled at its first evaluation (its first snapshot is the order transaction, and
 * the poll for its deposit finds everything done) must still show its fiat amount and order in its step text;
 * it used to say "Settled: ? (order ?)" because the step was built before the settlement fields were read.
 * Also checks that the off-ramp finds and links its end user through the attributeOffRamp activity.
 */
import { randomUUID } from 'node:crypto';
import type { Client, Connection } from '@temporalio/client';
import type { RampActivities } from '../../../../activities';
import { offRampWorkflowId, WORKFLOW_TYPES } from '../../../../src/domain/ids';
import { offRampTransactionSignal } from '../../../../workflows/ramps/offramp/messages';
import type { OffRampState } from '../../../../workflows/ramps/offramp/types';
import type { OrderSnapshot, TransactionSnapshot } from '../../../../workflows/ramps/shared/snapshots';
import {
  connectTestClient,
  fastTimings,
  type RunningTestWorker,
  startTestWorker,
} from '../../../helpers/temporal';

const readAt = new Date().toISOString();
const tx = (id: string, extra: Partial<TransactionSnapshot>): TransactionSnapshot => ({
  id,
  status: 'completed',
  type: 'Deposit',
  subtype: null,
  walletId: 'wallet-1',
  network: 'networks/tron-mainnet',
  asset: 'USDT',
  amount: '50',
  relatedTransactionId: null,
  orderId: null,
  readAt,
  ...extra,
});

describe('off-ramp settled at its first evaluation', () => {
  let client: Client;
  let connection: Connection;
  let running: RunningTestWorker | undefined;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
  });
  afterAll(async () => {
    await running?.stop();
    await connection.close();
  });

  test('its step names the fiat amount and the order', async () => {
    const depositId = `dep-${randomUUID()}`;
    const order: OrderSnapshot = {
      id: 'order-9',
      orderReference: 'ref-9',
      status: 'executed',
      direction: 'off-ramp',
      coinFrom: 'USDT',
      coinTo: 'MXN',
      chainTo: null,
      amountFrom: '50',
      amountTo: '858.18',
      transactionId: 'order-tx-9',
      readAt,
    };
    const linked: Array<{ walletId: string; depositTransactionId: string }> = [];
    const activities = {
      pollOffRamp: () =>
        Promise.resolve({
          deposit: tx(depositId, { relatedTransactionId: 'sweep-9' }),
          sweep: tx('sweep-9', { type: 'AutoSweep', orderId: order.id }),
          order,
        }),
      attributeOffRamp: (input: { walletId: string; depositTransactionId: string }) => {
        linked.push(input);
        return Promise.resolve({ endUserId: 'user-9', endUserSearchValue: 'user-9' });
      },
      readOrderSnapshot: () => Promise.resolve(order),
    } as unknown as RampActivities;
    running = await startTestWorker(activities);
    const handle = await client.workflow.signalWithStart(WORKFLOW_TYPES.offRamp, {
      workflowId: offRampWorkflowId(depositId),
      taskQueue: running.taskQueue,
      args: [{ depositTransactionId: depositId, timings: fastTimings() }],
      signal: offRampTransactionSignal,
      signalArgs: [
        { role: 'orderTransaction', transaction: tx('order-tx-9', { type: 'AutoSwap', orderId: order.id }) },
      ],
    });
    const state = (await handle.result()) as OffRampState;
    expect(state).toMatchObject({
      status: 'settled',
      fiatAmount: '858.18',
      fiatCurrency: 'MXN',
      orderId: 'order-9',
      endUserId: 'user-9',
    });
    expect(state.step).toBe('Settled: 858.18 MXN (order order-9)');
    expect(linked).toEqual([{ walletId: 'wallet-1', depositTransactionId: depositId }]);
  });
});
