import {
  stuckAlert,
  stuckNetwork,
  stuckResolution,
  timedOutAlert,
  unavailableGasCheck,
} from '../../../../workflows/ramps/offramp/alerts';
import { settlementOf } from '../../../../workflows/ramps/offramp/booking';
import { currentDetails, searchAttributes, stepText } from '../../../../workflows/ramps/offramp/publishing';
import {
  applyOrder,
  applyPoll,
  applyTransaction,
  evaluate,
  isTerminal,
  newOffRampState,
  orderReadOverdue,
  orderToConfirm,
  orderToRead,
  pollRequest,
  shouldMarkStuck,
} from '../../../../workflows/ramps/offramp/state';
import { evaluateInto } from '../../../../workflows/ramps/shared/rules';
import { offRampRules } from '../../../../workflows/ramps/offramp/rules';
import type { OffRampState } from '../../../../workflows/ramps/offramp/types';
import type { GasCheck } from '../../../../workflows/operations/gas-monitor/types';
import { order, tx } from '../../../helpers/ramp-fixtures';

const STARTED = '2026-01-01T00:00:00.000Z';
const fresh = (): OffRampState => newOffRampState('dep-1', STARTED);
const deposit = (status: string, extra = {}) => tx('dep-1', { status, ...extra });
const sweep = (status: string, extra = {}) =>
  tx('sweep-1', { type: 'AutoSweep', status, relatedTransactionId: 'dep-1', ...extra });

function keysAndValues(state: OffRampState, status: OffRampState['status'], searchValue: string | null) {
  return searchAttributes(state, status, searchValue).map(({ key, value }) => [key.name, value]);
}

describe('a new off-ramp', () => {
  test('waits for its deposit to confirm, with nothing counted', () => {
    expect(fresh()).toEqual({
      depositTransactionId: 'dep-1',
      status: 'awaiting-deposit-confirmation',
      step: 'Step 1/5: deposit seen, waiting for it to confirm (gas top-up on a first deposit)',
      endUserId: null,
      unattributed: false,
      alertsRaised: 0,
      eventsApplied: 0,
      duplicates: 0,
      polls: 0,
      startedAt: STARTED,
      outcomes: { sequence: 0, events: [] },
    });
  });
});

describe('applyTransaction', () => {
  test('a deposit with another ID is not this process', () => {
    const state = fresh();
    expect(applyTransaction(state, 'deposit', tx('other'), true)).toEqual({ revised: false, applied: false });
    expect(state.deposit).toBeUndefined();
    expect(state.duplicates).toBe(0);
  });

  test('a first snapshot, then a higher status, applies; events are counted, polls are not', () => {
    const state = fresh();
    expect(applyTransaction(state, 'deposit', deposit('created'), true)).toEqual({
      revised: true,
      applied: true,
    });
    expect(applyTransaction(state, 'deposit', deposit('confirmed'), false)).toEqual({
      revised: true,
      applied: true,
    });
    expect(state.deposit?.status).toBe('confirmed');
    expect(state.eventsApplied).toBe(1);
  });

  test('never moves backwards; a repeat from an event is a duplicate', () => {
    const state = fresh();
    applyTransaction(state, 'deposit', deposit('confirmed'), true);
    expect(applyTransaction(state, 'deposit', deposit('created'), true)).toEqual({
      revised: false,
      applied: false,
    });
    expect(applyTransaction(state, 'deposit', deposit('confirmed'), false)).toEqual({
      revised: false,
      applied: false,
    });
    expect(state.deposit?.status).toBe('confirmed');
    expect(state.duplicates).toBe(1);
  });

  test('a repeat that brings a link it lacked is kept (revised, not applied); a link is never replaced', () => {
    const state = fresh();
    applyTransaction(state, 'deposit', deposit('confirmed'), true);
    expect(
      applyTransaction(state, 'deposit', deposit('confirmed', { relatedTransactionId: 'sweep-1' }), true),
    ).toEqual({
      revised: true,
      applied: false,
    });
    expect(state.deposit?.relatedTransactionId).toBe('sweep-1');
    expect(state.duplicates).toBe(1);
    applyTransaction(
      state,
      'deposit',
      deposit('confirmed', { relatedTransactionId: 'sweep-2', orderId: 'o-1' }),
      false,
    );
    expect(state.deposit).toMatchObject({ relatedTransactionId: 'sweep-1', orderId: 'o-1' });
  });

  test('another transaction in a role already held is ignored', () => {
    const state = fresh();
    applyTransaction(state, 'sweep', sweep('published'), true);
    expect(applyTransaction(state, 'sweep', tx('sweep-2', { status: 'completed' }), true).revised).toBe(
      false,
    );
    expect(state.sweep?.id).toBe('sweep-1');
  });
});

