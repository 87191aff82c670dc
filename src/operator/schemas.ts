/**
 * The operator's contract: every resource, envelope and event of the operator's API specification as zod schemas
 * (docs/operator.md describes the interface and our assumptions).
 * Both the operator client and the sandbox use these, so the two halves cannot drift apart.
 *
 * Responses are parsed tolerantly (`looseObject`: unknown fields pass through) while the fields we rely on
 * are validated strictly. Fields marked ASSUMED are not in the spec; see src/domain/vocabulary.ts and
 * src/domain/operator-profile.ts. Transactions and orders are here in our words; the operator's words (the profile's)
 * are parsed and translated by ./profile-schemas.ts.
 */
import { z } from 'zod';
import { DECIMAL_PATTERN } from '../domain/decimal';
import {
  KNOWN_EVENT_TYPES,
  ORDER_STATUSES,
  RAMP_DIRECTIONS,
  RESOURCE_KINDS,
  TRANSACTION_STATUSES,
} from '../domain/vocabulary';

/** Amounts are decimal strings end to end (never JS numbers): digits, optional fraction, no sign or exponent. */
export { DECIMAL_PATTERN };
export const decimalString = z
  .string()
  .regex(DECIMAL_PATTERN, 'must be a non-negative decimal string such as "100.50"');
export const positiveDecimalString = z
  .string()
  .regex(DECIMAL_PATTERN, 'must be a decimal string greater than zero such as "100.50"')
  .refine((value) => /[1-9]/.test(value), 'must be greater than zero');

/** ISO 8601 UTC timestamp, with or without fractional seconds (sessions carry nanoseconds). */
export const isoTimestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/, 'must be an ISO 8601 UTC timestamp');

// ---------------------------------------------------------------------------------------------- envelopes

/** Pagination of GetWalletAddresses. */
export const walletAddressesPagination = z.looseObject({
  totalRecord: z.number().int(),
  totalPage: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  pageNumber: z.number().int(),
});
export type WalletAddressesPagination = z.infer<typeof walletAddressesPagination>;

/** Pagination of the recipient lists. */
export const recipientPagination = z.looseObject({
  currentPage: z.number().int(),
  totalPage: z.number().int(),
  totalRecord: z.number().int(),
  limit: z.number().int(),
});
export type RecipientPagination = z.infer<typeof recipientPagination>;

export const listEnvelope = <T extends z.ZodType, P extends z.ZodType>(item: T, pagination: P) =>
  z.looseObject({ data: z.array(item), pagination });

// ---------------------------------------------------------------------------------------------- login

export const loginSession = z.looseObject({
  id: z.uuid(),
  isCompleted: z.boolean(),
  identityType: z.string(),
  class: z.string(),
  classId: z.string(),
  activeStep: z.string(),
  expiresAt: isoTimestamp,
});
export type LoginSession = z.infer<typeof loginSession>;

/** The Authentication call's three values (the profile's `login.fields` name them on the wire). */
export interface AuthenticationRequest {
  sessionId: string;
  email: string;
  passcode: string;
}

// ---------------------------------------------------------------------------------------------- wallets

export const NETWORK_NAME_PATTERN = /^networks\/[a-z0-9-]+$/;
export const networkName = z.string().regex(NETWORK_NAME_PATTERN, 'must look like networks/<network-slug>');

export const network = z.looseObject({
  name: networkName,
  displayName: z.string(),
  isCustom: z.boolean(),
  isTestnet: z.boolean(),
});
export type Network = z.infer<typeof network>;

/**
 * ASSUMED balance entry (the spec shows balances only as arrays): the asset code and a decimal amount.
 * Native gas balances use the chain's native asset (ETH, TRX).
 */
export const balance = z.looseObject({
  asset: z.string().min(1),
  amount: decimalString,
});
export type Balance = z.infer<typeof balance>;

export const walletNetworkEntry = z.looseObject({ id: z.string(), network });
export type WalletNetworkEntry = z.infer<typeof walletNetworkEntry>;

export const wallet = z.looseObject({
  id: z.string().min(1),
  externalUserId: z.string(),
  networks: z.array(walletNetworkEntry),
  balances: z.array(balance),
});
export type Wallet = z.infer<typeof wallet>;

export const createWalletRequest = z.object({
  networks: z.array(networkName).min(1),
  externalUserId: z.string().min(1).max(200),
});
export type CreateWalletRequest = z.infer<typeof createWalletRequest>;

export const walletAddress = z.looseObject({
  id: z.string().min(1),
  address: z.string().min(1),
  network,
  balances: z.array(balance),
});
export type WalletAddress = z.infer<typeof walletAddress>;

export const walletAddressesPage = listEnvelope(walletAddress, walletAddressesPagination);

// ---------------------------------------------------------------------------------------------- quotes

export const currencyCode = z
  .string()
  .regex(/^[A-Z][A-Z0-9]{1,9}$/, 'must be an upper-case currency or chain code');

export const onRampQuoteRequest = z.strictObject({
  coinFrom: currencyCode,
  chainTo: currencyCode,
  coinTo: currencyCode,
  amountFrom: positiveDecimalString,
});
export const offRampQuoteRequest = z.strictObject({
  coinFrom: currencyCode,
  chainFrom: currencyCode,
  coinTo: currencyCode,
  amountFrom: positiveDecimalString,
});
export const quoteRequest = z.union([onRampQuoteRequest, offRampQuoteRequest]);
export type OnRampQuoteRequest = z.infer<typeof onRampQuoteRequest>;
export type OffRampQuoteRequest = z.infer<typeof offRampQuoteRequest>;
export type QuoteRequest = z.infer<typeof quoteRequest>;

