import { settlementOf } from '../../../../workflows/ramps/onramp/booking';
import { currentDetails, searchAttributes, stepText } from '../../../../workflows/ramps/onramp/publishing';
import {
  applyAttribution,
  applyDeposit,
  applyOrder,
  applyPoll,
  canPoll,
  evaluate,
  initialSearchValue,
  isTerminal,
  networkOf,
  newOnRampState,
  orderToConfirm,
  pollRequest,
} from '../../../../workflows/ramps/onramp/state';
import { evaluateInto } from '../../../../workflows/ramps/shared/rules';
import { onRampRules } from '../../../../workflows/ramps/onramp/rules';
import type { OnRampInput, OnRampState } from '../../../../workflows/ramps/onramp/types';
import { order as anyOrder, timings, tx } from '../../../helpers/ramp-fixtures';

const STARTED = '2026-01-01T00:00:00.000Z';
const input = (extra: Partial<OnRampInput> = {}): OnRampInput => ({
  orderReference: 'ref-1',
  timings,
  ...extra,
});
const fresh = (extra: Partial<OnRampInput> = {}): OnRampState => newOnRampState(input(extra), STARTED);
const order = (status: string, extra = {}) =>
  anyOrder('o-1', {
    orderReference: 'ref-1',
    direction: 'on-ramp',
    coinTo: 'USDT',
    chainTo: 'TRX',
    status,
    ...extra,
  });
const deposit = (status: string, extra = {}) =>
  tx('dep-1', { status, walletId: 'master', orderId: 'o-1', amount: '49.9', ...extra });

function keysAndValues(state: OnRampState, searchValue: string | null) {
  return searchAttributes(state, state.status, searchValue).map(({ key, value }) => [key.name, value]);
}

describe('a new on-ramp', () => {
  test('announced by the client: attributed, with its quote', () => {
    const quote = { targetAmount: '50', expiresAt: STARTED };
    expect(fresh({ endUserId: 'user-1', quote })).toEqual({
      orderReference: 'ref-1',
      status: 'awaiting-order',
      step: 'Step 1/4: waiting for the MXN deposit to open an order',
      endUserId: 'user-1',
      unattributed: false,
      quote,
      eventsApplied: 0,
      duplicates: 0,
      polls: 0,
      startedAt: STARTED,
      outcomes: { sequence: 0, events: [] },
    });
  });

  test('started by an order event: unattributed, no quote key', () => {
    const state = fresh();
    expect(state.endUserId).toBeNull();
    expect(state.unattributed).toBe(true);
    expect('quote' in state).toBe(false);
  });

  test('the first search value: the pseudonym, else the ID, else none', () => {
    expect(initialSearchValue(input({ endUserId: 'user-1', endUserSearchValue: 'p-1' }))).toBe('p-1');
    expect(initialSearchValue(input({ endUserId: 'user-1' }))).toBe('user-1');
    expect(initialSearchValue(input({ endUserSearchValue: 'p-1' }))).toBeNull();
  });
});