describe('applyOrder and applyPoll', () => {
  test('an order only moves forward', () => {
    const state = fresh();
    expect(applyOrder(state, order('o-1')).revised).toBe(true);
    expect(applyOrder(state, order('o-1', { status: 'executed' })).revised).toBe(true);
    expect(applyOrder(state, order('o-1')).revised).toBe(false);
    expect(state.order?.status).toBe('executed');
  });

  test('a poll applies everything it found, counted as neither events nor duplicates', () => {
    const state = fresh();
    applyTransaction(state, 'deposit', deposit('confirmed'), true);
    const result = applyPoll(state, {
      deposit: deposit('confirmed'),
      sweep: sweep('completed', { orderId: 'o-1' }),
      gasTopUp: tx('gas-1', { type: 'Internal Transfer', status: 'completed' }),
      orderTransaction: tx('otx-1', { type: 'AutoSwap', status: 'completed', orderId: 'o-1' }),
      order: order('o-1', { status: 'executed' }),
    });
    expect(result).toEqual({ revised: true });
    expect([state.sweep?.id, state.gasTopUp?.id, state.orderTransaction?.id, state.order?.id]).toEqual([
      'sweep-1',
      'gas-1',
      'otx-1',
      'o-1',
    ]);
    expect(state.eventsApplied).toBe(1);
    expect(state.duplicates).toBe(0);
  });

  test('a poll that saw nothing new revises nothing', () => {
    const state = fresh();
    applyTransaction(state, 'deposit', deposit('confirmed'), true);
    expect(applyPoll(state, { deposit: deposit('confirmed') })).toEqual({ revised: false });
  });

  test('the poll asks for the deposit and every ID known', () => {
    const state = fresh();
    expect(pollRequest(state)).toEqual({ depositTransactionId: 'dep-1' });
    applyTransaction(state, 'sweep', sweep('published'), true);
    applyTransaction(state, 'gasTopUp', tx('gas-1'), true);
    applyTransaction(state, 'orderTransaction', tx('otx-1'), true);
    applyOrder(state, order('o-1'));
    expect(pollRequest(state)).toEqual({
      depositTransactionId: 'dep-1',
      sweepId: 'sweep-1',
      gasTopUpId: 'gas-1',
      orderTransactionId: 'otx-1',
      orderId: 'o-1',
    });
  });
});

describe('evaluate', () => {
  const withTx = (...entries: Array<[Parameters<typeof applyTransaction>[1], ReturnType<typeof tx>]>) => {
    const state = fresh();
    for (const [role, snapshot] of entries) applyTransaction(state, role, snapshot, true);
    return state;
  };

  test('walks the steps from the deposit to settlement', () => {
    expect(evaluate(fresh())).toEqual({ status: 'awaiting-deposit-confirmation' });
    expect(evaluate(withTx(['deposit', deposit('mined')])).status).toBe('awaiting-deposit-confirmation');
    expect(evaluate(withTx(['deposit', deposit('confirmed')])).status).toBe('awaiting-sweep');
    expect(evaluate(withTx(['deposit', deposit('confirmed')], ['sweep', sweep('published')])).status).toBe(
      'awaiting-sweep-confirmation',
    );
    expect(evaluate(withTx(['sweep', sweep('confirmed')])).status).toBe('awaiting-settlement');
  });

  test('a stuck deposit stays stuck until the sweep starts', () => {
    const state = withTx(['deposit', deposit('confirmed')]);
    state.stuckSince = STARTED;
    expect(evaluate(state).status).toBe('stuck');
    applyTransaction(state, 'sweep', sweep('published'), true);
    expect(evaluate(state).status).toBe('awaiting-sweep-confirmation');
  });

  test('settled needs the order: a completed order transaction alone awaits it', () => {
    const state = withTx(['orderTransaction', tx('otx-1', { type: 'AutoSwap', status: 'completed' })]);
    expect(evaluate(state).status).toBe('awaiting-settlement');
    applyOrder(state, order('o-1'));
    expect(evaluate(state).status).toBe('settled');
    const executed = fresh();
    applyOrder(executed, order('o-1', { status: 'executed' }));
    expect(evaluate(executed).status).toBe('settled');
  });

  test('failures: the first failed role in role order wins, then a failed order', () => {
    const state = withTx(['sweep', sweep('failed')], ['gasTopUp', tx('gas-1', { status: 'dropped' })]);
    applyOrder(state, order('o-1', { status: 'expired' }));
    expect(evaluate(state)).toEqual({
      status: 'failed',
      failure: { transactionId: 'gas-1', role: 'gasTopUp', status: 'dropped' },
    });
    const orderOnly = fresh();
    applyOrder(orderOnly, order('o-1', { status: 'failed' }));
    expect(evaluate(orderOnly).failure).toEqual({ transactionId: 'o-1', role: 'order', status: 'failed' });
  });

  test('evaluate only reads; evaluateInto keeps the failure on the state', () => {
    const state = withTx(['deposit', deposit('declined')]);
    expect(evaluate(state).status).toBe('failed');
    expect(state.failure).toBeUndefined();
    expect(evaluateInto(offRampRules, state)).toBe('failed');
    expect(state.failure).toEqual({ transactionId: 'dep-1', role: 'deposit', status: 'declined' });
  });

  test('terminal statuses', () => {
    expect(['settled', 'failed', 'timed-out'].every((s) => isTerminal(s as OffRampState['status']))).toBe(
      true,
    );
    expect(isTerminal('stuck')).toBe(false);
  });
});

