/**
 * Quotes: each one a short quote/<uuid> workflow that asks the operator. A quote is never handed out expired:
 * one that comes back (nearly) expired is requested again, up to `maxRequotes` times.
 */
import { randomUUID } from 'node:crypto';
import { quoteWorkflowId, WORKFLOW_TYPES } from '../domain/ids';
import { RampDirection } from '../domain/search-attributes';
import type { quoteWorkflow } from '../../workflows/quote/workflow';
import type { QuoteRequestInput, QuoteResult } from '../../workflows/quote/types';
import type { ClientContext } from './context';
import { QuoteExpiredError } from './errors';
import { parseQuoteRequest } from './quote-input';

export interface QuoteOptions {
  /** The quote must stay valid at least this long after it is returned (default 0: not yet expired). */
  minValidityMs?: number;
  /** How many times a quote that came back (nearly) expired is requested again before giving up (default 2). */
  maxRequotes?: number;
}

export async function quote(
  context: ClientContext,
  request: QuoteRequestInput,
  options: QuoteOptions = {},
): Promise<QuoteResult> {
  const parsed = parseQuoteRequest(request);
  const maxRequotes = options.maxRequotes ?? 2;
  let last: QuoteResult | undefined;
  for (let attempt = 0; attempt <= maxRequotes; attempt += 1) {
    last = await context.temporal.workflow.execute<typeof quoteWorkflow>(WORKFLOW_TYPES.quote, {
      workflowId: quoteWorkflowId(randomUUID()),
      taskQueue: context.taskQueue,
      args: [{ request: parsed, timings: context.timings }],
      workflowExecutionTimeout: context.timings.activityScheduleToCloseMs,
      typedSearchAttributes: [{ key: RampDirection, value: parsed.direction }],
    });
    if (isQuoteValid(context, last, options.minValidityMs)) return last;
  }
  throw new QuoteExpiredError(
    `The operator's quote expired before it could be used (expires_at ${last!.expiresAt}); request a new quote`,
    last!.expiresAt,
  );
}

export async function requote(
  context: ClientContext,
  shown: QuoteResult,
  options: QuoteOptions = {},
): Promise<QuoteResult> {
  if (isQuoteValid(context, shown, options.minValidityMs)) return shown;
  return quote(context, requestOf(shown), options);
}

/** True while `now + minValidityMs` is before the quote's expiresAt (an unparsable expiresAt is not valid). */
export function isQuoteValid(
  context: Pick<ClientContext, 'now'>,
  shown: Pick<QuoteResult, 'expiresAt'>,
  minValidityMs = 0,
): boolean {
  const expiresAtMs = Date.parse(shown.expiresAt);
  return Number.isFinite(expiresAtMs) && context.now() + minValidityMs < expiresAtMs;
}

export function assertQuoteValid(
  context: Pick<ClientContext, 'now'>,
  shown: Pick<QuoteResult, 'expiresAt'>,
  minValidityMs = 0,
): void {
  if (!isQuoteValid(context, shown, minValidityMs)) {
    throw new QuoteExpiredError(
      `The quote expired at ${shown.expiresAt}; request a new quote`,
      shown.expiresAt,
    );
  }
}

/** The request a quote answered (the same conversion, for a new quote). */
export function requestOf(shown: QuoteResult): QuoteRequestInput {
  const { direction, coinFrom, coinTo, chainFrom, chainTo, amountFrom } = shown;
  return direction === 'on-ramp'
    ? { direction, coinFrom, coinTo, ...(chainTo ? { chainTo } : {}), amountFrom }
    : { direction, coinFrom, coinTo, ...(chainFrom ? { chainFrom } : {}), amountFrom };
}
