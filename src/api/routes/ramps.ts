/**
 * On-ramps and off-ramps: an on-ramp started (idempotent by orderReference), each ramp as its process last recorded
 * it, and every ramp newest first, a page at a time.
 */
import { z } from 'zod';
import { RAMP_DIRECTIONS } from '../../domain/vocabulary';
import * as views from '../../ledger/views';
import { endUserIdSchema, identifierSchema, newEndUserIdSchema } from '../../validation/identifiers';
import { OFF_RAMP_STATUSES } from '../../../workflows/ramps/offramp/types';
import { ON_RAMP_STATUSES } from '../../../workflows/ramps/onramp/types';
import { component, pageAnswer, pageOf, paging } from '../components';
import { endpoint, input, Reply } from '../endpoint';
import { onRampQuoteRequest } from './quotes';

// Named so that every view they are part of refers to them.
component(
  'AmountsAgainstQuote',
  views.amountsSchema,
  'What a ramp executed against the quote its end user was shown (decimal strings)',
);
component(
  'RampGas',
  views.gasSchema,
  "The gas the operator reports for an off-ramp's top-up and sweep, in the network's native asset",
);
component('RampException', views.rampExceptionSchema, 'An exception a ramp met, once per reason');

const onRamp = component(
  'OnRamp',
  views.onRampViewSchema,
  'An on-ramp as its process last recorded it: status, order, deposit, quote, amounts and exceptions',
);
const offRamp = component(
  'OffRamp',
  views.offRampViewSchema,
  'An off-ramp as its process last recorded it: status, deposit, order, quote, amounts, gas and exceptions',
);
export const rampSummary = component('RampSummary', views.rampSummarySchema);
/** GET /v1/ramps answers `{ data, pagination }` (the page's `nextPageToken` in `pagination`). */
const rampPage = component('RampPage', pageOf(rampSummary));

const orderReferenceSchema = identifierSchema('order reference');
const startOnRampRequest = component(
  'StartOnRampRequest',
  z.strictObject({
    endUserId: newEndUserIdSchema,
    orderReference: orderReferenceSchema,
    quoteRequest: onRampQuoteRequest
      .optional()
      .meta({ description: 'As POST /v1/quotes takes it: the on-ramp starts with this quote shown' }),
  }),
);

const rampFilter = z.strictObject({
  endUserId: endUserIdSchema.optional(),
  direction: z.enum(RAMP_DIRECTIONS).optional(),
  status: z
    .enum([...new Set([...ON_RAMP_STATUSES, ...OFF_RAMP_STATUSES])] as [string, ...string[]])
    .optional(),
  closedAfter: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'Only ramps that ended after this' }),
  ...paging,
});

export const rampEndpoints = [
  endpoint({
    method: 'post',
    path: '/v1/on-ramps',
    operationId: 'startOnRamp',
    summary: 'Starts the on-ramp of an order reference for an end user (idempotent by orderReference)',
    tag: 'Ramps',
    body: input('on-ramp request', startOnRampRequest),
    answers: {
      201: {
        schema: onRamp,
        description: 'Started (or attributed to this end user before it ended) by this call',
      },
      200: {
        schema: onRamp,
        description:
          "It already was this end user's on-ramp, or this call claimed one that had ended without an end user (on_ramp.claimed follows): the on-ramp as it is",
      },
    },
    // 409: another end user's, or one that ended unclaimed past its claim window.
    errors: [400, 409, 422],
    links: {
      onRamp: {
        operationId: 'getOnRamp',
        parameters: { orderReference: '$response.body#/data/orderReference' },
        description: 'The on-ramp as it goes on',
      },
    },
    handle: async ({ body: { endUserId, orderReference, quoteRequest } }, ramp) => {
      const started = await ramp.startOnRamp(endUserId, orderReference, quoteRequest ? { quoteRequest } : {});
      return started.created ? new Reply(201, started.state) : new Reply(200, started.state);
    },
  }),
  endpoint({
    method: 'get',
    path: '/v1/on-ramps/{orderReference}',
    operationId: 'getOnRamp',
    summary: 'An on-ramp as its process last recorded it (also once Temporal no longer holds its run)',
    tag: 'Ramps',
    params: input('order reference', z.strictObject({ orderReference: orderReferenceSchema })),
    answers: { 200: { schema: onRamp, description: 'The on-ramp' } },
    errors: [400, 404],
    handle: ({ params }, ramp) => ramp.getOnRamp(params.orderReference),
  }),
  endpoint({
    method: 'get',
    path: '/v1/off-ramps/{depositTransactionId}',
    operationId: 'getOffRamp',
    summary:
      'An off-ramp as its process last recorded it, by the deposit transaction that started it (also once Temporal no longer holds its run)',
    tag: 'Ramps',
    params: input(
      'deposit transaction ID',
      z.strictObject({ depositTransactionId: identifierSchema('deposit transaction ID') }),
    ),
    answers: { 200: { schema: offRamp, description: 'The off-ramp' } },
    errors: [400, 404],
    handle: ({ params }, ramp) => ramp.getOffRamp(params.depositTransactionId),
  }),
  endpoint({
    method: 'get',
    path: '/v1/ramps',
    operationId: 'listRamps',
    summary:
      'On-ramps and off-ramps, newest first (by when they started), one page at a time; following nextPageToken lists each ramp once',
    tag: 'Ramps',
    query: input('ramp filter', rampFilter),
    answers: {
      200: {
        schema: rampPage,
        description: 'One page; pagination.nextPageToken is null on the last',
        bare: true,
      },
    },
    errors: [400, 404],
    handle: async ({ query }, ramp) => pageAnswer(await ramp.listRamps(query)),
  }),
];
