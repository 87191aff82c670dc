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
import type { EventRedelivery } from '../client';
import type { EventRecord, RedeliveryJobProgress } from '../client/outcome-events';
import type { RampPage, RampProcessSummary } from '../client/ramp-list';
import type { StatementRow, StatementTotal } from '../client/statement-rows';
import type { AmountsAgainstQuote } from '../domain/amounts-against-quote';
import { EXCEPTION_REASONS, type RampException } from '../domain/markets';
import type { RampGas } from '../domain/ramp-gas';
import {
  MAX_OUTCOME_WEBHOOK_ID_LENGTH,
  OUTCOME_DELIVERY_STATUSES,
  OUTCOME_EVENT_TYPES,
  OUTCOME_WEBHOOK_ID_PATTERN,
  TEST_EVENT_TYPE,
  type TestPingEvent,
  WEBHOOK_EVENT_TYPES,
  type OutcomeEvent,
  type OutcomeEventData,
  type OutcomeEventRecord,
} from '../domain/outcome-events';
import { ACCOUNT_WALLET_ROLES, RAMP_DIRECTIONS, RESOURCE_KINDS } from '../domain/vocabulary';
import { endUserIdSchema, identifierSchema } from '../validation/identifiers';
import type {
  AccountRecipient,
  AccountSetupResult,
  AccountSetupState,
  AccountWallet,
} from '../../workflows/account-setup/types';
import type { DepositWallet, EndUserState, QuotedDeposit } from '../../workflows/end-user/types';
import type {
  OrphanWallet,
  UnconfirmedCreation,
  WalletCreatedSignal,
  WalletCreationRequest,
  WalletJournal,
} from '../../workflows/wallet-creation/journal';
import type { GasCheck } from '../../workflows/operations/gas-monitor/types';
import { ACTION_LIMITS } from '../../workflows/operations/alerts/incidents';
import {
  ALERT_KINDS,
  type AlertsState,
  type Incident,
  type ResolvedIncident,
} from '../../workflows/operations/alerts/types';
import type { QuoteResult } from '../../workflows/quote/types';
import {
  OFF_RAMP_STATUSES,
  type OffRampQuoteShown,
  type OffRampState,
} from '../../workflows/ramps/offramp/types';
import {
  ON_RAMP_STATUSES,
  type OnRampQuoteShown,
  type OnRampState,
} from '../../workflows/ramps/onramp/types';
import type { OrderSnapshot, TransactionSnapshot } from '../../workflows/ramps/shared/snapshots';

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

const text = z.string();
const isoDateTime = z.string().meta({ format: 'date-time' });
const decimal = z.string().meta({ description: 'Decimal string, e.g. "100.50"' });
const nullableText = z.string().nullable();
const addressOnNetwork = z.strictObject({ network: text, address: text });

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

const signedDecimal = z.string().meta({ description: 'Signed decimal string, e.g. "-2.5"' });

export const amountsSchema = component(
  'AmountsAgainstQuote',
  describes<AmountsAgainstQuote>()(
    z.strictObject({
      quoted: z
        .strictObject({ amountFrom: decimal, targetAmount: decimal, rate: decimal, expiresAt: isoDateTime })
        .optional()
        .meta({ description: 'What the end user was shown; absent when no quote is known for the ramp' }),
      executed: z
        .strictObject({
          amountFrom: decimal,
          amountTo: decimal,
          rate: decimal,
          executedAt: isoDateTime.nullable(),
        })
        .meta({ description: "What the operator's order executed; a rate is amountTo per one amountFrom" }),
      difference: signedDecimal.optional().meta({
        description:
          'executed.amountTo minus what the quoted rate gives for executed.amountFrom, in the target asset (negative: the end user received less)',
      }),
      differencePercent: signedDecimal
        .optional()
        .meta({ description: 'The executed rate against the quoted one, in percent' }),
      executedAfterExpiry: z.boolean().optional(),
    }),
  ),
  'What a ramp executed against the quote its end user was shown (decimal strings)',
);