describe('what an off-ramp shows and publishes', () => {
  test('settlement comes from the order', () => {
    const state = fresh();
    expect(settlementOf(state)).toBeUndefined();
    applyOrder(state, order('o-1', { amountTo: null }));
    expect(settlementOf(state)).toEqual({ fiatAmount: undefined, fiatCurrency: 'MXN', orderId: 'o-1' });
  });

  test('step texts: plain, settled (one space when the currency is unknown), failed', () => {
    const state = fresh();
    expect(stepText('awaiting-sweep', state)).toBe(
      'Step 3/5: deposit confirmed, waiting for the sponsored sweep to start',
    );
    expect(stepText('settled', state)).toBe('Settled: ? (order ?)');
    Object.assign(state, { fiatAmount: '858.18', fiatCurrency: 'MXN', orderId: 'o-1' });
    expect(stepText('settled', state)).toBe('Settled: 858.18 MXN (order o-1)');
    expect(stepText('failed', state)).toBe('Failed');
    state.failure = { transactionId: 'sweep-1', role: 'sweep', status: 'failed' };
    expect(stepText('failed', state)).toBe('Failed: sweep sweep-1 is failed');
  });

  test('details name the end user, or say unattributed', () => {
    const state = fresh();
    expect(currentDetails(state)).toBe(`${state.step}\nDeposit dep-1 (unattributed)`);
    state.endUserId = 'user-1';
    expect(currentDetails(state)).toBe(`${state.step}\nDeposit dep-1 of end user user-1`);
  });

  test('search attributes: always direction, status and deposit; then end user, wallet and network when known', () => {
    const state = fresh();
    expect(keysAndValues(state, 'awaiting-deposit-confirmation', null)).toEqual([
      ['RampDirection', 'off-ramp'],
      ['RampStatus', 'awaiting-deposit-confirmation'],
      ['RampDepositTransactionId', 'dep-1'],
    ]);
    applyTransaction(state, 'deposit', deposit('confirmed'), true);
    expect(keysAndValues(state, 'awaiting-sweep', 'pseudonym-1')).toEqual([
      ['RampDirection', 'off-ramp'],
      ['RampStatus', 'awaiting-sweep'],
      ['RampDepositTransactionId', 'dep-1'],
      ['RampEndUserId', 'pseudonym-1'],
      ['RampWalletId', 'wallet-1'],
      ['RampNetworks', ['networks/tron-mainnet']],
    ]);
    applyTransaction(state, 'deposit', deposit('completed', { network: null }), false);
    expect(keysAndValues(state, 'awaiting-sweep', null).map(([key]) => key)).toEqual([
      'RampDirection',
      'RampStatus',
      'RampDepositTransactionId',
      'RampWalletId',
    ]);
  });
});

