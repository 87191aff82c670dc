/** The off-ramp's booking rules: amounts against the quote shown, the gas reported, and its exceptions by name. */
import { parseMarkets } from '../../../../src/config/markets';
import { exceptionAlert } from '../../../../workflows/ramps/offramp/alerts';
import { newExceptions, refreshBooking } from '../../../../workflows/ramps/offramp/booking';
import {
  exceptionOutcome,
  outcomes as offRampOutcomes,
  stepText,
} from '../../../../workflows/ramps/offramp/publishing';
import { evaluate, newOffRampState } from '../../../../workflows/ramps/offramp/state';
import type { OffRampQuoteShown, OffRampState } from '../../../../workflows/ramps/offramp/types';
import { recordException } from '../../../../workflows/ramps/shared/exceptions';
import { order, tx } from '../../../helpers/ramp-fixtures';

const STARTED = '2026-01-01T00:00:00.000Z';
const rules = parseMarkets('USDT@TRX>MXN min=10 max=1000', '1');
const quote: OffRampQuoteShown = {
  amountFrom: '50',
  targetAmount: '858.18',
  expiresAt: '2026-01-01T00:00:25.000Z',
  coinFrom: 'USDT',
  chainFrom: 'TRX',
  coinTo: 'MXN',
  shownAt: STARTED,
};

function offRamp(extra: Partial<OffRampState> = {}): OffRampState {
  return { ...newOffRampState('dep-1', STARTED), deposit: tx('dep-1', { status: 'confirmed' }), ...extra };
}

const executed = (amountTo: string, updatedAt = '2026-01-01T00:00:10.000Z') =>
  order('o-1', { status: 'executed', amountTo, updatedAt });

describe('refreshBooking', () => {
  test('an executed order is compared with the quote shown; the top-up and sweep fees add up to the gas', () => {
    const state = offRamp({
      quote,
      order: executed('858.18'),
      gasTopUp: tx('top-1', { fee: { asset: 'TRX', amount: '30' } }),
      sweep: tx('sweep-1', { fee: { asset: 'TRX', amount: '15' } }),
    });
    refreshBooking(state);
    expect(state.amounts).toEqual({
      quoted: { amountFrom: '50', targetAmount: '858.18', rate: '17.1636', expiresAt: quote.expiresAt },
      executed: {
        amountFrom: '50',
        amountTo: '858.18',
        rate: '17.1636',
        executedAt: '2026-01-01T00:00:10.000Z',
      },
      difference: '0',
      differencePercent: '0',
      executedAfterExpiry: false,
    });
    expect(state.gas).toEqual({
      topUp: { asset: 'TRX', amount: '30' },
      sweep: { asset: 'TRX', amount: '15' },
      total: { asset: 'TRX', amount: '45' },
    });
  });

  test('nothing before the order executed; an order without the operator time executes when first read so', () => {
    const state = offRamp({ quote, order: order('o-1', { status: 'awaiting_funds' }) });
    refreshBooking(state);
    expect(state.amounts).toBeUndefined();
    expect(state.gas).toBeUndefined();
    state.order = order('o-1', { status: 'executed', readAt: '2026-01-01T00:01:00.000Z' });
    refreshBooking(state);
    expect(state.amounts).toMatchObject({
      executed: { executedAt: '2026-01-01T00:01:00.000Z' },
      executedAfterExpiry: true,
    });
  });
});

