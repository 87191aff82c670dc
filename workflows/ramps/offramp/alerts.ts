/**
 * The off-ramp's incidents: its exceptions', the stuck sweep's (a gas shortfall or a sweep that did not start), a
 * timed-out process's, and what closes them when it settles. Pure and workflow-safe.
 */
import type { RampException } from '../../../src/domain/markets';
import type { AlertKind } from '../../operations/alerts/types';
import type { GasCheck } from '../../operations/gas-monitor/types';
import type { AlertResolution, RampAlert } from '../shared/rules';
import type { OffRampState, OffRampStatus } from './types';

/** The two stuck alerts; the one raised is resolved when the deposit settles. */
export type StuckAlertKind = Extract<AlertKind, 'gas-shortfall' | 'sweep-not-started'>;

/** The incident of an exception: one per deposit and reason. */
export function exceptionAlert(
  state: OffRampState,
  _workflowId: string,
  exception: RampException,
): RampAlert<'ramp-exception'> {
  return {
    kind: 'ramp-exception',
    message: `Off-ramp of deposit ${state.depositTransactionId}: ${exception.reason}: ${exception.message}`,
    details: {
      depositTransactionId: state.depositTransactionId,
      reason: exception.reason,
      endUserId: state.endUserId,
      walletId: state.deposit?.walletId ?? null,
      asset: state.deposit?.asset ?? null,
      amount: state.deposit?.amount ?? null,
    },
  };
}

/** Closes an exception's incident once the deposit settled anyway. */
export function exceptionResolution(
  state: OffRampState,
  _workflowId: string,
  exception: RampException,
): AlertResolution<'ramp-exception'> {
  return {
    kind: 'ramp-exception',
    details: { depositTransactionId: state.depositTransactionId, reason: exception.reason },
    resolution: `Deposit ${state.depositTransactionId} settled anyway (order ${state.orderId ?? '?'}): the operator converted it`,
  };
}

/** The network the stuck sweep is on, as the gas check and its alert name it. */
export function stuckNetwork(state: OffRampState): string {
  return state.deposit?.network ?? 'unknown';
}

/** What the process records when the gas wallet could not be checked (it alerts anyway). */
export function unavailableGasCheck(network: string, message: string, checkedAt: string): GasCheck {
  return {
    gasWalletId: null,
    network,
    asset: '?',
    balance: null,
    minimum: '?',
    shortfall: false,
    checkedAt,
    error: message,
  };
}

/** The stuck alert: a gas shortfall when the gas wallet is short, otherwise a sweep that did not start. */
export function stuckAlert(state: OffRampState, network: string, gas: GasCheck): RampAlert<StuckAlertKind> {
  const id = state.depositTransactionId;
  const details = {
    depositTransactionId: id,
    endUserId: state.endUserId,
    network,
    gasWalletId: gas.gasWalletId,
    asset: gas.asset,
    balance: gas.balance,
    minimum: gas.minimum,
  };
  if (gas.shortfall) {
    return {
      kind: 'gas-shortfall',
      message: `Gas wallet ${gas.gasWalletId ?? '?'} holds ${gas.balance ?? '?'} ${gas.asset} on ${network} (minimum ${gas.minimum}): the Autoswap of deposit ${id} is stranded until it is funded`,
      details,
    };
  }
  return {
    kind: 'sweep-not-started',
    message: `The sweep of deposit ${id} did not start in time (gas wallet balance ${gas.balance ?? 'unknown'} ${gas.asset})`,
    details,
  };
}

export function timedOutAlert(state: OffRampState, status: OffRampStatus): RampAlert<'process-timed-out'> {
  const id = state.depositTransactionId;
  return {
    kind: 'process-timed-out',
    message: `Off-ramp of deposit ${id} did not finish within its process timeout (last step: ${state.step})`,
    details: { depositTransactionId: id, status },
  };
}

/** Closes the stuck incident once the deposit settles. */
export function stuckResolution(
  state: OffRampState,
  kind: StuckAlertKind,
): { kind: StuckAlertKind; details: { depositTransactionId: string }; resolution: string } {
  return {
    kind,
    details: { depositTransactionId: state.depositTransactionId },
    resolution: `Deposit ${state.depositTransactionId} settled (order ${state.orderId ?? '?'})`,
  };
}
