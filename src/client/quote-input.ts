/**
 * Validation of quote requests, shared by the typed client and the HTTP API: bad input is refused with an
 * InvalidInputError before anything reaches Temporal or the operator.
 */
import { z } from 'zod';
import { formatIssues } from '../domain/errors';
import { CHAINS, FIAT_CURRENCIES, TOKENS } from '../domain/vocabulary';
import type { QuoteRequestInput } from '../../workflows/quote/types';
import { InvalidInputError } from './errors';

const CHAIN_CODES = Object.keys(CHAINS) as [keyof typeof CHAINS, ...(keyof typeof CHAINS)[]];

/** A positive decimal string ("100", "0.5"): no sign, no exponent, no spaces; at most 30 digits. */
export const amountSchema = z
  .string({ error: 'must be a decimal string such as "100.50"' })
  .max(40, { error: 'must be at most 40 characters', abort: true })
  .regex(/^(0|[1-9]\d{0,29})(\.\d{1,18})?$/, {
    error: 'must be a decimal string greater than zero such as "100.50" (no sign, at most 18 decimals)',
    abort: true,
  })
  // A pattern (not a refinement) so that the OpenAPI document publishes it: the format holds, so any digit
  // other than 0 makes the amount greater than zero.
  .regex(/[1-9]/, { error: 'must be greater than zero', abort: true });

const fiat = z.enum(FIAT_CURRENCIES, { error: `must be one of ${FIAT_CURRENCIES.join(', ')}` });
const token = z.enum(TOKENS, { error: `must be one of ${TOKENS.join(', ')}` });
const chain = z.enum(CHAIN_CODES, { error: `must be one of ${CHAIN_CODES.join(', ')}` });

/**
 * A quote request sent wrapped, as POST /v1/on-ramps takes it beside its other fields, where the request itself is
 * the body (POST /v1/quotes, POST /v1/end-users/{id}/deposit-quote): the issue says so.
 */
const notWrapped = {
  error: (issue: { code?: string; keys?: string[] }) =>
    issue.code === 'unrecognized_keys' && issue.keys?.includes('quoteRequest')
      ? 'send the quote request itself (direction, coinFrom, ..., amountFrom), not wrapped in quoteRequest'
      : undefined,
};

export const onRampQuoteRequestSchema = z.strictObject(
  {
    direction: z.literal('on-ramp'),
    coinFrom: fiat,
    coinTo: token,
    chainTo: chain,
    amountFrom: amountSchema,
  },
  notWrapped,
);

export const offRampQuoteRequestSchema = z.strictObject(
  {
    direction: z.literal('off-ramp'),
    coinFrom: token,
    chainFrom: chain,
    coinTo: fiat,
    amountFrom: amountSchema,
  },
  notWrapped,
);

export const quoteRequestSchema = z.discriminatedUnion(
  'direction',
  [onRampQuoteRequestSchema, offRampQuoteRequestSchema],
  { error: 'direction: must be "on-ramp" or "off-ramp"' },
);

export function parseQuoteRequest(value: unknown): QuoteRequestInput {
  const result = quoteRequestSchema.safeParse(value);
  if (!result.success)
    throw new InvalidInputError('Invalid quote request', formatIssues(result.error.issues));
  return result.data;
}
