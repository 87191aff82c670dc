/**
 * An end user: their deposit wallet (created once), the quote shown for their next deposit, and their view with
 * their newest ramps of both directions.
 */
import { z } from 'zod';
import type { EndUserOverview } from '../../client/end-user';
import * as views from '../../ledger/views';
import { endUserIdSchema, newEndUserIdSchema } from '../../validation/identifiers';
import { component, describes } from '../components';
import { endpoint, input } from '../endpoint';
import { offRampQuoteRequest } from './quotes';
import { rampSummary } from './ramps';

const depositWallet = component('DepositWallet', views.depositWalletSchema);
const depositQuote = component(
  'DepositQuote',
  views.depositQuoteSchema,
  "The quote an end user was shown for their next deposit; that deposit's off-ramp compares its execution with it",
);
component(
  'EndUserView',
  views.endUserViewSchema,
  "An end user's deposit wallet and its status, as the end user's process last recorded them",
);

const rampsOfUser = {
  ramps: z.array(rampSummary),
  nextRampsPageToken: views.nullableText.meta({
    description: 'For the following ramps: GET /v1/ramps?endUserId=<id>&pageToken=<this>; null when none',
  }),
};
const endUserOverview = component(
  'EndUser',
  describes<EndUserOverview>()(
    z.union([
      z.strictObject({ ...views.endUserViewSchema.shape, ...rampsOfUser }),
      z.strictObject({ endUserId: views.text, walletStatus: z.literal('none'), ...rampsOfUser }),
    ]),
  ),
  "The end user's view (absent for a user with on-ramps only) and newest ramps of both directions",
);

const endUser = input('end user ID', z.strictObject({ id: endUserIdSchema }));
/** The end user a POST creates or names for something new: never an e-mail address. */
const newEndUser = input('end user ID', z.strictObject({ id: newEndUserIdSchema }));

export const endUserEndpoints = [
  endpoint({
    method: 'post',
    path: '/v1/end-users/{id}/deposit-wallet',
    operationId: 'ensureDepositWallet',
    summary: "Creates (once) and answers the end user's deposit wallet",
    tag: 'End users',
    params: newEndUser,
    answers: { 200: { schema: depositWallet, description: 'The deposit wallet and its addresses' } },
    errors: [400, 409, 422],
    links: {
      endUser: {
        operationId: 'getEndUser',
        parameters: { id: '$request.path.id' },
        description: 'The end user whose wallet this is',
      },
    },
    handle: ({ params }, ramp) => ramp.ensureDepositWallet(params.id),
  }),
  endpoint({
    method: 'post',
    path: '/v1/end-users/{id}/deposit-quote',
    operationId: 'showDepositQuote',
    summary:
      "Asks for an off-ramp quote and records it as the one shown to the end user for their next deposit: that deposit's off-ramp compares its execution with it. The body is the quote request itself, as POST /v1/quotes takes it (POST /v1/on-ramps wraps it in quoteRequest, beside its other fields)",
    tag: 'End users',
    params: newEndUser,
    body: input('quote request', offRampQuoteRequest),
    answers: { 200: { schema: depositQuote, description: 'The quote, as recorded for the next deposit' } },
    errors: [400, 404, 409, 422],
    handle: ({ params, body }, ramp) => ramp.showDepositQuote(params.id, { quoteRequest: body }),
  }),
  endpoint({
    method: 'get',
    path: '/v1/end-users/{id}',
    operationId: 'getEndUser',
    summary: "The end user's wallet and newest ramps of both directions",
    tag: 'End users',
    params: endUser,
    answers: { 200: { schema: endUserOverview, description: 'The end user' } },
    errors: [400, 404],
    handle: ({ params }, ramp) => ramp.getEndUserOverview(params.id),
  }),
];