const gasSpent = z.strictObject({ asset: text, amount: decimal });
export const gasSchema = component(
  'RampGas',
  describes<RampGas>()(
    z.strictObject({
      topUp: gasSpent.optional(),
      sweep: gasSpent.optional(),
      total: gasSpent.optional().meta({ description: 'topUp + sweep, when both are in one asset' }),
    }),
  ),
  "The gas the operator reports for an off-ramp's top-up and sweep, in the network's native asset",
);

const exceptionReason = z.enum(EXCEPTION_REASONS);
export const rampExceptionSchema = component(
  'RampException',
  describes<RampException>()(z.strictObject({ reason: exceptionReason, message: text, seenAt: isoDateTime })),
  'An exception a ramp met, once per reason',
);

// ---------------------------------------------------------------------------------------------- outcome events

export const outcomeEventDataSchema = component(
  'OutcomeEventData',
  describes<OutcomeEventData>()(
    z.strictObject({
      workflowId: text,
      endUserId: nullableText.meta({
        description: "Null while an off-ramp's deposit wallet has no end user",
      }),
      status: text,
      step: text,
      depositTransactionId: text.optional(),
      orderReference: text.optional(),
      orderId: text.optional(),
      network: text.optional(),
      address: text.optional(),
      asset: text.optional(),
      cryptoAmount: decimal.optional(),
      fiatAmount: decimal.optional(),
      fiatCurrency: text.optional(),
      failure: z.strictObject({ resource: text, id: text, status: text }).optional(),
      amounts: amountsSchema.optional(),
      gas: gasSchema.optional(),
      exception: z
        .strictObject({ reason: exceptionReason, message: text })
        .optional()
        .meta({ description: '*.exception: the exception just seen' }),
      exceptions: z.array(rampExceptionSchema).optional().meta({ description: 'Every exception so far' }),
      claimedAt: isoDateTime
        .optional()
        .meta({ description: 'on_ramp.claimed: when the end user was named, after the on-ramp ended' }),
      walletId: text.optional().meta({ description: 'deposit_wallet.created: the wallet' }),
      addresses: z
        .array(addressOnNetwork)
        .optional()
        .meta({ description: 'deposit_wallet.created: its address on each network' }),
    }),
  ),
);

/** The body of one outcome event of the given type (the `webhooks` section has one per type). */
export function outcomeEventBody(type: (typeof OUTCOME_EVENT_TYPES)[number]) {
  return describes<OutcomeEvent>()(
    z.strictObject({
      type: z.literal(type),
      timestamp: isoDateTime.meta({ description: 'When the transition happened (not when it was sent)' }),
      data: outcomeEventDataSchema,
    }),
  );
}

export const outcomeEventSchema = component(
  'OutcomeEvent',
  describes<OutcomeEvent>()(
    z.strictObject({
      type: z.enum(OUTCOME_EVENT_TYPES),
      timestamp: isoDateTime,
      data: outcomeEventDataSchema,
    }),
  ),
  'The JSON body of an outcome webhook, identical on every delivery of it',
);

const outcomeEventRecord = component(
  'OutcomeEventRecord',
  describes<OutcomeEventRecord>()(
    z.strictObject({
      webhookId: text.meta({ description: 'The webhook-id header of every delivery of this event' }),
      event: outcomeEventSchema,
      delivery: z.enum(['pending', 'delivered', 'failed', 'no-endpoint']),
      deliveredAt: isoDateTime.optional(),
      error: text.optional(),
    }),
  ),
);

/** A process's outcome events; typed by workflows/outcomes/outbox.ts. */
const outbox = z.strictObject({ sequence: z.number(), events: z.array(outcomeEventRecord) });

// ---------------------------------------------------------------------------------------------- end users

export const depositWalletSchema = component(
  'DepositWallet',
  describes<DepositWallet>()(
    z.strictObject({
      walletId: text,
      externalUserId: text,
      addresses: z.array(addressOnNetwork),
      createdAt: isoDateTime,
    }),
  ),
);

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

