/**
 * The zod schemas of the HTTP API: the ones that validate its requests and the ones that describe its answers.
 * The OpenAPI document (src/api/openapi.ts) is generated from them, so it cannot drift from the code. Each
 * answer schema is checked against the TypeScript type it describes: its output must be that type, and it must
 * name every key of it (a field added to a type without its schema does not compile).
 */
import { z } from 'zod';
import { type EndUserOverview } from '../client/end-user';
import {
  offRampQuoteRequestSchema,
  onRampQuoteRequestSchema,
  quoteRequestSchema,
} from '../client/quote-input';
import type { RedeliveryProgress } from '../client/outcome-events';
import type { RampPage } from '../client/ramp-list';
import type { StatementTotal } from '../client/statement-rows';
import {
  MAX_OUTCOME_WEBHOOK_ID_LENGTH,
  OUTCOME_DELIVERY_STATUSES,
  OUTCOME_EVENT_TYPES,
  OUTCOME_WEBHOOK_ID_PATTERN,
  WEBHOOK_EVENT_TYPES,
} from '../domain/outcome-events';
import { ACCOUNT_WALLET_ROLES, RAMP_DIRECTIONS, RESOURCE_KINDS } from '../domain/vocabulary';
import * as views from '../ledger/views';
import { endUserIdSchema, identifierSchema, newEndUserIdSchema } from '../validation/identifiers';
import type {
  AccountRecipient,
  AccountSetupResult,
  AccountSetupState,
  AccountWallet,
} from '../../workflows/account-setup/types';
import type {
  OrphanWallet,
  UnconfirmedCreation,
  WalletCreatedSignal,
  WalletCreationRequest,
  WalletJournal,
} from '../../workflows/wallet-creation/journal';
import { ACTION_LIMITS } from '../../workflows/operations/alerts/incidents';
import { ALERT_KINDS, type Incident, type ResolvedIncident } from '../../workflows/operations/alerts/types';
import type { QuoteResult } from '../../workflows/quote/types';
import { OFF_RAMP_STATUSES } from '../../workflows/ramps/offramp/types';
import { ON_RAMP_STATUSES } from '../../workflows/ramps/onramp/types';

/** Every schema registered here is a named component of the OpenAPI document. */
export const apiRegistry = z.registry<{ id: string; description?: string }>();

function component<S extends z.ZodType>(id: string, schema: S, description?: string): S {
  apiRegistry.add(schema, { id, ...(description ? { description } : {}) });
  return schema;
}

/** Keys of T the schema's output lacks. */
type MissingKeys<T, S extends z.ZodType> = Exclude<keyof T, keyof z.output<S>>;

/** Ties a schema to the type it describes: its output is a T, and it has every key of T. */
function describes<T>() {
  return <S extends z.ZodType<T>>(
    schema: S & ([MissingKeys<T, S>] extends [never] ? unknown : { missingKeys: MissingKeys<T, S> }),
  ): S => schema;
}

const { text, isoDateTime, decimal, nullableText, addressOnNetwork } = views;

// ---------------------------------------------------------------------------------------------- errors

export const errorSchema = component(
  'Error',
  z.strictObject({
    error: z.strictObject({
      code: text.meta({
        description: 'Stable machine-readable code, e.g. invalid_input, not_found, conflict',
      }),
      message: text,
      issues: z.array(text).optional().meta({ description: 'One line per problem of the input' }),
    }),
  }),
  'Every error answer: a 4xx is the request, a 5xx our side or Temporal (503 comes with Retry-After)',
);

// ---------------------------------------------------------------------------------------------- booking

export const amountsSchema = component(
  'AmountsAgainstQuote',
  views.amountsSchema,
  'What a ramp executed against the quote its end user was shown (decimal strings)',
);
export const gasSchema = component(
  'RampGas',
  views.gasSchema,
  "The gas the operator reports for an off-ramp's top-up and sweep, in the network's native asset",
);
export const rampExceptionSchema = component(
  'RampException',
  views.rampExceptionSchema,
  'An exception a ramp met, once per reason',
);

