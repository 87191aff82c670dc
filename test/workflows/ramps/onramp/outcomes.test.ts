import { settlementOf } from '../../../../workflows/ramps/onramp/booking';
import { outcomes as onRampOutcomes, stepText } from '../../../../workflows/ramps/onramp/publishing';
import { applyDeposit, applyOrder, newOnRampState } from '../../../../workflows/ramps/onramp/state';
import { evaluateInto } from '../../../../workflows/ramps/shared/rules';
import { onRampRules } from '../../../../workflows/ramps/onramp/rules';
import type { OnRampState, OnRampStatus } from '../../../../workflows/ramps/onramp/types';
import { order as anyOrder, timings, tx } from '../../../helpers/ramp-fixtures';

const WF = 'onramp/ref-1';
const order = (status: string) =>
  anyOrder('o-1', {
    orderReference: 'ref-1',
    direction: 'on-ramp',
    coinFrom: 'MXN',
    coinTo: 'USDT',
    chainTo: 'TRX',
    amountFrom: '1000',
    amountTo: '57.8',
    status,
  });

function published(state: OnRampState, status: OnRampStatus): OnRampState {
  state.status = status;
  if (status === 'settled') Object.assign(state, settlementOf(state));
  state.step = stepText(status, state);
  return state;
}

const types = (state: OnRampState, previous: OnRampStatus | undefined, next: OnRampStatus) =>
  offTypes(onRampOutcomes(published(state, next), WF, previous, next));
const offTypes = (raised: ReturnType<typeof onRampOutcomes>) => raised.map(({ type }) => type);

describe('on-ramp outcome events', () => {
  test('the first publish raises on_ramp.created, naming the end user the client gave', () => {
    const state = newOnRampState(
      { orderReference: 'ref-1', endUserId: 'bob', timings },
      '2026-01-01T00:00:00.000Z',
    );
    expect(onRampOutcomes(published(state, 'awaiting-order'), WF, undefined, 'awaiting-order')).toEqual([
      {
        type: 'on_ramp.created',
        data: {
          workflowId: WF,
          endUserId: 'bob',
          status: 'awaiting-order',
          step: state.step,
          orderReference: 'ref-1',
        },
      },
    ]);
  });

  test('a republish of the same status (an attribution) raises nothing; each terminal entry raises its type', () => {
    const state = newOnRampState({ orderReference: 'ref-1', timings }, '2026-01-01T00:00:00.000Z');
    expect(types(state, 'awaiting-order', 'awaiting-order')).toEqual([]);
    expect(types(state, 'awaiting-order', 'awaiting-execution')).toEqual([]);
    expect(types(state, 'awaiting-execution', 'expired')).toEqual(['on_ramp.expired']);
    expect(types(state, 'awaiting-deposit', 'failed')).toEqual(['on_ramp.failed']);
    expect(types(state, 'awaiting-order', 'timed-out')).toEqual(['on_ramp.timed_out']);
  });

  test('settled carries the order, the amounts as decimal strings and the network', () => {
    const state = newOnRampState(
      { orderReference: 'ref-1', endUserId: 'bob', timings },
      '2026-01-01T00:00:00.000Z',
    );
    applyOrder(state, order('executed'), true);
    applyDeposit(
      state,
      tx('dep-1', { status: 'confirmed', walletId: 'master', orderId: 'o-1', amount: '57.8' }),
      true,
    );
    const status = evaluateInto(onRampRules, state);
    expect(status).toBe('settled');
    const raised = onRampOutcomes(published(state, status), WF, 'awaiting-confirmation', status);
    expect(offTypes(raised)).toEqual(['on_ramp.settled']);
    expect(raised[0]!.data).toEqual({
      workflowId: WF,
      endUserId: 'bob',
      status: 'settled',
      step: state.step,
      orderReference: 'ref-1',
      orderId: 'o-1',
      network: 'networks/tron-mainnet',
      asset: 'USDT',
      cryptoAmount: '57.8',
      fiatAmount: '1000',
      fiatCurrency: 'MXN',
    });
  });

  test('an expired order is named as the failure', () => {
    const state = newOnRampState({ orderReference: 'ref-1', timings }, '2026-01-01T00:00:00.000Z');
    applyOrder(state, order('expired'), true);
    const status = evaluateInto(onRampRules, state);
    const [event] = onRampOutcomes(published(state, status), WF, 'awaiting-execution', status);
    expect(event).toMatchObject({
      type: 'on_ramp.expired',
      data: { endUserId: null, failure: { resource: 'order', id: 'o-1', status: 'expired' } },
    });
  });
});
