/** The quote activity: one Create quote call, our request shape to the operator's and back. */
import { ApplicationFailure } from '@temporalio/activity';
import type { QuoteRequest } from '../../src/operator/schemas';
import type { QuoteRequestInput, QuoteResult } from '../../workflows/quote/types';
import type { ActivityDeps } from '../deps';
import { callOperator } from '../shared/operator-failure';

/** Our request shape (with an explicit direction) to the operator's: on ramp names chainTo, off ramp chainFrom. */
export function toOperatorQuoteRequest(request: QuoteRequestInput): QuoteRequest {
  const { direction, coinFrom, coinTo, amountFrom } = request;
  const chain = direction === 'on-ramp' ? request.chainTo : request.chainFrom;
  if (!chain) {
    throw ApplicationFailure.nonRetryable(
      `${direction} quote needs ${direction === 'on-ramp' ? 'chainTo' : 'chainFrom'}`,
      'InvalidInput',
    );
  }
  return direction === 'on-ramp'
    ? { coinFrom, chainTo: chain, coinTo, amountFrom }
    : { coinFrom, chainFrom: chain, coinTo, amountFrom };
}

export function createQuoteActivities({ operator }: ActivityDeps) {
  return {
    /** One Create quote call. A read for us: retrying it is harmless (an unused quote simply expires). */
    async createQuote(request: QuoteRequestInput): Promise<QuoteResult> {
      const operatorRequest = toOperatorQuoteRequest(request);
      const quote = await callOperator(() => operator.createQuote(operatorRequest));
      const quoteId = (quote as { id?: unknown }).id;
      return {
        direction: request.direction,
        coinFrom: request.coinFrom,
        coinTo: request.coinTo,
        ...('chainTo' in operatorRequest
          ? { chainTo: operatorRequest.chainTo }
          : { chainFrom: operatorRequest.chainFrom }),
        amountFrom: request.amountFrom,
        targetAmount: quote.target_amount,
        expiresAt: quote.expires_at,
        ...(typeof quoteId === 'string' ? { quoteId } : {}),
        quotedAt: new Date().toISOString(),
      };
    },
  };
}
