/**
 * The off-ramp's booking: what it settled at, what its order executed at against the quote shown, the gas
 * reported, and the exceptions its conversion meets. Pure and workflow-safe.
 */
import { type MarketRules } from '../../../src/domain/markets';
import { rampGas } from '../../../src/domain/ramp-gas';
import { chainOfNetwork } from '../../../src/domain/vocabulary';
import { bookAmounts } from '../shared/booking';
import { conversionExceptions, type FoundException, unrecorded } from '../shared/exceptions';
import type { OffRampState } from './types';

/** The settled fields, from the order (undefined without one). */
export function settlementOf(
  state: OffRampState,
): Pick<OffRampState, 'fiatAmount' | 'fiatCurrency' | 'orderId'> | undefined {
  if (!state.order) return undefined;
  return {
    fiatAmount: state.order.amountTo ?? undefined,
    fiatCurrency: state.order.coinTo ?? undefined,
    orderId: state.order.id,
  };
}

/** The conversion of the deposit, as the markets judge it. */
function conversionOf(state: OffRampState, deposit: NonNullable<OffRampState['deposit']>) {
  return {
    direction: 'off-ramp' as const,
    fiat: state.order?.coinTo ?? null,
    token: deposit.asset,
    chain: deposit.network ? (chainOfNetwork(deposit.network) ?? deposit.network) : null,
    amount: deposit.amount,
  };
}

/** The executed order against the quote shown, and the gas reported; recomputed whenever the snapshots move. */
export function refreshBooking(state: OffRampState): void {
  bookAmounts(state);
  const gas = rampGas(state.gasTopUp?.fee ?? undefined, state.sweep?.fee ?? undefined);
  if (gas) state.gas = gas;
}

/**
 * The exceptions the off-ramp meets that it has not recorded: no end user owns its wallet; its deposit is outside
 * the markets (with market rules); its execution is off the quote beyond the tolerance.
 */
export function newExceptions(state: OffRampState, rules: MarketRules | undefined): FoundException[] {
  const deposit = state.deposit;
  if (!deposit) return [];
  const unattributed: FoundException | undefined = state.unattributed
    ? {
        reason: 'unattributed',
        message: `No end user owns deposit wallet ${deposit.walletId}: the deposit cannot be credited to anyone`,
      }
    : undefined;
  if (!rules) return unrecorded(state.exceptions, [unattributed]);
  return unrecorded(state.exceptions, [
    unattributed,
    ...conversionExceptions(rules, conversionOf(state, deposit), state.amounts),
  ]);
}