describe('applyOrder and applyDeposit', () => {
  test('an order of another reference is ignored', () => {
    const state = fresh();
    expect(applyOrder(state, order('executed', { orderReference: 'ref-2' }), true)).toEqual({
      revised: false,
    });
    expect(state.order).toBeUndefined();
    expect(state.duplicates).toBe(0);
  });

  test('an order moves forward only; a repeat is a duplicate that may bring the transaction ID, unrevised', () => {
    const state = fresh();
    expect(applyOrder(state, order('awaiting_funds'), true).revised).toBe(true);
    expect(applyOrder(state, order('executed'), false).revised).toBe(true);
    expect(state.eventsApplied).toBe(1);
    expect(applyOrder(state, order('executed', { transactionId: 'dep-1' }), true)).toEqual({
      revised: false,
    });
    expect(state.order).toMatchObject({ status: 'executed', transactionId: 'dep-1' });
    expect(state.duplicates).toBe(1);
    applyOrder(state, order('awaiting_funds', { transactionId: 'dep-2' }), false);
    expect(state.order?.transactionId).toBe('dep-1');
    expect(state.duplicates).toBe(1);
  });

  test('a deposit moves forward only; another deposit is a duplicate', () => {
    const state = fresh();
    expect(applyDeposit(state, deposit('published'), true).revised).toBe(true);
    expect(applyDeposit(state, deposit('confirmed'), false).revised).toBe(true);
    expect(applyDeposit(state, deposit('mined'), true).revised).toBe(false);
    expect(applyDeposit(state, tx('dep-2', { status: 'completed' }), true).revised).toBe(false);
    expect(state.deposit).toMatchObject({ id: 'dep-1', status: 'confirmed' });
    expect([state.eventsApplied, state.duplicates]).toEqual([1, 2]);
  });

  test('a poll applies the order, then the deposit, as neither events nor duplicates', () => {
    const state = fresh();
    applyOrder(state, order('awaiting_funds'), true);
    expect(applyPoll(state, { order: order('executed'), deposit: deposit('confirmed') })).toEqual({
      revised: true,
    });
    expect(applyPoll(state, { order: order('executed') })).toEqual({ revised: false });
    expect([state.order?.status, state.deposit?.status]).toEqual(['executed', 'confirmed']);
    expect([state.eventsApplied, state.duplicates]).toEqual([1, 0]);
  });

  test('nothing to poll before the first order; then the order and the deposit once known', () => {
    const state = fresh();
    expect(canPoll(state)).toBe(false);
    expect(pollRequest(state)).toBeUndefined();
    applyOrder(state, order('executed'), true);
    expect(canPoll(state)).toBe(true);
    expect(pollRequest(state)).toEqual({ orderId: 'o-1' });
    applyDeposit(state, deposit('published'), true);
    expect(pollRequest(state)).toEqual({ orderId: 'o-1', transactionId: 'dep-1' });
  });

  test('a deposit confirmed before the order was seen executed: poll once more before settling', () => {
    const state = fresh();
    applyOrder(state, order('awaiting_funds'), true);
    applyDeposit(state, deposit('published'), true);
    // Not settling yet: the deposit is not confirmed.
    expect(orderToConfirm(state)).toBeUndefined();
    applyDeposit(state, deposit('confirmed'), true);
    expect(orderToConfirm(state)).toEqual({ orderId: 'o-1', transactionId: 'dep-1' });
    applyOrder(state, order('executed'), true);
    expect(orderToConfirm(state)).toBeUndefined();
  });
});

describe('applyAttribution', () => {
  test('names the end user, takes the quote when none was shown, and always revises', () => {
    const state = fresh();
    const quote = { targetAmount: '50', expiresAt: STARTED };
    expect(applyAttribution(state, null, { endUserId: 'user-1', endUserSearchValue: 'p-1', quote })).toEqual({
      revised: true,
      endUserSearchValue: 'p-1',
    });
    expect(state).toMatchObject({ endUserId: 'user-1', unattributed: false, quote });
    const again = applyAttribution(state, 'p-1', {
      endUserId: 'user-1',
      quote: { targetAmount: '1', expiresAt: STARTED },
    });
    expect(again).toEqual({ revised: true, endUserSearchValue: 'p-1' });
    expect(state.quote).toBe(quote);
  });

  test('the first end user wins', () => {
    const state = fresh({ endUserId: 'user-1' });
    expect(applyAttribution(state, 'user-1', { endUserId: 'user-2', endUserSearchValue: 'p-2' })).toEqual({
      revised: false,
      endUserSearchValue: 'user-1',
    });
    expect(state.endUserId).toBe('user-1');
  });

  test('without a pseudonym the search value is the ID, unless one is already set; a pseudonym replaces it', () => {
    const state = fresh();
    expect(applyAttribution(state, null, { endUserId: 'user-1' }).endUserSearchValue).toBe('user-1');
    expect(applyAttribution(state, 'p-0', { endUserId: 'user-1' }).endUserSearchValue).toBe('p-0');
    expect(
      applyAttribution(state, 'user-1', { endUserId: 'user-1', endUserSearchValue: 'p-1' })
        .endUserSearchValue,
    ).toBe('p-1');
  });
});

