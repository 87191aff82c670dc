/**
 * The booking both ramps share: what an executed order executed at against the quote shown. Each ramp adds its own
 * (its booking.ts: settlement, gas, the conversion its exceptions judge). Pure and workflow-safe.
 */
import {
  type AmountsAgainstQuote,
  amountsAgainstQuote,
  type QuoteAsShown,
} from '../../../src/domain/amounts-against-quote';
import type { OrderSnapshot } from './snapshots';

/** When an executed order executed: the operator's own time when it gives one, else when we first read it so. */
export const executedAt = (order: OrderSnapshot): string | null =>
  order.status === 'executed' ? (order.updatedAt ?? order.readAt) : null;

/** What an order executed against the quote shown; undefined until it executed with both amounts. */
export function executedAgainstQuote(
  order: OrderSnapshot | null | undefined,
  quote: QuoteAsShown | undefined,
): AmountsAgainstQuote | undefined {
  if (!order || order.status !== 'executed' || !order.amountFrom || !order.amountTo) return undefined;
  return amountsAgainstQuote(
    { amountFrom: order.amountFrom, amountTo: order.amountTo, executedAt: executedAt(order) },
    quote,
  );
}

/** What the order executed at against the quote shown, kept once known; recomputed whenever the order moves. */
export function bookAmounts(state: {
  order?: OrderSnapshot;
  quote?: QuoteAsShown;
  amounts?: AmountsAgainstQuote;
}): void {
  const amounts = executedAgainstQuote(state.order, state.quote);
  if (amounts) state.amounts = amounts;
}
