/**
 * What the off-ramp shows and tells: its step text, the Web UI's details, its search attributes and its outcome
 * events. Pure and workflow-safe.
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import {
  DepositTransactionId,
  EndUserId,
  Networks,
  RampDirection,
  RampStatus,
  WalletId,
} from '../../../src/domain/search-attributes';
import type { OutcomeEventData } from '../../../src/domain/outcome-events';
import { exceptionStepText } from '../shared/exceptions';
import { outcomeRules, rampEventData, type RampOutcomeTypes } from '../shared/outcomes';
import { snapshotStatus, STEP_TEXT } from './state';
import type { OffRampState, OffRampStatus } from './types';

export function stepText(status: OffRampStatus, state: OffRampState): string {
  if (status === 'settled') {
    return `Settled: ${state.fiatAmount ?? '?'} ${state.fiatCurrency ?? ''} (order ${state.orderId ?? '?'})`.replace(
      '  ',
      ' ',
    );
  }
  if (status === 'failed' && state.failure) {
    return `Failed: ${state.failure.role} ${state.failure.transactionId} is ${state.failure.status}`;
  }
  if (status === 'exception')
    return exceptionStepText(state.exceptions, STEP_TEXT[snapshotStatus(state).status]);
  return STEP_TEXT[status];
}

/** The Web UI's current details. */
export function currentDetails(state: OffRampState): string {
  const owner = state.endUserId ? ` of end user ${state.endUserId}` : ' (unattributed)';
  return `${state.step}\nDeposit ${state.depositTransactionId}${owner}`;
}

/** The search attributes an off-ramp publishes, in the order it always has. */
export function searchAttributes(
  state: OffRampState,
  /** The value RampStatus shows: the status itself, or its searchedRampStatus. */
  rampStatus: string,
  endUserSearchValue: string | null,
): SearchAttributeUpdatePair[] {
  return [
    { key: RampDirection, value: 'off-ramp' },
    { key: RampStatus, value: rampStatus },
    { key: DepositTransactionId, value: state.depositTransactionId },
    ...(endUserSearchValue ? [{ key: EndUserId, value: endUserSearchValue }] : []),
    ...(state.deposit ? [{ key: WalletId, value: state.deposit.walletId }] : []),
    ...(state.deposit?.network ? [{ key: Networks, value: [state.deposit.network] }] : []),
  ];
}

/** Its event types: `off_ramp.created` at its first publish, then one for each entry into a status the client acts on. */
export const OFF_RAMP_OUTCOME_TYPES: RampOutcomeTypes<OffRampStatus> = {
  created: 'off_ramp.created',
  entered: {
    stuck: 'off_ramp.stuck',
    settled: 'off_ramp.settled',
    failed: 'off_ramp.failed',
    'timed-out': 'off_ramp.timed_out',
  },
  exception: 'off_ramp.exception',
};

/** The outcome events of a published status, and of an exception just recorded. */
export const { outcomes, exceptionOutcome } = outcomeRules(OFF_RAMP_OUTCOME_TYPES, outcomeData);

function outcomeData(state: OffRampState, workflowId: string, status: OffRampStatus): OutcomeEventData {
  const deposit = state.deposit;
  return rampEventData(state, workflowId, status, {
    depositTransactionId: state.depositTransactionId,
    orderId: state.orderId ?? state.order?.id ?? deposit?.orderId ?? undefined,
    network: deposit?.network ?? undefined,
    asset: deposit?.asset ?? undefined,
    cryptoAmount: deposit?.amount ?? undefined,
    fiatAmount: state.fiatAmount,
    fiatCurrency: state.fiatCurrency,
    failure: state.failure
      ? { resource: state.failure.role, id: state.failure.transactionId, status: state.failure.status }
      : undefined,
    amounts: state.amounts,
    gas: state.gas,
  });
}