// ---------------------------------------------------------------------------------------------- outcome events

export const outcomeEventDataSchema = component('OutcomeEventData', views.outcomeEventDataSchema);
export const outcomeEventSchema = component(
  'OutcomeEvent',
  views.outcomeEventSchema,
  'The JSON body of an outcome webhook, identical on every delivery of it',
);

// ---------------------------------------------------------------------------------------------- end users

export const depositWalletSchema = component('DepositWallet', views.depositWalletSchema);
export const offRampQuoteShownSchema = component(
  'DepositQuote',
  views.depositQuoteSchema,
  "The quote an end user was shown for their next deposit; that deposit's off-ramp compares its execution with it",
);
export const endUserViewSchema = component(
  'EndUserView',
  views.endUserViewSchema,
  "An end user's deposit wallet and its status, as the end user's process last recorded them",
);

// ---------------------------------------------------------------------------------------------- wallet journals

const orphanWallet = describes<OrphanWallet>()(
  z.strictObject({ walletId: text, recordedAt: isoDateTime, reason: text }),
);
const unconfirmedCreation = describes<UnconfirmedCreation>()(
  z.strictObject({ attempt: z.number(), recordedAt: isoDateTime, requestId: text }),
);
const walletCreationRequest = describes<WalletCreationRequest>()(
  z.strictObject({
    requestId: text,
    attempt: z.number(),
    requestedAt: isoDateTime,
    answeredWalletId: text.optional(),
    inFlightForMs: z.number().optional(),
    notSent: z.literal(true).optional(),
  }),
);
const walletCreated = describes<WalletCreatedSignal>()(
  z.strictObject({
    walletId: text,
    externalUserId: text,
    attempt: z.number(),
    role: z.enum(ACCOUNT_WALLET_ROLES).optional(),
    requestId: text,
  }),
);
const walletJournal = describes<WalletJournal>()(
  z.strictObject({
    requests: z.array(walletCreationRequest),
    unconfirmed: z.array(unconfirmedCreation),
    journaled: walletCreated.optional(),
  }),
);

// ---------------------------------------------------------------------------------------------- quotes

export const quoteRequestComponent = component('QuoteRequest', quoteRequestSchema);
export const onRampQuoteRequestComponent = component('OnRampQuoteRequest', onRampQuoteRequestSchema);

