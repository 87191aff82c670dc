/** Quotes from the operator, never handed out expired. */
import { z } from 'zod';
import {
  offRampQuoteRequestSchema,
  onRampQuoteRequestSchema,
  quoteRequestSchema,
} from '../../client/quote-input';
import { RAMP_DIRECTIONS } from '../../domain/vocabulary';
import { decimal, isoDateTime, text } from '../../ledger/views';
import type { QuoteResult } from '../../../workflows/quote/types';
import { component, describes } from '../components';
import { endpoint, input } from '../endpoint';

const quoteRequest = component('QuoteRequest', quoteRequestSchema);
export const onRampQuoteRequest = component('OnRampQuoteRequest', onRampQuoteRequestSchema);
export const offRampQuoteRequest = component('OffRampQuoteRequest', offRampQuoteRequestSchema);

const quote = component(
  'Quote',
  describes<QuoteResult>()(
    z.strictObject({
      direction: z.enum(RAMP_DIRECTIONS),
      coinFrom: text,
      coinTo: text,
      chainFrom: text.optional(),
      chainTo: text.optional(),
      amountFrom: decimal,
      targetAmount: decimal,
      expiresAt: isoDateTime,
      quoteId: text.optional(),
      quotedAt: isoDateTime,
    }),
  ),
);

export const quoteEndpoints = [
  endpoint({
    method: 'post',
    path: '/v1/quotes',
    operationId: 'quote',
    summary: 'A quote from the operator, never handed out expired',
    tag: 'Quotes',
    body: input('quote request', quoteRequest),
    answers: { 200: { schema: quote, description: 'The quote' } },
    errors: [400, 409, 422],
    handle: ({ body }, ramp) => ramp.quote(body),
  }),
];
