/**
 * The on-ramp's incidents: its exceptions', what closes them when it settles anyway, and the one of an on-ramp
 * nobody claimed. Their details name the process, never a network: one incident per on-ramp. Pure and
 * workflow-safe.
 */
import type { RampException } from '../../../src/domain/markets';
import type { AlertResolution, RampAlert } from '../shared/rules';
import type { OnRampState, OnRampStatus } from './types';

export function exceptionAlert(
  state: OnRampState,
  workflowId: string,
  exception: RampException,
): RampAlert<'ramp-exception'> {
  return {
    kind: 'ramp-exception',
    message: `On-ramp of order reference ${state.orderReference}: ${exception.reason}: ${exception.message}`,
    details: {
      process: workflowId,
      orderReference: state.orderReference,
      reason: exception.reason,
      endUserId: state.endUserId,
      orderId: state.order?.id ?? null,
    },
  };
}

export function exceptionResolution(
  state: OnRampState,
  workflowId: string,
  exception: RampException,
): AlertResolution<'ramp-exception'> {
  return {
    kind: 'ramp-exception',
    details: { process: workflowId, reason: exception.reason },
    resolution: `On-ramp ${state.orderReference} settled anyway: the operator converted it`,
  };
}

/** The claim window passed: the crypto (or the failed order) belongs to nobody we know. */
export function unclaimedAlert(
  state: OnRampState,
  workflowId: string,
  endedAs: OnRampStatus,
): RampAlert<'unclaimed-on-ramp'> {
  return {
    kind: 'unclaimed-on-ramp',
    message: `On-ramp of order reference ${state.orderReference} ended ${endedAs} without an end user and nobody claimed it by ${state.claimableUntil ?? '?'}${
      state.cryptoAmount ? `: ${state.cryptoAmount} ${state.asset ?? ''} is in the master wallet` : ''
    }`,
    details: {
      process: workflowId,
      orderReference: state.orderReference,
      endedAs,
      orderId: state.order?.id ?? null,
      cryptoAmount: state.cryptoAmount ?? null,
      asset: state.asset ?? null,
    },
  };
}
