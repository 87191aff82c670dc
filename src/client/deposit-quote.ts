/**
 * The quote an end user is shown for their next crypto deposit: recorded in end-user/<id>, whose next deposit's
 * off-ramp takes it and compares its execution with it (one quote, one deposit; a later quote replaces an unused one).
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { endUserWorkflowId } from '../domain/ids';
import { markActive } from '../ledger/end-users';
import { parseNewEndUserId } from '../validation/identifiers';
import { depositQuoteShownSignal } from '../../workflows/end-user/messages';
import type { QuoteRequestInput, QuoteResult } from '../../workflows/quote/types';
import type { OffRampQuoteShown } from '../../workflows/ramps/offramp/types';
import type { ClientContext } from './context';
import { InvalidInputError, NotFoundError } from './errors';
import { quote } from './quote';
import { parseQuoteRequest } from './quote-input';

export type DepositQuoteInput = { quoteRequest: QuoteRequestInput } | { quote: QuoteResult };

/**
 * Asks for an off-ramp quote (or takes one the client holds) and records it as shown to the end user for their next
 * deposit; answers the quote recorded. NotFoundError for an end user without a deposit wallet process.
 */
export async function showDepositQuote(
  context: ClientContext,
  endUserId: string,
  input: DepositQuoteInput,
): Promise<OffRampQuoteShown> {
  const id = parseNewEndUserId(endUserId);
  const given =
    'quoteRequest' in input
      ? await quote(context, parseQuoteRequest({ ...input.quoteRequest, direction: 'off-ramp' }))
      : input.quote;
  if (given.direction !== 'off-ramp')
    throw new InvalidInputError('Invalid deposit quote', ['quote: must be an off-ramp quote']);
  const shown: OffRampQuoteShown = {
    amountFrom: given.amountFrom,
    targetAmount: given.targetAmount,
    expiresAt: given.expiresAt,
    coinFrom: given.coinFrom,
    ...(given.chainFrom ? { chainFrom: given.chainFrom } : {}),
    coinTo: given.coinTo,
    ...(given.quoteId ? { quoteId: given.quoteId } : {}),
    shownAt: new Date(context.now()).toISOString(),
  };
  // A deposit is coming: reconciliation checks this wallet every interval from now on.
  await markActive(context.ledger, id, shown.shownAt);
  try {
    await context.temporal.workflow.getHandle(endUserWorkflowId(id)).signal(depositQuoteShownSignal, shown);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError)
      throw new NotFoundError(`No end user ${id}: ask for the deposit wallet first`);
    throw error;
  }
  return shown;
}
