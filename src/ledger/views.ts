/**
 * What a client reads of each ramp, end user and outcome event: the views the database keeps and the API, the typed
 * client and the OpenAPI document publish, declared once here as zod schemas with their types inferred from them.
 * A view names only what a client books or shows (status, amounts, quote, exceptions, IDs, timestamps); what a
 * workflow keeps for itself (journals, polls, counters) stays in its query and the Web UI, so a workflow can change
 * its bookkeeping without changing the contract. Absent facts are null, lists are never null.
 */
import { z } from 'zod';
import { EXCEPTION_REASONS } from '../domain/markets';
import { OUTCOME_DELIVERY_STATUSES, OUTCOME_EVENT_TYPES, TEST_EVENT_TYPE } from '../domain/outcome-events';
import { RAMP_DIRECTIONS } from '../domain/vocabulary';
import { OFF_RAMP_STATUSES } from '../../workflows/ramps/offramp/types';
import { ON_RAMP_STATUSES } from '../../workflows/ramps/onramp/types';

export const text = z.string();
export const isoDateTime = z.string().meta({ format: 'date-time' });
export const decimal = z.string().meta({ description: 'Decimal string, e.g. "100.50"' });
export const signedDecimal = z.string().meta({ description: 'Signed decimal string, e.g. "-2.5"' });
export const nullableText = z.string().nullable();
export const addressOnNetwork = z.strictObject({ network: text, address: text });

// ---------------------------------------------------------------------------------------------- booking parts

export const amountsSchema = z.strictObject({
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
  executedAfterExpiry: z.boolean().optional().meta({
    description:
      'The order executed after the quote expired. Book the executed amounts; when no off_quote exception was raised the rate stayed within the tolerance',
  }),
});

const gasSpent = z.strictObject({ asset: text, amount: decimal });
export const gasSchema = z.strictObject({
  topUp: gasSpent.optional(),
  sweep: gasSpent.optional(),
  total: gasSpent.optional().meta({ description: 'topUp + sweep, when both are in one asset' }),
});

export const exceptionReasonSchema = z.enum(EXCEPTION_REASONS);
export const rampExceptionSchema = z.strictObject({
  reason: exceptionReasonSchema,
  message: text,
  seenAt: isoDateTime,
});

/** The quote an end user was shown for their next deposit; that deposit's off-ramp compares its execution with it. */
export const depositQuoteSchema = z.strictObject({
  amountFrom: decimal,
  targetAmount: decimal,
  expiresAt: isoDateTime,
  coinFrom: text,
  chainFrom: text.optional(),
  coinTo: text,
  quoteId: text.optional(),
  shownAt: isoDateTime,
});

export const onRampQuoteShownSchema = z.strictObject({
  targetAmount: decimal,
  expiresAt: isoDateTime,
  amountFrom: decimal.optional(),
  coinTo: text.optional(),
  chainTo: text.optional(),
});

// ---------------------------------------------------------------------------------------------- ramps

const transfer = z.strictObject({
  transactionId: text,
  status: text,
  network: nullableText,
  asset: nullableText,
  amount: decimal.nullable(),
});

const viewTimes = {
  startedAt: isoDateTime,
  updatedAt: isoDateTime.meta({ description: 'When the process last wrote this view' }),
  endedAt: isoDateTime.nullable().meta({ description: 'When the ramp reached its end; null while it runs' }),
};

export const offRampViewSchema = z.strictObject({
  workflowId: text,
  depositTransactionId: text,
  status: z.enum(OFF_RAMP_STATUSES),
  step: text.meta({ description: 'The status in words, for people' }),
  endUserId: nullableText.meta({ description: 'Null while no end user owns the deposit wallet' }),
  unattributed: z.boolean(),
  deposit: transfer.nullable().meta({ description: 'The crypto deposit, as the operator last reported it' }),
  orderId: nullableText,
  fiatAmount: decimal.nullable(),
  fiatCurrency: nullableText,
  quote: depositQuoteSchema.nullable(),
  amounts: amountsSchema.nullable(),
  gas: gasSchema.nullable(),
  exceptions: z.array(rampExceptionSchema),
  failure: z
    .strictObject({
      transactionId: text,
      role: z.enum(['deposit', 'gasTopUp', 'sweep', 'orderTransaction', 'order']),
      status: text,
    })
    .nullable(),
  stuckSince: isoDateTime.nullable().meta({ description: 'When the sweep was found late (status stuck)' }),
  ...viewTimes,
});
export type OffRampView = z.infer<typeof offRampViewSchema>;

export const onRampViewSchema = z.strictObject({
  workflowId: text,
  orderReference: text,
  status: z.enum(ON_RAMP_STATUSES),
  step: text.meta({ description: 'The status in words, for people' }),
  endUserId: nullableText.meta({ description: 'Null until POST /v1/on-ramps names the end user' }),
  unattributed: z.boolean(),
  order: z
    .strictObject({
      id: text,
      status: text,
      coinFrom: nullableText,
      coinTo: nullableText,
      chainTo: nullableText,
      amountFrom: decimal.nullable(),
      amountTo: decimal.nullable(),
    })
    .nullable(),
  deposit: transfer.nullable().meta({ description: 'The crypto settled to the master wallet' }),
  cryptoAmount: decimal.nullable(),
  asset: nullableText,
  quote: onRampQuoteShownSchema.nullable(),
  amounts: amountsSchema.nullable(),
  exceptions: z.array(rampExceptionSchema),
  failure: z.strictObject({ resource: z.enum(['order', 'transaction']), id: text, status: text }).nullable(),
  claimableUntil: isoDateTime
    .nullable()
    .meta({ description: 'Ended without an end user: POST /v1/on-ramps claims it until then' }),
  claimedAt: isoDateTime.nullable(),
  unclaimedIncident: nullableText.meta({
    description: 'The unclaimed-on-ramp incident raised when the claim window passed',
  }),
  ...viewTimes,
});
export type OnRampView = z.infer<typeof onRampViewSchema>;

