/** The on-ramp's booking rules: amounts against the quote, exceptions by name, and what a claim raises. */
import { parseMarkets } from '../../../../src/config/markets';
import { exceptionAlert, unclaimedAlert } from '../../../../workflows/ramps/onramp/alerts';
import { newExceptions, refreshBooking } from '../../../../workflows/ramps/onramp/booking';
import {
  claimedOutcome,
  currentDetails,
  outcomes as onRampOutcomes,
} from '../../../../workflows/ramps/onramp/publishing';
import {
  applyAttribution,
  evaluate,
  isTerminal,
  newOnRampState,
} from '../../../../workflows/ramps/onramp/state';
import type { OnRampState } from '../../../../workflows/ramps/onramp/types';
import { recordException } from '../../../../workflows/ramps/shared/exceptions';
import { order as anyOrder, timings, tx } from '../../../helpers/ramp-fixtures';

const STARTED = '2026-01-01T00:00:00.000Z';
const rules = parseMarkets('MXN>USDT@TRX min=100 max=100000', '0.5');
const quote = { amountFrom: '1000', targetAmount: '57.681159', expiresAt: '2026-01-01T00:00:25.000Z' };
const order = (status: string, extra = {}) =>
  anyOrder('o-1', {
    orderReference: 'ref-1',
    direction: 'on-ramp',
    coinFrom: 'MXN',
    coinTo: 'USDT',
    chainTo: 'TRX',
    amountFrom: '1000',
    amountTo: '57.681159',
    status,
    ...extra,
  });
const fresh = (extra: Partial<OnRampState> = {}): OnRampState => ({
  ...newOnRampState({ orderReference: 'ref-1', timings }, STARTED),
  ...extra,
});

describe('amounts and exceptions', () => {
  test('an order executed at its quote: no difference, no exception', () => {
    const state = fresh({ quote, order: order('executed') });
    refreshBooking(state);
    expect(state.amounts).toMatchObject({ difference: '0', differencePercent: '0' });
    expect(newExceptions(state, rules)).toEqual([]);
  });

  test('an order off its quote beyond the tolerance, and one outside the markets, each by name', () => {
    const state = fresh({ quote, order: order('executed', { amountTo: '56.5' }) });
    refreshBooking(state);
    expect(state.amounts).toMatchObject({ difference: '-1.181159', differencePercent: '-2.0477' });
    expect(newExceptions(state, rules)).toEqual([
      {
        reason: 'off_quote',
        message:
          'Executed at rate 0.0565 against the quoted 0.057681159 (-2.0477%, difference -1.181159); the tolerance is 0.5%',
      },
    ]);
    expect(
      newExceptions(fresh({ order: order('awaiting_funds', { coinTo: 'USDC' }) }), rules)[0]?.reason,
    ).toBe('unsupported_market');
    expect(newExceptions(fresh({ order: order('awaiting_funds', { amountFrom: '99' }) }), rules)[0]).toEqual({
      reason: 'below_minimum',
      message: '99 MXN is under the minimum 100 MXN of MXN>USDT@TRX',
    });
    // Without market rules (a process started by version 1.0) and before an order, nothing.
    expect(newExceptions(state, undefined)).toEqual([]);
    expect(newExceptions(fresh(), rules)).toEqual([]);
  });

  test('an exception shows until the deposit settles it; its incident names the process, not a network', () => {
    const state = fresh({ order: order('executed') });
    const recorded = recordException(state, { reason: 'off_quote', message: 'moved' }, STARTED);
    expect(evaluate(state).status).toBe('exception');
    state.deposit = tx('dep-1', { status: 'confirmed', walletId: 'master', orderId: 'o-1' });
    expect(evaluate(state).status).toBe('settled');
    expect(exceptionAlert(state, 'onramp/ref-1', recorded)).toEqual({
      kind: 'ramp-exception',
      message: 'On-ramp of order reference ref-1: off_quote: moved',
      details: {
        process: 'onramp/ref-1',
        orderReference: 'ref-1',
        reason: 'off_quote',
        endUserId: null,
        orderId: 'o-1',
      },
    });
  });
});

describe('claims', () => {
  test('a claim after the end names the end user, but takes no quote', () => {
    const state = fresh({ status: 'settled', endedAt: STARTED, order: order('executed') });
    applyAttribution(state, null, { endUserId: 'user-9', quote });
    expect(state).toMatchObject({ endUserId: 'user-9', unattributed: false });
    expect(state.quote).toBeUndefined();
    // The first claim wins.
    expect(applyAttribution(state, 'user-9', { endUserId: 'user-8' }).revised).toBe(false);
    expect(state.endUserId).toBe('user-9');
  });

  test('on_ramp.claimed carries the end user and what the on-ramp ended with', () => {
    const state = fresh({
      status: 'settled',
      order: order('executed'),
      endUserId: 'user-9',
      cryptoAmount: '57.681159',
      asset: 'USDT',
      claimedAt: '2026-01-02T00:00:00.000Z',
    });
    refreshBooking(state);
    expect(claimedOutcome(state, 'onramp/ref-1')).toMatchObject({
      type: 'on_ramp.claimed',
      data: {
        endUserId: 'user-9',
        status: 'settled',
        orderReference: 'ref-1',
        cryptoAmount: '57.681159',
        amounts: { executed: { amountTo: '57.681159' } },
        claimedAt: '2026-01-02T00:00:00.000Z',
      },
    });
  });

  test('unclaimed: terminal, its own event, an incident per process; details say it is claimable meanwhile', () => {
    expect(isTerminal('unclaimed')).toBe(true);
    const state = fresh({ status: 'settled', cryptoAmount: '57.681159', asset: 'USDT' });
    state.claimableUntil = '2026-01-08T00:00:00.000Z';
    expect(currentDetails(state)).toContain('(unattributed: claimable until 2026-01-08T00:00:00.000Z)');
    expect(onRampOutcomes(state, 'onramp/ref-1', 'settled', 'unclaimed').map((event) => event.type)).toEqual([
      'on_ramp.unclaimed',
    ]);
    expect(unclaimedAlert(state, 'onramp/ref-1', 'settled')).toEqual({
      kind: 'unclaimed-on-ramp',
      message:
        'On-ramp of order reference ref-1 ended settled without an end user and nobody claimed it by 2026-01-08T00:00:00.000Z: 57.681159 USDT is in the master wallet',
      details: {
        process: 'onramp/ref-1',
        orderReference: 'ref-1',
        endedAs: 'settled',
        orderId: null,
        cryptoAmount: '57.681159',
        asset: 'USDT',
      },
    });
  });
});
