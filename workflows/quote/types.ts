/** quote/<uuid>: the request, the answer and the workflow input of a quote. */
import type { WorkflowTimings } from '../../src/domain/timings';
import type { RampDirection } from '../../src/domain/vocabulary';

/** A validated quote request: on ramp names chainTo, off ramp names chainFrom. Amounts are decimal strings. */
export interface QuoteRequestInput {
  direction: RampDirection;
  coinFrom: string;
  coinTo: string;
  chainFrom?: string;
  chainTo?: string;
  amountFrom: string;
}

/** The request as quoted, with the operator's answer. */
export interface QuoteResult extends QuoteRequestInput {
  /** Decimal string in coinTo. */
  targetAmount: string;
  /** ISO 8601 UTC; the quote is invalid from this moment on. */
  expiresAt: string;
  /** The operator's quote ID when it gives one. */
  quoteId?: string;
  quotedAt: string;
}

export interface QuoteWorkflowInput {
  request: QuoteRequestInput;
  timings: WorkflowTimings;
}