export const quoteSchema = component(
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

// ---------------------------------------------------------------------------------------------- account

const accountWallet = describes<AccountWallet>()(
  z.strictObject({
    role: z.enum(ACCOUNT_WALLET_ROLES),
    walletId: text,
    externalUserId: text,
    addresses: z.array(addressOnNetwork),
    createdAt: isoDateTime,
  }),
);
const accountRecipient = describes<AccountRecipient>()(
  z.strictObject({
    kind: z.enum(RESOURCE_KINDS),
    id: text,
    redactedUrl: text,
    createdByUs: z.boolean(),
    recordedAt: isoDateTime,
  }),
);

export const accountSetupResultSchema = component(
  'AccountSetupResult',
  describes<AccountSetupResult>()(
    z.strictObject({
      status: z.literal('ready'),
      masterWallet: accountWallet,
      gasWallet: accountWallet,
      recipients: z.strictObject({ transaction: accountRecipient, order: accountRecipient }),
      addedRecipients: z.array(accountRecipient),
      removedRecipients: z.array(accountRecipient),
      whitelist: z.array(
        z.strictObject({ role: z.enum(ACCOUNT_WALLET_ROLES), network: text, address: text }),
      ),
      nextSteps: z.array(text),
      setupRuns: z.number(),
      completedAt: isoDateTime,
    }),
  ),
);

const perRole = <S extends z.ZodType>(schema: S) =>
  z.strictObject({ master: schema.optional(), gas: schema.optional() });

export const accountSetupStateSchema = component(
  'AccountSetupState',
  describes<AccountSetupState>()(
    z.strictObject({
      status: z.enum(['none', 'running', 'ready', 'failed']),
      lastError: text.optional(),
      wallets: perRole(accountWallet),
      journals: z.strictObject({ master: walletJournal, gas: walletJournal }),
      recipients: z.array(accountRecipient),
      orphanWallets: z.array(orphanWallet.extend({ role: z.enum(ACCOUNT_WALLET_ROLES) })),
      extraWalletsReported: z.number(),
      result: accountSetupResultSchema.optional(),
      setupRuns: z.number(),
      createdAt: isoDateTime,
    }),
  ),
);

// ---------------------------------------------------------------------------------------------- alerts

const incidentShape = {
  key: text,
  kind: z.enum(ALERT_KINDS),
  network: nullableText,
  depositTransactionId: nullableText,
  message: text,
  workflowId: text,
  lastWorkflowId: text,
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  firstSeen: isoDateTime,
  lastSeen: isoDateTime,
  occurrences: z.number(),
  openedBy: text,
  acknowledged: z
    .strictObject({ by: text, reason: text, at: isoDateTime })
    .optional()
    .meta({ description: 'Who took it on call, why and when' }),
};
const incident = describes<Incident>()(z.strictObject(incidentShape));
const resolvedIncident = describes<ResolvedIncident>()(
  z.strictObject({ ...incidentShape, resolvedAt: isoDateTime, resolution: text, resolvedBy: text }),
);

export const incidentSchema = component('Incident', incident, 'An open incident');
export const resolvedIncidentSchema = component(
  'ResolvedIncident',
  resolvedIncident,
  'A resolved incident: resolvedBy is `person/<who>` when someone closed it by hand',
);

/** POST /v1/alerts/acknowledge and /resolve: the incident, who acts and why. */
export const incidentActionSchema = component(
  'IncidentAction',
  z.strictObject({
    key: text.min(1).max(500).meta({ description: "The incident's key, as GET /v1/alerts lists it" }),
    by: text.trim().min(1).max(ACTION_LIMITS.by).meta({ description: 'Who acts (a name or handle)' }),
    reason: text.trim().min(1).max(ACTION_LIMITS.reason).meta({ description: 'Why' }),
  }),
);

export const incidentPageSchema = component(
  'IncidentPage',
  z.strictObject({
    data: z.array(z.union([resolvedIncident, incident])).meta({
      description: 'Newest first: open ones by when they opened, resolved ones by when they were resolved',
    }),
    pagination: z.strictObject({
      nextPageToken: nullableText.meta({
        description: 'Pass as pageToken for the next page; null on the last',
      }),
    }),
  }),
  'One page of incidents, under 64 kB however many there are (a page of long incidents holds fewer than limit)',
);

// ---------------------------------------------------------------------------------------------- ramps

export const onRampViewSchema = component(
  'OnRamp',
  views.onRampViewSchema,
  'An on-ramp as its process last recorded it: status, order, deposit, quote, amounts and exceptions',
);
export const offRampViewSchema = component(
  'OffRamp',
  views.offRampViewSchema,
  'An off-ramp as its process last recorded it: status, deposit, order, quote, amounts, gas and exceptions',
);
export const rampSummarySchema = component('RampSummary', views.rampSummarySchema);

/** GET /v1/ramps answers `{ data, pagination }` (the page's `nextPageToken` in `pagination`). */
export const rampPageSchema = component(
  'RampPage',
  z.strictObject({
    data: z.array(rampSummarySchema),
    pagination: z.strictObject({
      nextPageToken: nullableText.meta({
        description: 'Pass as pageToken for the next page; null on the last',
      }),
    }),
  }),
);
export type RampPageAnswer = z.output<typeof rampPageSchema>;
export const rampPageAnswer = (page: RampPage): RampPageAnswer => ({
  data: page.data,
  pagination: { nextPageToken: page.nextPageToken },
});

const rampsOfUser = {
  ramps: z.array(rampSummarySchema),
  nextRampsPageToken: nullableText.meta({
    description: 'For the following ramps: GET /v1/ramps?endUserId=<id>&pageToken=<this>; null when none',
  }),
};
export const endUserOverviewSchema = component(
  'EndUser',
  describes<EndUserOverview>()(
    z.union([
      z.strictObject({ ...views.endUserViewSchema.shape, ...rampsOfUser }),
      z.strictObject({ endUserId: text, walletStatus: z.literal('none'), ...rampsOfUser }),
    ]),
  ),
  "The end user's view (absent for a user with on-ramps only) and newest ramps of both directions",
);

// ---------------------------------------------------------------------------------------------- requests

export const endUserParams = z.strictObject({ id: endUserIdSchema });
/** The end user a POST creates or names for something new: never an e-mail address. */
export const newEndUserParams = z.strictObject({ id: newEndUserIdSchema });
export const onRampParams = z.strictObject({ orderReference: identifierSchema('order reference') });
export const offRampParams = z.strictObject({
  depositTransactionId: identifierSchema('deposit transaction ID'),
});
/** The webhook-id of an outcome event, as every delivery of it carries it. */
export const webhookIdSchema = z
  .string()
  .max(MAX_OUTCOME_WEBHOOK_ID_LENGTH, {
    error: `must be at most ${MAX_OUTCOME_WEBHOOK_ID_LENGTH} characters`,
    abort: true,
  })
  .regex(OUTCOME_WEBHOOK_ID_PATTERN, 'must be the webhook-id of an outcome event (evt_<process>~<number>)')
  .meta({ description: 'The webhook-id of an outcome event: evt_<workflow ID with / as ~>~<number>' });
export const webhookIdParams = z.strictObject({ webhookId: webhookIdSchema });

export const startOnRampRequestSchema = component(
  'StartOnRampRequest',
  z.strictObject({
    endUserId: newEndUserIdSchema,
    orderReference: identifierSchema('order reference'),
    quoteRequest: onRampQuoteRequestComponent
      .optional()
      .meta({ description: 'As POST /v1/quotes takes it: the on-ramp starts with this quote shown' }),
  }),
);

export const offRampQuoteRequestComponent = component('OffRampQuoteRequest', offRampQuoteRequestSchema);

/** The query of GET /v1/ramps (query values are strings; limit is converted). */
export const rampListQuerySchema = z.strictObject({
  endUserId: endUserIdSchema.optional(),
  direction: z.enum(RAMP_DIRECTIONS).optional(),
  status: z
    .enum([...new Set([...ON_RAMP_STATUSES, ...OFF_RAMP_STATUSES])] as [string, ...string[]])
    .optional(),
  closedAfter: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'Only ramps that ended after this' }),
  limit: z
    .string()
    .regex(/^(?:[1-9][0-9]?|100)$/, 'must be an integer from 1 to 100')
    .transform(Number)
    .optional(),
  pageToken: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,8192}$/, 'must be a nextPageToken this API answered')
    .optional(),
});

