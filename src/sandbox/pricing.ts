/**
 * ASSUMED conversion prices of the sandbox: a rate per token and a flat fee, computed on BigInt.
 * 1 USDT = 17.25 MXN (same for USDC) unless moved (POST /sandbox/v1/prices); fee 0.5 % of the converted amount;
 * tokens are rounded down to 6 decimals, MXN to 2. A quote keeps the price it was made at.
 */
import { FIAT_CURRENCIES, TOKENS } from '../domain/vocabulary';
import { formatAmount, parseAmount, truncate, UNIT } from '../domain/decimal';

export const RATES_MXN_PER_TOKEN: Record<(typeof TOKENS)[number], string> = { USDT: '17.25', USDC: '17.25' };
export const FEE_BASIS_POINTS = 50n;
export const TOKEN_DECIMALS = 6;
export const FIAT_DECIMALS = 2;

export const isToken = (code: string): code is (typeof TOKENS)[number] =>
  (TOKENS as readonly string[]).includes(code);
export const isFiat = (code: string): code is (typeof FIAT_CURRENCIES)[number] =>
  (FIAT_CURRENCIES as readonly string[]).includes(code);

const afterFee = (units: bigint): bigint => (units * (10_000n - FEE_BASIS_POINTS)) / 10_000n;

/** MXN -> token: amount / rate (MXN per token), minus the fee, rounded down to 6 decimals. */
export function fiatToToken(
  amountMxn: string,
  token: (typeof TOKENS)[number],
  mxnPerToken = RATES_MXN_PER_TOKEN[token],
): string {
  const rate = parseAmount(mxnPerToken);
  const tokens = (parseAmount(amountMxn) * UNIT) / rate;
  return formatAmount(truncate(afterFee(tokens), TOKEN_DECIMALS));
}

/** token -> MXN: amount * rate (MXN per token), minus the fee, rounded down to 2 decimals. */
export function tokenToFiat(
  amountToken: string,
  token: (typeof TOKENS)[number],
  mxnPerToken = RATES_MXN_PER_TOKEN[token],
): string {
  const rate = parseAmount(mxnPerToken);
  const fiat = (parseAmount(amountToken) * rate) / UNIT;
  return formatAmount(truncate(afterFee(fiat), FIAT_DECIMALS));
}