describe('evaluate', () => {
  test('walks the steps from the order to settlement', () => {
    const state = fresh();
    expect(evaluate(state)).toEqual({ status: 'awaiting-order' });
    applyOrder(state, order('awaiting_funds'), true);
    expect(evaluate(state).status).toBe('awaiting-execution');
    applyOrder(state, order('executed'), true);
    expect(evaluate(state).status).toBe('awaiting-deposit');
    applyDeposit(state, deposit('mined'), true);
    expect(evaluate(state).status).toBe('awaiting-confirmation');
    applyDeposit(state, deposit('confirmed'), true);
    expect(evaluate(state).status).toBe('settled');
  });

  test('a confirmed deposit settles even before the order is seen executed', () => {
    const state = fresh();
    applyDeposit(state, deposit('completed'), true);
    expect(evaluate(state).status).toBe('settled');
  });

  test('an expired or failed order wins over the deposit; then a failed deposit', () => {
    const state = fresh();
    applyDeposit(state, deposit('failed'), true);
    expect(evaluate(state)).toEqual({
      status: 'failed',
      failure: { resource: 'transaction', id: 'dep-1', status: 'failed' },
    });
    applyOrder(state, order('expired'), true);
    expect(evaluate(state)).toEqual({
      status: 'expired',
      failure: { resource: 'order', id: 'o-1', status: 'expired' },
    });
    const failed = fresh();
    applyOrder(failed, order('failed'), true);
    expect(evaluate(failed)).toEqual({
      status: 'failed',
      failure: { resource: 'order', id: 'o-1', status: 'failed' },
    });
  });

  test('evaluate only reads; evaluateInto keeps the failure', () => {
    const state = fresh();
    applyOrder(state, order('expired'), true);
    evaluate(state);
    expect(state.failure).toBeUndefined();
    expect(evaluateInto(onRampRules, state)).toBe('expired');
    expect(state.failure).toEqual({ resource: 'order', id: 'o-1', status: 'expired' });
  });

  test('terminal statuses', () => {
    expect(
      ['settled', 'expired', 'failed', 'timed-out'].every((s) => isTerminal(s as OnRampState['status'])),
    ).toBe(true);
    expect(isTerminal('awaiting-deposit')).toBe(false);
  });
});

describe('what an on-ramp shows and publishes', () => {
  test('settlement from the deposit, falling back to the order', () => {
    const state = fresh();
    expect(settlementOf(state)).toBeUndefined();
    applyOrder(state, order('executed', { amountTo: '50' }), true);
    applyDeposit(state, deposit('confirmed', { amount: null, asset: null }), true);
    expect(settlementOf(state)).toEqual({ cryptoAmount: '50', asset: 'USDT' });
  });

  test('step texts', () => {
    const state = fresh();
    expect(stepText('expired', state)).toBe('Order expired');
    expect(stepText('failed', state)).toBe('Failed');
    expect(stepText('settled', state)).toBe('Settled: ?  to the master wallet (transaction ?)');
    applyDeposit(state, deposit('confirmed'), true);
    Object.assign(state, settlementOf(state));
    expect(stepText('settled', state)).toBe('Settled: 49.9 USDT to the master wallet (transaction dep-1)');
  });

  test('the network: the deposit’s, else the order’s chain, else none', () => {
    const state = fresh();
    expect(networkOf(state)).toBeUndefined();
    applyOrder(state, order('executed', { chainTo: 'ETH' }), true);
    expect(networkOf(state)).toBe('networks/ethereum-mainnet');
    applyDeposit(state, deposit('published', { network: 'networks/tron-mainnet' }), true);
    expect(networkOf(state)).toBe('networks/tron-mainnet');
    const unknownChain = fresh();
    applyOrder(unknownChain, order('executed', { chainTo: 'SOL' }), true);
    expect(networkOf(unknownChain)).toBeUndefined();
  });

  test('details name the end user, or say unattributed', () => {
    const state = fresh();
    expect(currentDetails(state)).toBe(`${state.step}\nOrder reference ref-1 (unattributed)`);
    applyAttribution(state, null, { endUserId: 'user-1' });
    expect(currentDetails(state)).toBe(`${state.step}\nOrder reference ref-1 of end user user-1`);
  });

  test('search attributes: direction, status, reference; the end user only when attributed; the network when known', () => {
    const state = fresh();
    expect(keysAndValues(state, 'p-1')).toEqual([
      ['RampDirection', 'on-ramp'],
      ['RampStatus', 'awaiting-order'],
      ['RampOrderReference', 'ref-1'],
    ]);
    applyAttribution(state, null, { endUserId: 'user-1' });
    applyOrder(state, order('awaiting_funds'), true);
    expect(keysAndValues(state, 'p-1')).toEqual([
      ['RampDirection', 'on-ramp'],
      ['RampStatus', 'awaiting-order'],
      ['RampOrderReference', 'ref-1'],
      ['RampEndUserId', 'p-1'],
      ['RampNetworks', ['networks/tron-mainnet']],
    ]);
  });
});