// ---------------------------------------------------------------------------------------------- statement

export const statementRowSchema = component('StatementRow', views.statementRowSchema);

export const statementTotalSchema = component(
  'StatementTotal',
  describes<StatementTotal>()(
    z.strictObject({
      status: text,
      asset: text,
      ramps: z.number().meta({ description: 'Ramps of this status that moved this asset' }),
      received: decimal.meta({ description: 'What end users sent of it' }),
      delivered: decimal.meta({ description: 'What end users received of it' }),
      gas: decimal.meta({ description: 'The gas paid in it' }),
    }),
  ),
);

export const statementSchema = component(
  'Statement',
  z.strictObject({
    data: z.strictObject({
      from: isoDateTime,
      to: isoDateTime,
      rows: z.array(statementRowSchema),
      totals: z.array(statementTotalSchema),
      rowCount: z.number(),
    }),
  }),
  'GET /v1/statement?format=json: the rows, then the totals (streamed; a statement cut off mid-way lacks its totals)',
);

export const statementQuerySchema = z.strictObject({
  from: z.iso
    .datetime({ offset: true })
    .meta({ description: 'ISO 8601: ramps whose process closed at or after this' }),
  to: z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601, after from: and before this' }),
  format: z.enum(['json', 'csv']).optional().meta({ description: 'json (default) or csv' }),
});