describe('the order read at settlement', () => {
  test('only once the sweep is confirmed (or settled), without an order, from the order transaction or the sweep', () => {
    const state = fresh();
    applyTransaction(state, 'sweep', sweep('confirmed', { orderId: 'o-sweep' }), true);
    expect(orderToRead('awaiting-sweep-confirmation', state)).toBeUndefined();
    expect(orderToRead('awaiting-settlement', state)).toBe('o-sweep');
    applyTransaction(state, 'orderTransaction', tx('otx-1', { orderId: 'o-otx' }), true);
    expect(orderToRead('settled', state)).toBe('o-otx');
    applyOrder(state, order('o-otx'));
    expect(orderToRead('settled', state)).toBeUndefined();
  });

  test('overdue (read at once) only when the order transaction already completed and no order was read', () => {
    const state = fresh();
    applyTransaction(state, 'sweep', sweep('confirmed', { orderId: 'o-1' }), true);
    // Only the sweep: the order transaction's own event is still to come.
    expect(orderReadOverdue('awaiting-settlement', state)).toBe(false);
    applyTransaction(state, 'orderTransaction', tx('otx-1', { orderId: 'o-1', status: 'pending' }), true);
    expect(orderReadOverdue('awaiting-settlement', state)).toBe(false);
    applyTransaction(state, 'orderTransaction', tx('otx-1', { orderId: 'o-1', status: 'completed' }), true);
    expect(orderReadOverdue('awaiting-sweep-confirmation', state)).toBe(false);
    expect(orderReadOverdue('awaiting-settlement', state)).toBe(true);
    applyOrder(state, order('o-1'));
    expect(orderReadOverdue('awaiting-settlement', state)).toBe(false);
  });

  test('read once more before settling when the order was read before it executed', () => {
    const state = fresh();
    applyTransaction(state, 'sweep', sweep('confirmed', { orderId: 'o-1' }), true);
    applyOrder(state, order('o-1', { status: 'awaiting_funds' }));
    // Not settling yet: the order transaction has not completed.
    expect(orderToConfirm(state)).toBeUndefined();
    applyTransaction(state, 'orderTransaction', tx('otx-1', { orderId: 'o-1', status: 'completed' }), true);
    expect(orderToConfirm(state)).toBe('o-1');
    applyOrder(state, order('o-1', { status: 'executed' }));
    expect(orderToConfirm(state)).toBeUndefined();
  });

  test('nothing to read when no transaction names the order', () => {
    const state = fresh();
    applyTransaction(state, 'sweep', sweep('confirmed'), true);
    expect(orderToRead('awaiting-settlement', state)).toBeUndefined();
  });
});

describe('stuck and timed out', () => {
  const gas = (extra: Partial<GasCheck> = {}): GasCheck => ({
    gasWalletId: 'gas-w',
    network: 'networks/tron-mainnet',
    asset: 'TRX',
    balance: '1',
    minimum: '20',
    shortfall: true,
    checkedAt: STARTED,
    ...extra,
  });

  test('marked stuck once, while awaiting the sweep', () => {
    const state = fresh();
    expect(shouldMarkStuck('awaiting-sweep', state)).toBe(true);
    expect(shouldMarkStuck('awaiting-sweep-confirmation', state)).toBe(false);
    state.stuckSince = STARTED;
    expect(shouldMarkStuck('awaiting-sweep', state)).toBe(false);
  });

  test('the network is the deposit’s, or unknown', () => {
    const state = fresh();
    expect(stuckNetwork(state)).toBe('unknown');
    applyTransaction(state, 'deposit', deposit('confirmed'), true);
    expect(stuckNetwork(state)).toBe('networks/tron-mainnet');
  });

  test('a gas shortfall names the gas wallet and what it holds', () => {
    const state = fresh();
    state.endUserId = 'user-1';
    expect(stuckAlert(state, 'networks/tron-mainnet', gas())).toEqual({
      kind: 'gas-shortfall',
      message:
        'Gas wallet gas-w holds 1 TRX on networks/tron-mainnet (minimum 20): the Autoswap of deposit dep-1 is stranded until it is funded',
      details: {
        depositTransactionId: 'dep-1',
        endUserId: 'user-1',
        network: 'networks/tron-mainnet',
        gasWalletId: 'gas-w',
        asset: 'TRX',
        balance: '1',
        minimum: '20',
      },
    });
  });

  test('without a shortfall (or without a gas check) the sweep did not start', () => {
    const state = fresh();
    const unavailable = unavailableGasCheck('unknown', 'operator down', STARTED);
    expect(unavailable).toEqual({
      gasWalletId: null,
      network: 'unknown',
      asset: '?',
      balance: null,
      minimum: '?',
      shortfall: false,
      checkedAt: STARTED,
      error: 'operator down',
    });
    const alert = stuckAlert(state, 'unknown', unavailable);
    expect(alert.kind).toBe('sweep-not-started');
    expect(alert.message).toBe(
      'The sweep of deposit dep-1 did not start in time (gas wallet balance unknown ?)',
    );
    expect(stuckAlert(state, 'n', gas({ shortfall: false })).message).toBe(
      'The sweep of deposit dep-1 did not start in time (gas wallet balance 1 TRX)',
    );
  });

  test('the timeout alert names the last step; the resolution names the order', () => {
    const state = fresh();
    expect(timedOutAlert(state, 'awaiting-deposit-confirmation')).toEqual({
      kind: 'process-timed-out',
      message: `Off-ramp of deposit dep-1 did not finish within its process timeout (last step: ${state.step})`,
      details: { depositTransactionId: 'dep-1', status: 'awaiting-deposit-confirmation' },
    });
    expect(stuckResolution(state, 'gas-shortfall')).toEqual({
      kind: 'gas-shortfall',
      details: { depositTransactionId: 'dep-1' },
      resolution: 'Deposit dep-1 settled (order ?)',
    });
    state.orderId = 'o-1';
    expect(stuckResolution(state, 'sweep-not-started').resolution).toBe('Deposit dep-1 settled (order o-1)');
  });
});
