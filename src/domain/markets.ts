/**
 * The account's markets (RAMP_MARKETS): the corridors the operator enabled, each in one direction with an optional
 * minimum and maximum, and how far an execution may move from its quote. And the exceptions a ramp can meet: a
 * conversion with no market, an amount outside its market's limits, an execution off its quote, an off-ramp no end
 * user owns. Pure and workflow-safe: the ramps evaluate these against their snapshots.
 */
import { compareDecimals } from './decimal';
import type { RampDirection } from './vocabulary';

/** One corridor in one direction: MXN>USDT@TRX (on-ramp) or USDT@TRX>MXN (off-ramp). */
export interface Market {
  direction: RampDirection;
  fiat: string;
  token: string;
  /** A chain code of the vocabulary (ETH, TRX). */
  chain: string;
  /** Limits of the amount the end user sends: MXN on an on-ramp, the token on an off-ramp. */
  minimum?: string;
  maximum?: string;
  /** How far, in percent either way, the executed rate may be from the quoted one. */
  tolerancePercent: string;
}

export interface MarketRules {
  markets: Market[];
  /** The tolerance of a ramp whose conversion has no market of its own. */
  tolerancePercent: string;
}

/** The reason codes of `off_ramp.exception` / `on_ramp.exception`, stable for the client's code. */
export const EXCEPTION_REASONS = [
  'unsupported_market',
  'below_minimum',
  'above_maximum',
  'off_quote',
  'unattributed',
] as const;
export type ExceptionReason = (typeof EXCEPTION_REASONS)[number];

/** An exception as a ramp records it, once per reason. */
export interface RampException {
  reason: ExceptionReason;
  message: string;
  seenAt: string;
}

/** What a ramp converts, as far as it knows it (an off-ramp knows its fiat only once its order exists). */
export interface Conversion {
  direction: RampDirection;
  fiat: string | null;
  token: string | null;
  chain: string | null;
  /** What the end user sends: MXN on an on-ramp, the token on an off-ramp. */
  amount: string | null;
}

/** "MXN>USDT@TRX" or "USDT@TRX>MXN": how RAMP_MARKETS writes a corridor. */
export function marketName(market: Pick<Market, 'direction' | 'fiat' | 'token' | 'chain'>): string {
  const crypto = `${market.token}@${market.chain}`;
  return market.direction === 'on-ramp' ? `${market.fiat}>${crypto}` : `${crypto}>${market.fiat}`;
}

export function findMarket(rules: MarketRules, conversion: Conversion): Market | undefined {
  return rules.markets.find(
    (market) =>
      market.direction === conversion.direction &&
      market.token === conversion.token &&
      market.chain === conversion.chain &&
      (conversion.fiat === null || market.fiat === conversion.fiat),
  );
}

/** The tolerance that applies to a conversion: its market's, else the rules' own. */
export function toleranceFor(rules: MarketRules, conversion: Conversion): string {
  return findMarket(rules, conversion)?.tolerancePercent ?? rules.tolerancePercent;
}

/**
 * The exception a conversion meets against the markets: none while its token is unknown; no market for it; or its
 * amount under the market's minimum or over its maximum.
 */
export function marketException(
  rules: MarketRules,
  conversion: Conversion,
): { reason: ExceptionReason; message: string } | undefined {
  if (conversion.token === null) return undefined;
  const market = findMarket(rules, conversion);
  if (!market) {
    const what = `${conversion.token} on ${conversion.chain ?? 'an unknown network'}`;
    const enabled = rules.markets.filter((candidate) => candidate.direction === conversion.direction);
    return {
      reason: 'unsupported_market',
      message: `The account has no ${conversion.direction} market for ${what}${
        conversion.fiat ? ` from ${conversion.fiat}` : ''
      } (${conversion.direction} markets: ${enabled.map(marketName).join(', ') || 'none'})`,
    };
  }
  const amount = conversion.amount;
  if (amount === null) return undefined;
  const unit = market.direction === 'on-ramp' ? market.fiat : market.token;
  if (market.minimum !== undefined && compareDecimals(amount, market.minimum) < 0)
    return {
      reason: 'below_minimum',
      message: `${amount} ${unit} is under the minimum ${market.minimum} ${unit} of ${marketName(market)}`,
    };
  if (market.maximum !== undefined && compareDecimals(amount, market.maximum) > 0)
    return {
      reason: 'above_maximum',
      message: `${amount} ${unit} is over the maximum ${market.maximum} ${unit} of ${marketName(market)}`,
    };
  return undefined;
}
