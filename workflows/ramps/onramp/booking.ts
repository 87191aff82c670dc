/**
 * The on-ramp's booking: what it settled at, what its order executed at against the quote shown, and the exceptions
 * its conversion meets. Pure and workflow-safe.
 */
import type { MarketRules } from '../../../src/domain/markets';
import { bookAmounts } from '../shared/booking';
import { conversionExceptions, type FoundException, unrecorded } from '../shared/exceptions';
import type { OnRampState } from './types';

/** The settled fields, from the deposit (or the order); undefined without a deposit. */
export function settlementOf(state: OnRampState): Pick<OnRampState, 'cryptoAmount' | 'asset'> | undefined {
  if (!state.deposit) return undefined;
  return {
    cryptoAmount: state.deposit.amount ?? state.order?.amountTo ?? undefined,
    asset: state.deposit.asset ?? state.order?.coinTo ?? undefined,
  };
}

/** The order's conversion, as the markets judge it. */
function conversionOf(order: NonNullable<OnRampState['order']>) {
  return {
    direction: 'on-ramp' as const,
    fiat: order.coinFrom,
    token: order.coinTo,
    chain: order.chainTo,
    amount: order.amountFrom,
  };
}

/** What the order executed against the quote shown; recomputed whenever the order moves. */
export function refreshBooking(state: OnRampState): void {
  bookAmounts(state);
}

/** The exceptions the on-ramp's order meets that it has not recorded: outside the markets, or off its quote. */
export function newExceptions(state: OnRampState, rules: MarketRules | undefined): FoundException[] {
  const order = state.order;
  if (!rules || !order) return [];
  return unrecorded(state.exceptions, conversionExceptions(rules, conversionOf(order), state.amounts));
}