export const offRampQuoteShownSchema = component(
  'DepositQuote',
  describes<OffRampQuoteShown>()(
    z.strictObject({
      amountFrom: decimal,
      targetAmount: decimal,
      expiresAt: isoDateTime,
      coinFrom: text,
      chainFrom: text.optional(),
      coinTo: text,
      quoteId: text.optional(),
      shownAt: isoDateTime,
    }),
  ),
  "The quote an end user was shown for their next deposit; that deposit's off-ramp compares its execution with it",
);
const quotedDeposit = describes<QuotedDeposit>()(
  z.strictObject({ depositTransactionId: text, quote: offRampQuoteShownSchema }),
);

const endUserStateShape = {
  endUserId: text,
  walletStatus: z.enum(['none', 'creating', 'ready', 'failed']),
  wallet: depositWalletSchema.optional(),
  walletJournal,
  orphanWallets: z.array(orphanWallet),
  extraWalletsReported: z.number(),
  createdAt: isoDateTime,
  runs: z.number(),
  offRamps: z.array(text),
  depositQuote: offRampQuoteShownSchema.optional(),
  quotedDeposits: z.array(quotedDeposit).optional(),
  lastError: text.optional(),
  outcomes: outbox,
};
export const endUserStateSchema = component(
  'EndUserState',
  describes<EndUserState>()(z.strictObject(endUserStateShape)),
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

export const alertsSchema = component(
  'Alerts',
  describes<AlertsState>()(
    z.strictObject({
      open: z.array(incident),
      recentlyResolved: z.array(resolvedIncident),
      raisedTotal: z.number(),
      resolvedTotal: z.number(),
      runs: z.number(),
      since: isoDateTime,
    }),
  ),
);

// ---------------------------------------------------------------------------------------------- ramps

const transactionSnapshot = describes<TransactionSnapshot>()(
  z.strictObject({
    id: text,
    status: text,
    type: text,
    subtype: nullableText,
    walletId: text,
    network: nullableText,
    asset: nullableText,
    amount: decimal.nullable(),
    relatedTransactionId: nullableText,
    orderId: nullableText,
    fee: gasSpent.nullable().optional().meta({ description: 'The gas the operator reports for it' }),
    readAt: isoDateTime,
  }),
);
const orderSnapshot = describes<OrderSnapshot>()(
  z.strictObject({
    id: text,
    orderReference: text,
    status: text,
    direction: nullableText,
    coinFrom: nullableText,
    coinTo: nullableText,
    chainTo: nullableText,
    amountFrom: decimal.nullable(),
    amountTo: decimal.nullable(),
    transactionId: nullableText,
    updatedAt: isoDateTime.nullable().optional(),
    readAt: isoDateTime,
  }),
);
const gasCheck = describes<GasCheck>()(
  z.strictObject({
    gasWalletId: nullableText,
    network: text,
    asset: text,
    balance: decimal.nullable(),
    minimum: decimal,
    shortfall: z.boolean(),
    checkedAt: isoDateTime,
    error: text.optional(),
  }),
);
/** RampBookkeeping (workflows/ramps/shared/bookkeeping.ts), which both ramp states extend. */
const rampBookkeeping = {
  lastFailure: z.strictObject({ what: text, message: text, at: isoDateTime }).optional(),
  eventsApplied: z.number(),
  duplicates: z.number(),
  polls: z.number(),
  startedAt: isoDateTime,
  endedAt: isoDateTime.optional(),
  outcomes: outbox,
};

const onRampQuoteShown = describes<OnRampQuoteShown>()(
  z.strictObject({
    targetAmount: decimal,
    expiresAt: isoDateTime,
    amountFrom: decimal.optional(),
    coinTo: text.optional(),
    chainTo: text.optional(),
  }),
);

export const onRampStateSchema = component(
  'OnRampState',
  describes<OnRampState>()(
    z.strictObject({
      ...rampBookkeeping,
      orderReference: text,
      status: z.enum(ON_RAMP_STATUSES),
      step: text,
      endUserId: nullableText,
      unattributed: z.boolean(),
      quote: onRampQuoteShown.optional(),
      order: orderSnapshot.optional(),
      deposit: transactionSnapshot.optional(),
      cryptoAmount: decimal.optional(),
      asset: text.optional(),
      failure: z
        .strictObject({ resource: z.enum(['order', 'transaction']), id: text, status: text })
        .optional(),
      amounts: amountsSchema.optional(),
      exceptions: z.array(rampExceptionSchema).optional(),
      claimableUntil: isoDateTime
        .optional()
        .meta({ description: 'Ended without an end user: POST /v1/on-ramps claims it until then' }),
      claimedAt: isoDateTime.optional(),
      unclaimedIncident: text
        .optional()
        .meta({ description: 'The unclaimed-on-ramp incident raised when the claim window passed' }),
    }),
  ),
);

export const offRampStateSchema = component(
  'OffRampState',
  describes<OffRampState>()(
    z.strictObject({
      ...rampBookkeeping,
      depositTransactionId: text,
      status: z.enum(OFF_RAMP_STATUSES),
      step: text,
      endUserId: nullableText,
      unattributed: z.boolean(),
      deposit: transactionSnapshot.optional(),
      gasTopUp: transactionSnapshot.optional(),
      sweep: transactionSnapshot.optional(),
      orderTransaction: transactionSnapshot.optional(),
      order: orderSnapshot.optional(),
      fiatAmount: decimal.optional(),
      fiatCurrency: text.optional(),
      orderId: text.optional(),
      failure: z
        .strictObject({
          transactionId: text,
          role: z.enum(['deposit', 'gasTopUp', 'sweep', 'orderTransaction', 'order']),
          status: text,
        })
        .optional(),
      gasCheck: gasCheck.optional(),
      alertsRaised: z.number(),
      stuckSince: isoDateTime.optional(),
      quote: offRampQuoteShownSchema.optional(),
      amounts: amountsSchema.optional(),
      gas: gasSchema.optional(),
      exceptions: z.array(rampExceptionSchema).optional(),
    }),
  ),
);

export const rampSummarySchema = component(
  'RampSummary',
  describes<RampProcessSummary>()(
    z.strictObject({
      workflowId: text,
      direction: z.enum(RAMP_DIRECTIONS),
      status: text,
      endUserId: nullableText.meta({
        description:
          'Null when unattributed, or (with payload encryption) unless the list was filtered by end user',
      }),
      orderReference: nullableText,
      depositTransactionId: nullableText,
      running: z.boolean(),
      startTime: isoDateTime,
      closeTime: isoDateTime.nullable(),
    }),
  ),
);

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
      z.strictObject({ ...endUserStateShape, ...rampsOfUser }),
      z.strictObject({ endUserId: text, walletStatus: z.literal('none'), ...rampsOfUser }),
    ]),
  ),
  "The end user's process (absent for a user with on-ramps only) and newest ramps of both directions",
);