/** The spec does not show target_amount's type; we require (and the sandbox sends) a decimal string. */
export const quote = z.looseObject({
  target_amount: decimalString,
  expires_at: isoTimestamp,
});
export type Quote = z.infer<typeof quote>;

// ---------------------------------------------------------------------------------------------- orders and transactions

export { ORDER_STATUSES };
export const orderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatus>;

/** The spec's transaction statuses plus `completed`, which the off-ramp's final order transaction carries. */
export { TRANSACTION_STATUSES };
export const transactionStatus = z.enum(TRANSACTION_STATUSES);
export type TransactionStatus = z.infer<typeof transactionStatus>;

export const orderDirection = z.enum(RAMP_DIRECTIONS);
export type OrderDirection = z.infer<typeof orderDirection>;

/**
 * Order. Spec: id, orderReference, status. ASSUMED beyond the spec: direction, the two sides of the
 * conversion as decimal strings, the related deposit transaction, timestamps.
 */
export const order = z.looseObject({
  id: z.string().min(1),
  orderReference: z.string().min(1),
  status: orderStatus,
  direction: orderDirection.optional(),
  coinFrom: z.string().optional(),
  coinTo: z.string().optional(),
  chainFrom: z.string().optional(),
  chainTo: z.string().optional(),
  amountFrom: decimalString.optional(),
  amountTo: decimalString.optional(),
  transactionId: z.string().nullable().optional(),
  createdAt: isoTimestamp.optional(),
  updatedAt: isoTimestamp.optional(),
});
export type Order = z.infer<typeof order>;

/**
 * ASSUMED gas fee of a transaction (the spec shows none): the native asset (ETH, TRX) the gas wallet paid for it; for
 * a gas top-up, what it sent to the deposit wallet. Absent or null when the operator reports none.
 */
export const transactionFee = z.looseObject({ asset: z.string().min(1), amount: decimalString });
export type TransactionFee = z.infer<typeof transactionFee>;

/**
 * Transaction. Spec: id, status, type, subtype. ASSUMED beyond the spec: the wallet it belongs to, network,
 * asset, decimal amount, from/to addresses, the transaction or order it relates to, its gas fee, timestamps.
 * `type` stays a free string (tolerant) because the spec's list of types is not said to be complete.
 */
export const transaction = z.looseObject({
  id: z.string().min(1),
  status: transactionStatus,
  type: z.string().min(1),
  subtype: z.string().nullable().optional(),
  walletId: z.string().min(1),
  network: networkName.optional(),
  asset: z.string().optional(),
  amount: decimalString.optional(),
  fromAddress: z.string().nullable().optional(),
  toAddress: z.string().nullable().optional(),
  relatedTransactionId: z.string().nullable().optional(),
  orderId: z.string().nullable().optional(),
  fee: transactionFee.nullable().optional(),
  createdAt: isoTimestamp.optional(),
  updatedAt: isoTimestamp.optional(),
});
export type Transaction = z.infer<typeof transaction>;

// ---------------------------------------------------------------------------------------------- webhook recipients

export const RECIPIENT_KINDS = RESOURCE_KINDS;
export type RecipientKind = (typeof RECIPIENT_KINDS)[number];

export const httpsUrl = z
  .string()
  .refine((value) => value.startsWith('https://'), 'must begin with https://')
  .refine((value) => URL.canParse(value), 'must be a valid URL');

export const createRecipientsRequest = z.strictObject({ urls: z.array(httpsUrl).min(1).max(10) });
export type CreateRecipientsRequest = z.infer<typeof createRecipientsRequest>;

export const webhookRecipient = z.looseObject({
  id: z.string().min(1),
  url: z.string(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
export type WebhookRecipient = z.infer<typeof webhookRecipient>;

export const recipientPage = listEnvelope(webhookRecipient, recipientPagination);

// ---------------------------------------------------------------------------------------------- events

export const transactionCreatedEvent = z.looseObject({
  eventType: z.literal('transaction-created'),
  payload: z.looseObject({ id: z.string().min(1) }),
});
export const transactionUpdatedEvent = z.looseObject({
  eventType: z.literal('transaction-updated'),
  // Tolerant: a status we do not know is still a trigger to re-read the transaction.
  payload: z.looseObject({ id: z.string().min(1), newStatus: z.string().min(1) }),
});
export const orderCreatedEvent = z.looseObject({
  eventType: z.literal('order-created'),
  payload: z.looseObject({ id: z.string().min(1), orderReference: z.string().min(1) }),
});
export const orderUpdatedEvent = z.looseObject({
  eventType: z.literal('order-updated'),
  payload: z.looseObject({
    id: z.string().min(1),
    newStatus: z.string().min(1),
    orderReference: z.string().min(1),
  }),
});

export { KNOWN_EVENT_TYPES };
export type KnownEventType = (typeof KNOWN_EVENT_TYPES)[number];

export const knownEvent = z.discriminatedUnion('eventType', [
  transactionCreatedEvent,
  transactionUpdatedEvent,
  orderCreatedEvent,
  orderUpdatedEvent,
]);
export type KnownEvent = z.infer<typeof knownEvent>;

/** An event kind the spec does not list: accepted and kept visible, never silently dropped. */
export const unknownEvent = z.looseObject({
  eventType: z.string().min(1),
  payload: z.looseObject({ id: z.string().min(1).optional() }),
});
export type UnknownEvent = z.infer<typeof unknownEvent>;

/** The delivery body: `{ data: { eventType, payload } }`. */
export const webhookDelivery = z.looseObject({ data: unknownEvent });
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

export { ORDER_EVENT_TYPES, TRANSACTION_EVENT_TYPES } from '../domain/vocabulary';