export const rampSummarySchema = z.strictObject({
  workflowId: text,
  direction: z.enum(RAMP_DIRECTIONS),
  status: text,
  endUserId: nullableText.meta({ description: 'Null while unattributed' }),
  orderReference: nullableText,
  depositTransactionId: nullableText,
  running: z.boolean().meta({ description: 'True until the ramp reached its end' }),
  startTime: isoDateTime,
  closeTime: isoDateTime.nullable(),
});
export type RampSummary = z.infer<typeof rampSummarySchema>;

// ---------------------------------------------------------------------------------------------- end users

export const depositWalletSchema = z.strictObject({
  walletId: text,
  externalUserId: text,
  addresses: z.array(addressOnNetwork),
  createdAt: isoDateTime,
});

export const endUserViewSchema = z.strictObject({
  endUserId: text,
  walletStatus: z.enum(['none', 'creating', 'ready', 'failed']),
  wallet: depositWalletSchema.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type EndUserView = z.infer<typeof endUserViewSchema>;

// ---------------------------------------------------------------------------------------------- outcome events

export const outcomeEventDataSchema = z.strictObject({
  workflowId: text,
  endUserId: nullableText.meta({ description: "Null while an off-ramp's deposit wallet has no end user" }),
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
    .strictObject({ reason: exceptionReasonSchema, message: text })
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
});

/** The body of one outcome event of the given type (the OpenAPI `webhooks` section has one per type). */
export const outcomeEventBody = (type: (typeof OUTCOME_EVENT_TYPES)[number]) =>
  z.strictObject({
    type: z.literal(type),
    timestamp: isoDateTime.meta({ description: 'When the transition happened (not when it was sent)' }),
    data: outcomeEventDataSchema,
  });

export const outcomeEventSchema = z.strictObject({
  type: z.enum(OUTCOME_EVENT_TYPES),
  timestamp: isoDateTime,
  data: outcomeEventDataSchema,
});

export const testPingEventSchema = z.strictObject({
  type: z.literal(TEST_EVENT_TYPE),
  timestamp: isoDateTime,
  data: z.strictObject({ message: text }),
});

export const eventViewSchema = z.strictObject({
  webhookId: text.meta({ description: 'The webhook-id header of every delivery of this event' }),
  event: z.union([outcomeEventSchema, testPingEventSchema]),
  delivery: z.enum(OUTCOME_DELIVERY_STATUSES),
  attempts: z.number().meta({ description: 'Delivery attempts so far, redeliveries included' }),
  waitingFor: z.number().meta({
    description:
      'Earlier events of the same process not yet delivered: this one is sent after them (0: it is next or done)',
  }),
  nextAttemptAt: isoDateTime.nullable().meta({
    description:
      'While pending and next in its queue (waitingFor 0): when it is tried next; null while earlier events wait',
  }),
  lastAttemptAt: isoDateTime.nullable(),
  deliveredAt: isoDateTime
    .nullable()
    .meta({ description: 'When the delivery ended: confirmed, no endpoint, or given up' }),
  error: nullableText.meta({ description: 'The last refusal while pending or failed (never a URL)' }),
  giveUpAt: isoDateTime.nullable().meta({ description: 'While pending: when this delivery gives up' }),
});
export type EventView = z.infer<typeof eventViewSchema>;

// ---------------------------------------------------------------------------------------------- the statement

export const RECONCILED = ['unchecked', 'matches', 'differs', 'unreadable', 'nothing-to-read'] as const;
export type Reconciled = (typeof RECONCILED)[number];

export const statementRowSchema = z.strictObject({
  workflowId: text,
  direction: z.enum(RAMP_DIRECTIONS),
  status: text.meta({
    description: 'How the ramp ended (settled, failed, expired, timed-out, exception, unclaimed)',
  }),
  endUserId: nullableText,
  orderReference: nullableText,
  depositTransactionId: nullableText,
  orderId: nullableText,
  webhookIds: z.array(text).meta({ description: "The webhook-ids of the ramp's outcome events, in order" }),
  assetFrom: nullableText.meta({ description: 'What the end user sent: MXN on-ramp, the token off-ramp' }),
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
  exceptions: z.array(exceptionReasonSchema),
  startedAt: isoDateTime,
  endedAt: isoDateTime.nullable(),
  claimedAt: isoDateTime.nullable(),
  closedAt: isoDateTime.meta({ description: 'When the ramp was booked: the period is of this instant' }),
  reconciled: z.enum(RECONCILED).meta({
    description:
      "Reconciliation's last read of the operator against every status and amount booked (unchecked until it ran)",
  }),
  reconciliation: text.meta({
    description: 'What the operator says where it differs, or why it was not read',
  }),
});
export type StatementRow = z.infer<typeof statementRowSchema>;
/** A booked row as the ramp wrote it, before reconciliation read the operator. */
export type BookedRow = Omit<StatementRow, 'reconciled' | 'reconciliation'>;