// ---------------------------------------------------------------------------------------------- requests

export const endUserParams = z.strictObject({ id: endUserIdSchema });
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
    endUserId: endUserIdSchema,
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

export const statementRowSchema = component(
  'StatementRow',
  describes<StatementRow>()(
    z.strictObject({
      workflowId: text,
      direction: z.enum(RAMP_DIRECTIONS),
      status: text.meta({
        description: 'How the ramp ended (settled, failed, expired, timed-out, exception, unclaimed)',
      }),
      endUserId: nullableText,
      orderReference: nullableText,
      depositTransactionId: nullableText,
      orderId: nullableText,
      webhookIds: z
        .array(text)
        .meta({ description: "The webhook-ids of the ramp's outcome events, in order" }),
      assetFrom: nullableText.meta({
        description: 'What the end user sent: MXN on-ramp, the token off-ramp',
      }),
      amountFrom: decimal.nullable(),
      assetTo: nullableText.meta({ description: 'What the end user received, when the order executed' }),
      amountTo: decimal.nullable(),
      rate: decimal.nullable().meta({ description: 'Executed amountTo per one amountFrom' }),
      quotedAmountFrom: decimal.nullable(),
      quotedTargetAmount: decimal.nullable(),
      quotedRate: decimal.nullable(),
      quoteExpiresAt: isoDateTime.nullable(),
      difference: signedDecimal.nullable(),
      differencePercent: signedDecimal.nullable(),
      executedAfterExpiry: z.boolean().nullable(),
      gasAsset: nullableText,
      gasAmount: decimal.nullable(),
      exceptions: z.array(exceptionReason),
      startedAt: isoDateTime,
      endedAt: isoDateTime.nullable(),
      claimedAt: isoDateTime.nullable(),
      closedAt: isoDateTime.meta({ description: 'When the process closed: the period is of this instant' }),
      reconciled: z.enum(['matches', 'differs', 'unreadable', 'nothing-to-read']).meta({
        description: 'A fresh read of the operator against every status and amount the ramp booked',
      }),
      reconciliation: text.meta({
        description: 'What the operator says where it differs, or why it was not read',
      }),
    }),
  ),
);

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