/** One named body schema per outcome event type, for the document's `webhooks` section. */
export const outcomeEventBodies = Object.fromEntries(
  OUTCOME_EVENT_TYPES.map((type) => [type, component(`OutcomeEvent_${type}`, views.outcomeEventBody(type))]),
);

// ---------------------------------------------------------------------------------------------- the events API

export const testPingEventSchema = component(
  'TestPingEvent',
  views.testPingEventSchema,
  'The body of the test event POST /v1/events/test sends to every endpoint, signed like any other',
);

export const eventViewSchema = component(
  'EventRecord',
  views.eventViewSchema,
  'One outcome event as the events API lists it: its body, how its delivery stands, its place in its queue',
);

export const eventPageSchema = component(
  'EventPage',
  z.strictObject({
    data: z.array(eventViewSchema),
    pagination: z.strictObject({
      nextPageToken: nullableText.meta({
        description: 'Pass as pageToken for the next page; null on the last',
      }),
    }),
  }),
);

const instant = (description: string) => z.iso.datetime({ offset: true }).meta({ description });
const eventType = z.enum(WEBHOOK_EVENT_TYPES);
const deliveryStatus = z.enum(OUTCOME_DELIVERY_STATUSES);

/** The query of GET /v1/events (query values are strings; limit is converted). */
export const eventListQuerySchema = z.strictObject({
  type: eventType.optional(),
  status: deliveryStatus.optional(),
  endUserId: endUserIdSchema.optional(),
  since: instant('Events that happened at or after this').optional(),
  until: instant('Events that happened before this').optional(),
  limit: rampListQuerySchema.shape.limit,
  pageToken: rampListQuerySchema.shape.pageToken,
});

/** The query of GET /v1/alerts (query values are strings; limit is converted). */
export const incidentListQuerySchema = z.strictObject({
  status: z.enum(['open', 'resolved']).optional().meta({ description: 'open (the default) or resolved' }),
  kind: z.enum(ALERT_KINDS).optional(),
  limit: rampListQuerySchema.shape.limit,
  pageToken: rampListQuerySchema.shape.pageToken,
});

export const redeliveryRequestSchema = component(
  'RedeliveryRequest',
  z.strictObject({
    type: eventType.optional(),
    status: deliveryStatus.optional().meta({
      description:
        'Only events in this state; leave it out after an outage: since alone reaches every unconfirmed event',
    }),
    endUserId: endUserIdSchema.optional(),
    since: instant('Events that happened at or after this (required: a redelivery is always bounded)'),
    until: instant('Events that happened before this').optional(),
  }),
);

export const redeliveryJobSchema = component(
  'RedeliveryJob',
  describes<RedeliveryProgress>()(
    z.strictObject({
      jobId: text,
      status: z.enum(['running', 'completed']),
      filter: z.record(z.string(), text).meta({ description: 'What the job matched, as it was asked for' }),
      matched: z.number().meta({ description: 'Events put back in their queues' }),
      delivered: z.number(),
      failed: z.number(),
      noEndpoint: z.number(),
      startedAt: isoDateTime,
      completedAt: isoDateTime.nullable(),
    }),
  ),
  'A bulk redelivery: each matching event is sent once more with its own webhook-id',
);

export const redeliveryJobParams = z.strictObject({
  jobId: z
    .string()
    .regex(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      'must be a jobId this API answered',
    ),
});
