/** Create quote: on ramp (`chainTo`) or off ramp (`chainFrom`), answered with target_amount and expires_at. */
import { offRampQuoteRequest, onRampQuoteRequest } from '../../operator/schemas';
import type { SandboxContext } from '../context';
import { badRequest, parseOr400 } from '../errors';
import { createQuote, quoteView } from '../flows/quotes';
import { sendData } from '../http/respond';
import type { OperatorHandlers } from './types';

export function quoteHandlers(ctx: SandboxContext): OperatorHandlers<'createQuote'> {
  return {
    createQuote(req, res) {
      const body: unknown = req.body;
      const isObject = body !== null && typeof body === 'object';
      let record;
      if (isObject && 'chainTo' in body) record = createQuote(ctx, parseOr400(onRampQuoteRequest, body));
      else if (isObject && 'chainFrom' in body)
        record = createQuote(ctx, parseOr400(offRampQuoteRequest, body));
      else
        throw badRequest(
          'validation_error',
          'Invalid request body: give chainTo (on ramp) or chainFrom (off ramp)',
        );
      sendData(res, 201, quoteView(ctx, record));
    },
  };
}
