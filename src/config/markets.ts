/**
 * RAMP_MARKETS: the account's markets in one compact setting, e.g.
 *
 *   MXN>USDT@TRX min=100 max=500000; USDT@TRX>MXN min=10 tolerance=0.5%
 *
 * Entries are separated by `;`. A corridor is `FIAT>TOKEN@CHAIN` (on-ramp) or `TOKEN@CHAIN>FIAT` (off-ramp), with
 * optional `min=`, `max=` (in what the end user sends: MXN on-ramp, the token off-ramp) and `tolerance=<percent>%`;
 * a market without its own tolerance, and a conversion with no market, take RAMP_QUOTE_TOLERANCE. Unset: every
 * corridor of the vocabulary, without limits. Every problem is reported at once, naming its entry.
 */
import { z } from 'zod';
import { compareDecimals, DECIMAL_PATTERN } from '../domain/decimal';
import type { Market, MarketRules } from '../domain/markets';
import { CHAINS, FIAT_CURRENCIES, TOKENS } from '../domain/vocabulary';
import { setting, TEMPORAL_CLIENTS } from './setting';

/** A quote the operator honours moves only by rounding; 1 % flags a price that really moved. */
export const DEFAULT_QUOTE_TOLERANCE_PERCENT = '1';

const CODE = /^[A-Z][A-Z0-9]{1,9}$/;
const FIATS: readonly string[] = FIAT_CURRENCIES;
const CHAIN_CODES = Object.keys(CHAINS);

/** Every corridor of the vocabulary, both directions, no limits: the markets when RAMP_MARKETS is unset. */
export function vocabularyMarkets(tolerancePercent = DEFAULT_QUOTE_TOLERANCE_PERCENT): MarketRules {
  const markets: Market[] = [];
  for (const direction of ['on-ramp', 'off-ramp'] as const)
    for (const fiat of FIAT_CURRENCIES)
      for (const token of TOKENS)
        for (const chain of CHAIN_CODES) markets.push({ direction, fiat, token, chain, tolerancePercent });
  return { markets, tolerancePercent };
}

type Parsed = Omit<Market, 'tolerancePercent'> & { tolerancePercent?: string };

/**
 * Parses RAMP_MARKETS, `tolerancePercent` (RAMP_QUOTE_TOLERANCE) for the markets without their own; throws an Error
 * listing every problem, each naming its entry.
 */
export function parseMarkets(text: string, tolerancePercent = DEFAULT_QUOTE_TOLERANCE_PERCENT): MarketRules {
  const problems: string[] = [];
  const parsed: Parsed[] = [];
  const entries = text
    .split(';')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) problems.push('names no market');
  entries.forEach((entry, index) => {
    const label = `entry ${index + 1} "${entry}"`;
    const [head = '', ...options] = entry.split(/\s+/);
    const market = corridor(head, label, problems);
    if (!market) return;
    for (const option of options) applyOption(market, option, label, problems);
    if (
      market.minimum !== undefined &&
      market.maximum !== undefined &&
      compareDecimals(market.minimum, market.maximum) > 0
    )
      problems.push(`${label}: min is over max`);
    const name = head;
    if (parsed.some((other) => sameCorridor(other, market)))
      problems.push(`${label}: ${name} is listed twice`);
    parsed.push(market);
  });
  if (problems.length > 0) throw new Error(problems.join('; '));
  return {
    markets: parsed.map((market) => ({
      ...market,
      tolerancePercent: market.tolerancePercent ?? tolerancePercent,
    })),
    tolerancePercent,
  };
}

function sameCorridor(a: Parsed, b: Parsed): boolean {
  return a.direction === b.direction && a.fiat === b.fiat && a.token === b.token && a.chain === b.chain;
}

