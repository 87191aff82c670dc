/**
 * What the HTTP client sends and gets, typed from the endpoints the server declares (src/api/routes): type imports
 * only, so the client carries no schema code, and a route or a type that is not the server's does not compile.
 */
import type { z } from 'zod';
import type { errorSchema } from '../api/components';
import type { Input } from '../api/endpoint';
import type { EndpointAt, Route } from '../api/routes';
import type { outcomeEventSchema } from '../ledger/views';

export type { Route } from '../api/routes';

type In<I> = I extends Input<infer S> ? z.input<S> : never;
/** A query's values as a caller writes them (the server converts what it needs to). */
type Filter<I> = { [K in keyof In<I>]?: string | number };
type Success<R extends Route> = EndpointAt<R>['answers'];

/** What a request of a route carries: its path parameters, query and body, each where the route has one. */
export type RequestOf<R extends Route> = ([In<EndpointAt<R>['params']>] extends [never]
  ? unknown
  : { params: In<EndpointAt<R>['params']> }) &
  ([In<EndpointAt<R>['query']>] extends [never] ? unknown : { query?: Filter<EndpointAt<R>['query']> }) &
  ([In<EndpointAt<R>['body']>] extends [never] ? unknown : { body: In<EndpointAt<R>['body']> });

/** The body of a route's successful answer (of any of its statuses). */
export type AnswerOf<R extends Route> = {
  [S in keyof Success<R>]: Success<R>[S] extends { schema: infer Schema extends z.ZodType }
    ? Success<R>[S] extends { bare: true }
      ? z.output<Schema>
      : { data: z.output<Schema> }
    : never;
}[keyof Success<R>];

/** What `{ data }` holds in a route's successful answer. */
type DataOf<R extends Route> = AnswerOf<R> extends { data: infer D } ? D : never;

export type DepositWallet = DataOf<'POST /v1/end-users/{id}/deposit-wallet'>;
export type EndUser = DataOf<'GET /v1/end-users/{id}'>;
export type QuoteRequest = In<EndpointAt<'POST /v1/quotes'>['body']>;
export type Quote = DataOf<'POST /v1/quotes'>;
export type OffRampQuoteRequest = In<EndpointAt<'POST /v1/end-users/{id}/deposit-quote'>['body']>;
export type DepositQuote = DataOf<'POST /v1/end-users/{id}/deposit-quote'>;
export type StartOnRampRequest = In<EndpointAt<'POST /v1/on-ramps'>['body']>;
export type OnRamp = DataOf<'GET /v1/on-ramps/{orderReference}'>;
export type OffRamp = DataOf<'GET /v1/off-ramps/{depositTransactionId}'>;
export type RampPage = AnswerOf<'GET /v1/ramps'>;
export type RampListFilter = Filter<EndpointAt<'GET /v1/ramps'>['query']>;
export type AccountSetupResult = DataOf<'POST /v1/account/setup'>;
export type AccountSetupState = DataOf<'GET /v1/account'>;
export type IncidentPage = AnswerOf<'GET /v1/alerts'>;
export type IncidentListFilter = Filter<EndpointAt<'GET /v1/alerts'>['query']>;
export type Incident = DataOf<'POST /v1/alerts/acknowledge'>;
export type ResolvedIncident = DataOf<'POST /v1/alerts/resolve'>;
export type IncidentAction = In<EndpointAt<'POST /v1/alerts/acknowledge'>['body']>;
export type EventRecord = DataOf<'GET /v1/events/{webhookId}'>;
/** The body of an outcome webhook (the document's `webhooks`). */
export type OutcomeEvent = z.output<typeof outcomeEventSchema>;
export type EventPage = AnswerOf<'GET /v1/events'>;
export type EventListFilter = Filter<EndpointAt<'GET /v1/events'>['query']>;
export type RedeliveryRequest = In<EndpointAt<'POST /v1/events/redeliver'>['body']>;
export type RedeliveryJob = DataOf<'GET /v1/events/redeliveries/{jobId}'>;
export type ApiErrorBody = z.output<typeof errorSchema>;
