/**
 * Quotes: a fixed-rate estimate that locks the price for the quote TTL (25 s by default, not scaled).
 * A quote is "used" by the on-ramp simulation (`quoteId` of POST /sandbox/v1/onramp/deposits): after
 * expires_at it is refused with 409 `quote_expired`, and a quote is used at most once (409 `quote_used`).
 */
import { CHAINS, FIAT_CURRENCIES, TOKENS } from '../../domain/vocabulary';
import type { OffRampQuoteRequest, OnRampQuoteRequest } from '../../operator/schemas';
import type { SandboxContext } from '../context';
import { badRequest, conflict, notFound } from '../errors';
import { fiatToToken, isFiat, isToken, tokenToFiat } from '../pricing';
import type { QuoteRecord } from '../state';
import { isChainCode } from './records';

const unsupported = (what: string, value: string, allowed: readonly string[]) =>
  badRequest('unsupported_corridor', `${what} ${value} is not supported (supported: ${allowed.join(', ')})`);

export function createQuote(
  ctx: SandboxContext,
  request: OnRampQuoteRequest | OffRampQuoteRequest,
): QuoteRecord {
  const chains = Object.keys(CHAINS);
  const now = ctx.clock.now();
  const base = {
    id: ctx.random.uuid(),
    amountFrom: request.amountFrom,
    createdAt: ctx.clock.iso(now),
    expiresAtMs: now + ctx.config.quoteTtlMs,
  };
  if ('chainTo' in request) {
    if (!isFiat(request.coinFrom)) throw unsupported('coinFrom', request.coinFrom, FIAT_CURRENCIES);
    if (!isToken(request.coinTo)) throw unsupported('coinTo', request.coinTo, TOKENS);
    if (!isChainCode(request.chainTo)) throw unsupported('chainTo', request.chainTo, chains);
    const record: QuoteRecord = {
      ...base,
      direction: 'on-ramp',
      coinFrom: request.coinFrom,
      coinTo: request.coinTo,
      chainTo: request.chainTo,
      targetAmount: fiatToToken(request.amountFrom, request.coinTo, ctx.state.priceOf(request.coinTo)),
    };
    ctx.state.quotes.set(record.id, record);
    return record;
  }
  if (!isToken(request.coinFrom)) throw unsupported('coinFrom', request.coinFrom, TOKENS);
  if (!isChainCode(request.chainFrom)) throw unsupported('chainFrom', request.chainFrom, chains);
  if (!isFiat(request.coinTo)) throw unsupported('coinTo', request.coinTo, FIAT_CURRENCIES);
  const record: QuoteRecord = {
    ...base,
    direction: 'off-ramp',
    coinFrom: request.coinFrom,
    coinTo: request.coinTo,
    chainFrom: request.chainFrom,
    targetAmount: tokenToFiat(request.amountFrom, request.coinFrom, ctx.state.priceOf(request.coinFrom)),
  };
  ctx.state.quotes.set(record.id, record);
  return record;
}

/** The quote's response body (`data`). */
export function quoteView(ctx: SandboxContext, record: QuoteRecord) {
  return {
    id: record.id,
    direction: record.direction,
    coinFrom: record.coinFrom,
    coinTo: record.coinTo,
    ...(record.chainFrom !== undefined ? { chainFrom: record.chainFrom } : {}),
    ...(record.chainTo !== undefined ? { chainTo: record.chainTo } : {}),
    amountFrom: record.amountFrom,
    target_amount: record.targetAmount,
    created_at: record.createdAt,
    expires_at: ctx.clock.iso(record.expiresAtMs),
  };
}

/** Checks that a quote can be used for this conversion now, and marks it used. */
export function useQuote(
  ctx: SandboxContext,
  quoteId: string,
  expected: { direction: QuoteRecord['direction']; amountFrom: string; coinTo: string; chain: string },
): QuoteRecord {
  const record = ctx.state.quotes.get(quoteId);
  if (!record) throw notFound('quote', quoteId);
  if (ctx.clock.now() > record.expiresAtMs) {
    throw conflict(
      'quote_expired',
      `Quote ${quoteId} expired at ${ctx.clock.iso(record.expiresAtMs)}; request a new quote`,
    );
  }
  if (record.usedAt !== undefined) throw conflict('quote_used', `Quote ${quoteId} was already used`);
  const chain = record.chainTo ?? record.chainFrom;
  if (
    record.direction !== expected.direction ||
    record.amountFrom !== expected.amountFrom ||
    record.coinTo !== expected.coinTo ||
    chain !== expected.chain
  ) {
    throw badRequest('quote_mismatch', `Quote ${quoteId} was issued for another conversion`);
  }
  record.usedAt = ctx.clock.iso();
  return record;
}
