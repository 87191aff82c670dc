/**
 * A ramp's state as the ledger keeps it: its public view, and when it ends its booked row and the operator
 * resources reconciliation re-reads. Pure: the ramp's record activity computes them from the state the workflow
 * hands it, so the view can change without changing what a workflow records.
 */
import type { OffRampRole, OffRampState } from '../../workflows/ramps/offramp/types';
import type { OnRampState } from '../../workflows/ramps/onramp/types';
import type { TransactionSnapshot } from '../../workflows/ramps/shared/snapshots';
import type { BookedRow, OffRampView, OnRampView } from './views';

/** A ramp's state and where it runs, as its record activity receives it. */
export type RampState =
  | { direction: 'off-ramp'; workflowId: string; state: OffRampState }
  | { direction: 'on-ramp'; workflowId: string; state: OnRampState };

/** An operator resource a ramp booked, as it was booked: reconciliation reads it again and compares. */
export type BookedResource =
  | { kind: 'order'; id: string; status: string; amountFrom: string | null; amountTo: string | null }
  | { kind: 'transaction'; id: string; status: string; amount: string | null };

/** An operator resource as an open ramp holds it: its ID and the status the ramp last saw. */
export interface HeldResource {
  id: string;
  status: string;
}

/** The operator resources a ramp holds, by role: reconciliation reads each again and compares. */
export type HeldResources = Partial<Record<OffRampRole | 'order', HeldResource>>;

const transfer = (snapshot: TransactionSnapshot | undefined) =>
  snapshot
    ? {
        transactionId: snapshot.id,
        status: snapshot.status,
        network: snapshot.network,
        asset: snapshot.asset,
        amount: snapshot.amount,
      }
    : null;

export function offRampView(workflowId: string, state: OffRampState, updatedAt: string): OffRampView {
  return {
    workflowId,
    depositTransactionId: state.depositTransactionId,
    status: state.status,
    step: state.step,
    endUserId: state.endUserId,
    unattributed: state.unattributed,
    deposit: transfer(state.deposit),
    orderId: state.orderId ?? state.order?.id ?? null,
    fiatAmount: state.fiatAmount ?? null,
    fiatCurrency: state.fiatCurrency ?? null,
    quote: state.quote ?? null,
    amounts: state.amounts ?? null,
    gas: state.gas ?? null,
    exceptions: state.exceptions ?? [],
    failure: state.failure ?? null,
    stuckSince: state.stuckSince ?? null,
    startedAt: state.startedAt,
    updatedAt,
    endedAt: state.endedAt ?? null,
  };
}

export function onRampView(workflowId: string, state: OnRampState, updatedAt: string): OnRampView {
  const order = state.order;
  return {
    workflowId,
    orderReference: state.orderReference,
    status: state.status,
    step: state.step,
    endUserId: state.endUserId,
    unattributed: state.unattributed,
    order: order
      ? {
          id: order.id,
          status: order.status,
          coinFrom: order.coinFrom,
          coinTo: order.coinTo,
          chainTo: order.chainTo,
          amountFrom: order.amountFrom,
          amountTo: order.amountTo,
        }
      : null,
    deposit: transfer(state.deposit),
    cryptoAmount: state.cryptoAmount ?? null,
    asset: state.asset ?? null,
    quote: state.quote ?? null,
    amounts: state.amounts ?? null,
    exceptions: state.exceptions ?? [],
    failure: state.failure ?? null,
    claimableUntil: state.claimableUntil ?? null,
    claimedAt: state.claimedAt ?? null,
    unclaimedIncident: state.unclaimedIncident ?? null,
    startedAt: state.startedAt,
    updatedAt,
    endedAt: state.endedAt ?? null,
  };
}

export const rampView = (ramp: RampState, updatedAt: string): OffRampView | OnRampView =>
  ramp.direction === 'off-ramp'
    ? offRampView(ramp.workflowId, ramp.state, updatedAt)
    : onRampView(ramp.workflowId, ramp.state, updatedAt);

/** The statement's row of a ramp that ended, with the webhook-ids of its outcome events in order. */
export function bookedRow(ramp: RampState, closedAt: string, webhookIds: string[]): BookedRow {
  const { state } = ramp;
  const amounts = state.amounts;
  const base = {
    workflowId: ramp.workflowId,
    direction: ramp.direction,
    status: state.status,
    startedAt: state.startedAt,
    endedAt: state.endedAt ?? null,
    closedAt,
    endUserId: state.endUserId,
    webhookIds,
    exceptions: state.exceptions?.map((exception) => exception.reason) ?? [],
    rate: amounts?.executed.rate ?? null,
    quotedAmountFrom: amounts?.quoted?.amountFrom ?? null,
    quotedTargetAmount: amounts?.quoted?.targetAmount ?? null,
    quotedRate: amounts?.quoted?.rate ?? null,
    quoteExpiresAt: amounts?.quoted?.expiresAt ?? null,
    difference: amounts?.difference ?? null,
    differencePercent: amounts?.differencePercent ?? null,
    executedAfterExpiry: amounts?.executedAfterExpiry ?? null,
  };
  if (ramp.direction === 'off-ramp') {
    const off = ramp.state;
    return {
      ...base,
      orderReference: null,
      depositTransactionId: off.depositTransactionId,
      orderId: off.orderId ?? off.order?.id ?? null,
      assetFrom: off.deposit?.asset ?? null,
      amountFrom: amounts?.executed.amountFrom ?? off.deposit?.amount ?? null,
      assetTo: amounts ? (off.order?.coinTo ?? off.fiatCurrency ?? null) : null,
      amountTo: amounts?.executed.amountTo ?? null,
      gasAsset: off.gas?.total?.asset ?? null,
      gasAmount: off.gas?.total?.amount ?? null,
      claimedAt: null,
    };
  }
  const on = ramp.state;
  const order = on.order;
  return {
    ...base,
    orderReference: on.orderReference,
    depositTransactionId: on.deposit?.id ?? null,
    orderId: order?.id ?? null,
    assetFrom: order?.coinFrom ?? null,
    amountFrom: amounts?.executed.amountFrom ?? order?.amountFrom ?? null,
    assetTo: amounts ? (order?.coinTo ?? null) : null,
    amountTo: amounts?.executed.amountTo ?? null,
    gasAsset: null,
    gasAmount: null,
    claimedAt: on.claimedAt ?? null,
  };
}

/** The operator resources a ramp booked (its order and its deposit), as it booked them. */
export function bookedResources(ramp: RampState): BookedResource[] {
  const { order, deposit } = ramp.state;
  return [
    ...(order
      ? [
          {
            kind: 'order' as const,
            id: order.id,
            status: order.status,
            amountFrom: order.amountFrom,
            amountTo: order.amountTo,
          },
        ]
      : []),
    ...(deposit
      ? [{ kind: 'transaction' as const, id: deposit.id, status: deposit.status, amount: deposit.amount }]
      : []),
  ];
}

/** What the ramp holds of each of its operator resources, by role. */
export function heldResources(ramp: RampState): HeldResources {
  const held: HeldResources = {};
  const hold = (role: keyof HeldResources, snapshot: { id: string; status: string } | undefined) => {
    if (snapshot) held[role] = { id: snapshot.id, status: snapshot.status };
  };
  hold('order', ramp.state.order);
  hold('deposit', ramp.state.deposit);
  if (ramp.direction === 'off-ramp') {
    hold('gasTopUp', ramp.state.gasTopUp);
    hold('sweep', ramp.state.sweep);
    hold('orderTransaction', ramp.state.orderTransaction);
  }
  return held;
}
