/**
 * What the on-ramp shows and tells: its step text, the Web UI's details, its search attributes and its outcome
 * events. Pure and workflow-safe.
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { compactData, type OutcomeEventData, type RaisedOutcome } from '../../../src/domain/outcome-events';
import {
  EndUserId,
  Networks,
  OrderReference,
  RampDirection,
  RampStatus,
} from '../../../src/domain/search-attributes';
import { exceptionStepText } from '../shared/exceptions';
import { outcomeRules, rampEventData, type RampOutcomeTypes } from '../shared/outcomes';
import { networkOf, snapshotStatus, STEP_TEXT } from './state';
import type { OnRampState, OnRampStatus } from './types';

export function stepText(status: OnRampStatus, state: OnRampState): string {
  if (status === 'exception')
    return exceptionStepText(state.exceptions, STEP_TEXT[snapshotStatus(state).status]);
  if (status !== 'settled') return STEP_TEXT[status];
  return `Settled: ${state.cryptoAmount ?? '?'} ${state.asset ?? ''} to the master wallet (transaction ${state.deposit?.id ?? '?'})`;
}

/** The Web UI's current details. */
export function currentDetails(state: OnRampState): string {
  const owner = state.endUserId
    ? ` of end user ${state.endUserId}`
    : state.claimableUntil && !state.unclaimedIncident
      ? ` (unattributed: claimable until ${state.claimableUntil})`
      : ' (unattributed)';
  return `${state.step}\nOrder reference ${state.orderReference}${owner}`;
}

/** The search attributes an on-ramp publishes, in the order it always has. */
export function searchAttributes(
  state: OnRampState,
  /** The value RampStatus shows: the status itself, or its searchedRampStatus. */
  rampStatus: string,
  endUserSearchValue: string | null,
): SearchAttributeUpdatePair[] {
  const network = networkOf(state);
  return [
    { key: RampDirection, value: 'on-ramp' },
    { key: RampStatus, value: rampStatus },
    { key: OrderReference, value: state.orderReference },
    ...(state.endUserId && endUserSearchValue ? [{ key: EndUserId, value: endUserSearchValue }] : []),
    ...(network ? [{ key: Networks, value: [network] }] : []),
  ];
}

/** Its event types: `on_ramp.created` at its first publish, then one for each entry into a status the client acts on. */
export const ON_RAMP_OUTCOME_TYPES: RampOutcomeTypes<OnRampStatus> = {
  created: 'on_ramp.created',
  entered: {
    settled: 'on_ramp.settled',
    expired: 'on_ramp.expired',
    failed: 'on_ramp.failed',
    'timed-out': 'on_ramp.timed_out',
    unclaimed: 'on_ramp.unclaimed',
  },
  exception: 'on_ramp.exception',
};

/** The outcome events of a published status, and of an exception just recorded. */
export const { outcomes, exceptionOutcome } = outcomeRules(ON_RAMP_OUTCOME_TYPES, outcomeData);

/** `on_ramp.claimed`: the end user named after the on-ramp ended, with everything it ended with. */
export function claimedOutcome(state: OnRampState, workflowId: string): RaisedOutcome {
  return {
    type: 'on_ramp.claimed',
    data: compactData({ ...outcomeData(state, workflowId, state.status), claimedAt: state.claimedAt }),
  };
}

function outcomeData(state: OnRampState, workflowId: string, status: OnRampStatus): OutcomeEventData {
  const order = state.order;
  return rampEventData(state, workflowId, status, {
    orderReference: state.orderReference,
    orderId: order?.id,
    network: networkOf(state),
    asset: state.asset ?? order?.coinTo ?? state.quote?.coinTo ?? undefined,
    cryptoAmount: state.cryptoAmount ?? order?.amountTo ?? undefined,
    fiatAmount: order?.amountFrom ?? state.quote?.amountFrom ?? undefined,
    fiatCurrency: order?.coinFrom ?? undefined,
    failure: state.failure ? { ...state.failure } : undefined,
    amounts: state.amounts,
  });
}
