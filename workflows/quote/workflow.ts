/**
 * quote/<uuid>: a short workflow around one Create quote activity. Quotes are reads: nothing to keep after the
 * answer, but running them as a workflow gives the retry policy, the timeouts, and a readable record in the Web UI.
 * Its RampDirection is set by the client's start; a run from a 1.0 history upserts it with a RampStatus, as it did.
 */
import { patched, proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { RampActivities } from '../../activities';
import { RampDirection, RampStatus } from '../../src/domain/search-attributes';
import { operatorActivityOptions } from '../shared/activity-options';
import { quoteActivityBudget } from './state';
import type { QuoteResult, QuoteWorkflowInput } from './types';
import { declareReleaseBehaviour } from '../shared/versioning';

export const QUOTE_ATTRIBUTES_AT_START_PATCH = 'quote-attributes-at-start';

export async function quoteWorkflow(input: QuoteWorkflowInput): Promise<QuoteResult> {
  const { timings, request } = input;
  const { createQuote } = proxyActivities<RampActivities>({
    ...operatorActivityOptions(timings),
    ...quoteActivityBudget(timings),
  });
  // Each upsert is a billable action; the Web UI shows whether the quote is running or done without one.
  if (patched(QUOTE_ATTRIBUTES_AT_START_PATCH)) return createQuote(request);
  upsertSearchAttributes([
    { key: RampDirection, value: request.direction },
    { key: RampStatus, value: 'quoting' },
  ]);
  const quote = await createQuote(request);
  upsertSearchAttributes([{ key: RampStatus, value: 'quoted' }]);
  return quote;
}

declareReleaseBehaviour(quoteWorkflow, 'pinned');
