import { settlementOf } from '../../../../workflows/ramps/offramp/booking';
import { outcomes as offRampOutcomes, stepText } from '../../../../workflows/ramps/offramp/publishing';
import { applyOrder, applyTransaction, newOffRampState } from '../../../../workflows/ramps/offramp/state';
import { evaluateInto } from '../../../../workflows/ramps/shared/rules';
import { offRampRules } from '../../../../workflows/ramps/offramp/rules';
import type { OffRampState, OffRampStatus } from '../../../../workflows/ramps/offramp/types';
import { order, tx } from '../../../helpers/ramp-fixtures';

const WF = 'offramp/dep-1';

/** The state as the workflow has it once it published `status`. */
function published(state: OffRampState, status: OffRampStatus): OffRampState {
  state.status = status;
  if (status === 'settled') Object.assign(state, settlementOf(state));
  state.step = stepText(status, state);
  return state;
}

const types = (state: OffRampState, previous: OffRampStatus | undefined, next: OffRampStatus) =>
  offRampOutcomes(published(state, next), WF, previous, next).map(({ type }) => type);

describe('off-ramp outcome events', () => {
  test('the first publish raises off_ramp.created with what is known, endUserId null while unknown', () => {
    const state = newOffRampState('dep-1', '2026-01-01T00:00:00.000Z');
    applyTransaction(state, 'deposit', tx('dep-1', { status: 'mined' }), true);
    const status = evaluateInto(offRampRules, state);
    const raised = offRampOutcomes(published(state, status), WF, undefined, status);
    expect(raised).toEqual([
      {
        type: 'off_ramp.created',
        data: {
          workflowId: WF,
          endUserId: null,
          status: 'awaiting-deposit-confirmation',
          step: 'Step 1/5: deposit seen, waiting for it to confirm (gas top-up on a first deposit)',
          depositTransactionId: 'dep-1',
          network: 'networks/tron-mainnet',
          asset: 'USDT',
          cryptoAmount: '50',
        },
      },
    ]);
    // Absent fields are left out, so the recorded body holds only what is known.
    expect(Object.keys(raised[0]!.data)).not.toContain('fiatAmount');
  });

  test('steps in between raise nothing; each entry into stuck, settled, failed or timed-out raises its type', () => {
    const state = newOffRampState('dep-1', '2026-01-01T00:00:00.000Z');
    state.endUserId = 'alice';
    expect(types(state, 'awaiting-deposit-confirmation', 'awaiting-sweep')).toEqual([]);
    expect(types(state, 'awaiting-sweep', 'stuck')).toEqual(['off_ramp.stuck']);
    expect(types(state, 'stuck', 'stuck')).toEqual([]);
    expect(types(state, 'stuck', 'awaiting-sweep-confirmation')).toEqual([]);
    expect(types(state, 'awaiting-settlement', 'failed')).toEqual(['off_ramp.failed']);
    expect(types(state, 'awaiting-sweep', 'timed-out')).toEqual(['off_ramp.timed_out']);
    expect(types(state, 'awaiting-settlement', 'settled')).toEqual(['off_ramp.settled']);
  });

  test('a process settled at its first evaluation raises created, then settled, with the settlement', () => {
    const state = newOffRampState('dep-1', '2026-01-01T00:00:00.000Z');
    state.endUserId = 'alice';
    applyTransaction(state, 'deposit', tx('dep-1', { status: 'completed', orderId: 'o-1' }), true);
    applyOrder(state, order('o-1', { status: 'completed', amountTo: '858.18' }));
    const raised = offRampOutcomes(published(state, 'settled'), WF, undefined, 'settled');
    expect(raised.map(({ type }) => type)).toEqual(['off_ramp.created', 'off_ramp.settled']);
    expect(raised[1]!.data).toMatchObject({
      endUserId: 'alice',
      status: 'settled',
      step: 'Settled: 858.18 MXN (order o-1)',
      orderId: 'o-1',
      fiatAmount: '858.18',
      fiatCurrency: 'MXN',
      cryptoAmount: '50',
    });
  });

  test('a failure names the transaction that failed', () => {
    const state = newOffRampState('dep-1', '2026-01-01T00:00:00.000Z');
    state.failure = { transactionId: 'sweep-1', role: 'sweep', status: 'failed' };
    const [event] = offRampOutcomes(published(state, 'failed'), WF, 'awaiting-sweep-confirmation', 'failed');
    expect(event!.data.failure).toEqual({ resource: 'sweep', id: 'sweep-1', status: 'failed' });
  });
});
