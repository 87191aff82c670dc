/** Snapshots and timings for the ramp rules' unit tests. */
import type { WorkflowTimings } from '../../src/domain/timings';
import type { OrderSnapshot, TransactionSnapshot } from '../../workflows/ramps/shared/snapshots';

export const timings: WorkflowTimings = {
  activityStartToCloseMs: 5_000,
  activityScheduleToCloseMs: 30_000,
  activityRetryInitialMs: 100,
  activityRetryMaximumMs: 500,
  activityHeartbeatMs: 5_000,
  stepDeadlineMs: 2_000,
  pollInitialMs: 200,
  pollMaximumMs: 1_000,
  processTimeoutMs: 60_000,
  quoteTtlMs: 25_000,
  unknownResourceTimeoutMs: 60_000,
  outcomeDelivery: {
    attemptTimeoutMs: 15_000,
    retryInitialMs: 5_000,
    retryMaximumMs: 3_600_000,
    retryForMs: 86_400_000,
  },
};

export const READ_AT = '2026-01-01T00:00:00.000Z';

export function tx(id: string, extra: Partial<TransactionSnapshot> = {}): TransactionSnapshot {
  return {
    id,
    status: 'created',
    type: 'Deposit',
    subtype: null,
    walletId: 'wallet-1',
    network: 'networks/tron-mainnet',
    asset: 'USDT',
    amount: '50',
    relatedTransactionId: null,
    orderId: null,
    readAt: READ_AT,
    ...extra,
  };
}

export function order(id: string, extra: Partial<OrderSnapshot> = {}): OrderSnapshot {
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
    readAt: READ_AT,
    ...extra,
  };
}