describe('newExceptions', () => {
  test('a deposit outside the markets, under the minimum or over the maximum, when seen', () => {
    expect(newExceptions(offRamp({ deposit: tx('dep-1', { asset: 'DAI' }) }), rules)).toEqual([
      {
        reason: 'unsupported_market',
        message: 'The account has no off-ramp market for DAI on TRX (off-ramp markets: USDT@TRX>MXN)',
      },
    ]);
    expect(newExceptions(offRamp({ deposit: tx('dep-1', { amount: '9' }) }), rules)[0]?.reason).toBe(
      'below_minimum',
    );
    expect(newExceptions(offRamp({ deposit: tx('dep-1', { amount: '1000.5' }) }), rules)[0]?.reason).toBe(
      'above_maximum',
    );
    expect(
      newExceptions(offRamp({ deposit: tx('dep-1', { network: 'networks/ethereum-mainnet' }) }), rules)[0]
        ?.message,
    ).toContain('USDT on ETH');
    expect(newExceptions(offRamp(), rules)).toEqual([]);
  });

  test('an execution further from the quote than the tolerance; each reason once', () => {
    const state = offRamp({ quote, order: executed('840.00') });
    refreshBooking(state);
    const [found] = newExceptions(state, rules);
    expect(found).toEqual({
      reason: 'off_quote',
      message:
        'Executed at rate 16.8 against the quoted 17.1636 (-2.1184%, difference -18.18); the tolerance is 1%',
    });
    recordException(state, found!, STARTED);
    expect(newExceptions(state, rules)).toEqual([]);
  });

  test('an unattributed off-ramp is reported whatever the markets; without market rules nothing else is', () => {
    const state = offRamp({ unattributed: true, deposit: tx('dep-1', { asset: 'DAI' }) });
    expect(newExceptions(state, undefined).map((exception) => exception.reason)).toEqual(['unattributed']);
    expect(newExceptions(state, rules).map((exception) => exception.reason)).toEqual([
      'unattributed',
      'unsupported_market',
    ]);
    expect(newExceptions(newOffRampState('dep-1', STARTED), rules)).toEqual([]);
  });
});

describe('the exception status, event and incident', () => {
  test('a market exception shows until a terminal status; an unattributed one never changes the status', () => {
    const state = offRamp();
    recordException(state, { reason: 'unattributed', message: 'no owner' }, STARTED);
    expect(evaluate(state).status).toBe('awaiting-sweep');
    recordException(state, { reason: 'below_minimum', message: 'too little' }, STARTED);
    expect(evaluate(state).status).toBe('exception');
    expect(stepText('exception', state)).toBe(
      'EXCEPTION (unattributed, below_minimum); still following the operator: Step 3/5: deposit confirmed, waiting for the sponsored sweep to start',
    );
    state.orderTransaction = tx('otx-1', { status: 'completed', type: 'AutoSwap' });
    state.order = executed('858.18');
    expect(evaluate(state).status).toBe('settled');
  });

  test('off_ramp.exception carries the exception just seen; later events list every one', () => {
    const state = offRamp({ endUserId: 'user-1', status: 'exception' });
    const recorded = recordException(state, { reason: 'below_minimum', message: 'too little' }, STARTED);
    expect(exceptionOutcome(state, 'offramp/dep-1', recorded)).toMatchObject({
      type: 'off_ramp.exception',
      data: {
        workflowId: 'offramp/dep-1',
        endUserId: 'user-1',
        status: 'exception',
        exception: { reason: 'below_minimum', message: 'too little' },
        exceptions: [{ reason: 'below_minimum', message: 'too little', seenAt: STARTED }],
      },
    });
    state.order = executed('858.18');
    refreshBooking(state);
    const [settled] = offRampOutcomes(state, 'offramp/dep-1', 'exception', 'settled');
    expect(settled).toMatchObject({
      type: 'off_ramp.settled',
      data: { amounts: { executed: { amountTo: '858.18' } }, exceptions: [{ reason: 'below_minimum' }] },
    });
    expect(settled!.data).not.toHaveProperty('exception');
  });

  test('one incident per deposit and reason', () => {
    const state = offRamp({ endUserId: 'user-1' });
    const recorded = recordException(state, { reason: 'off_quote', message: 'moved' }, STARTED);
    expect(exceptionAlert(state, 'offramp/dep-1', recorded)).toEqual({
      kind: 'ramp-exception',
      message: 'Off-ramp of deposit dep-1: off_quote: moved',
      details: {
        depositTransactionId: 'dep-1',
        reason: 'off_quote',
        endUserId: 'user-1',
        walletId: 'wallet-1',
        asset: 'USDT',
        amount: '50',
      },
    });
  });
});