export const redeliverySchema = component(
  'EventRedelivery',
  describes<EventRedelivery>()(
    z.strictObject({ webhookId: text, workflowId: text, redeliveryWorkflowId: text }),
  ),
);

/** One named body schema per outcome event type, for the document's `webhooks` section. */
export const outcomeEventBodies = Object.fromEntries(
  OUTCOME_EVENT_TYPES.map((type) => [type, component(`OutcomeEvent_${type}`, outcomeEventBody(type))]),
);

// ---------------------------------------------------------------------------------------------- the events API

export const testPingEventSchema = component(
  'TestPingEvent',
  describes<TestPingEvent>()(
    z.strictObject({
      type: z.literal(TEST_EVENT_TYPE),
      timestamp: isoDateTime,
      data: z.strictObject({ message: text }),
    }),
  ),
  'The body of the test event POST /v1/events/test sends to every endpoint, signed like any other',
);

export const eventRecordSchema = component(
  'EventRecord',
  describes<EventRecord>()(
    z.strictObject({
      webhookId: text.meta({ description: 'The webhook-id header of every delivery of this event' }),
      event: z.union([outcomeEventSchema, testPingEventSchema]),
      delivery: z.enum(OUTCOME_DELIVERY_STATUSES),
      attempts: z.number().meta({ description: 'Delivery attempts so far, redeliveries included' }),
      lastAttemptAt: isoDateTime.optional(),
      deliveredAt: isoDateTime
        .optional()
        .meta({ description: 'When the delivery ended: confirmed, no endpoint, or given up' }),
      error: text.optional().meta({ description: 'The last refusal while pending or failed (never a URL)' }),
      giveUpAt: isoDateTime.optional().meta({ description: 'While pending: when this delivery gives up' }),
    }),
  ),
  'One outcome event as the events API lists it: its body and how its delivery stands',
);

export const eventPageSchema = component(
  'EventPage',
  z.strictObject({
    data: z.array(eventRecordSchema),
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

export const redeliveryRequestSchema = component(
  'RedeliveryRequest',
  z.strictObject({
    type: eventType.optional(),
    status: deliveryStatus
      .optional()
      .meta({ description: 'For instance failed: the events a client outage cost' }),
    endUserId: endUserIdSchema.optional(),
    since: instant('Events that happened at or after this (required: a redelivery is always bounded)'),
    until: instant('Events that happened before this').optional(),
  }),
);

export const redeliveryJobSchema = component(
  'RedeliveryJob',
  describes<RedeliveryJobProgress>()(
    z.strictObject({
      jobId: text,
      status: z.enum(['running', 'completed']),
      filter: z.strictObject({
        type: text.optional(),
        status: text.optional(),
        endUserId: text.optional(),
        since: isoDateTime,
        until: isoDateTime.optional(),
      }),
      matched: z.number().meta({ description: 'Events found so far that match the filter' }),
      delivered: z.number(),
      failed: z.number(),
      noEndpoint: z.number(),
      startedAt: isoDateTime,
      completedAt: isoDateTime.optional(),
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