/** `MXN>USDT@TRX` or `USDT@TRX>MXN`. */
function corridor(text: string, label: string, problems: string[]): Parsed | undefined {
  const sides = text.split('>');
  if (sides.length !== 2) {
    problems.push(`${label}: a market is FIAT>TOKEN@CHAIN (on-ramp) or TOKEN@CHAIN>FIAT (off-ramp)`);
    return undefined;
  }
  const [from = '', to = ''] = sides;
  const onRamp = !from.includes('@');
  const [fiat = '', crypto = ''] = onRamp ? [from, to] : [to, from];
  const [token = '', chain = '', ...rest] = crypto.split('@');
  const before = problems.length;
  if (!FIATS.includes(fiat))
    problems.push(`${label}: fiat ${fiat || '(none)'} is not one of ${FIATS.join(', ')}`);
  if (rest.length > 0 || !crypto.includes('@'))
    problems.push(`${label}: the crypto side is TOKEN@CHAIN, e.g. USDT@TRX`);
  else {
    if (!CODE.test(token))
      problems.push(`${label}: token ${token || '(none)'} is not an upper-case asset code`);
    if (!CHAIN_CODES.includes(chain))
      problems.push(`${label}: chain ${chain || '(none)'} is not one of ${CHAIN_CODES.join(', ')}`);
  }
  if (problems.length > before) return undefined;
  return { direction: onRamp ? 'on-ramp' : 'off-ramp', fiat, token, chain };
}

function applyOption(market: Parsed, option: string, label: string, problems: string[]): void {
  const [name, value = ''] = option.split('=', 2) as [string, string?];
  if (name === 'min' || name === 'max') {
    const key = name === 'min' ? 'minimum' : 'maximum';
    if (market[key] !== undefined) problems.push(`${label}: ${name} is set twice`);
    else if (!DECIMAL_PATTERN.test(value))
      problems.push(`${label}: ${name} must be a decimal such as 10 or 0.5`);
    else market[key] = value;
    return;
  }
  if (name === 'tolerance') {
    if (market.tolerancePercent !== undefined) problems.push(`${label}: tolerance is set twice`);
    else {
      const percent = percentOf(value);
      if (percent === undefined) problems.push(`${label}: tolerance ${PERCENT_RULE}`);
      else market.tolerancePercent = percent;
    }
    return;
  }
  problems.push(`${label}: unknown option ${name} (min=, max=, tolerance=)`);
}

const PERCENT_RULE = 'must be a percentage such as 1% or 0.5%';

/** `1%` -> `1`; undefined for anything else. */
function percentOf(text: string): string | undefined {
  const value = text.endsWith('%') ? text.slice(0, -1) : '';
  return DECIMAL_PATTERN.test(value) ? value : undefined;
}

/**
 * The RAMP_MARKETS field, checked here and parsed with the tolerance by `marketRules`: read by every process that
 * starts ramps, since the rules travel in their input.
 */
export const rampMarketsField = setting(
  z
    .string()
    .optional()
    .superRefine((text, ctx) => {
      if (text === undefined || text.trim() === '') return;
      try {
        parseMarkets(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }),
  {
    group: 'production',
    default: `every corridor of ${FIAT_CURRENCIES.join('/')} with ${TOKENS.join('/')} on ${CHAIN_CODES.join('/')}, no limits`,
    meaning:
      'The markets the operator enabled, `;`-separated: `MXN>USDT@TRX min=100 max=500000` (on-ramp), ' +
      '`USDT@TRX>MXN min=10 tolerance=0.5%` (off-ramp, its own quote tolerance). A deposit or order outside them is ' +
      'an exception (event and incident). Set alike in every process that starts workflows.',
    readBy: TEMPORAL_CLIENTS,
    example: 'MXN>USDT@TRX min=100; USDT@TRX>MXN min=10',
  },
);

/** The RAMP_QUOTE_TOLERANCE field: the percentage, without its sign. */
export const quoteToleranceField = setting(
  z
    .string()
    .default(`${DEFAULT_QUOTE_TOLERANCE_PERCENT}%`)
    .transform((text, ctx) => {
      const percent = percentOf(text.trim());
      if (percent === undefined) {
        ctx.addIssue({ code: 'custom', message: PERCENT_RULE });
        return z.NEVER;
      }
      return percent;
    }),
  {
    group: 'production',
    default: `${DEFAULT_QUOTE_TOLERANCE_PERCENT}%`,
    meaning:
      'How far, either way, an execution may be from its quote before the ramp raises an `off_quote` exception ' +
      '(event and incident), for every market without its own `tolerance=` in RAMP_MARKETS. Set alike in every ' +
      'process that starts workflows.',
    readBy: TEMPORAL_CLIENTS,
    example: '0.5%',
  },
);

/** The account's market rules from the two settings as `timingsEnv` read them. */
export function marketRules(markets: string | undefined, tolerancePercent: string): MarketRules {
  return markets === undefined || markets.trim() === ''
    ? vocabularyMarkets(tolerancePercent)
    : parseMarkets(markets, tolerancePercent);
}
