/**
 * The parts of the operator's contract whose names and words the operator profile decides
 * (src/domain/operator-profile.ts): the error body, the Authentication body, transactions and orders, and so every
 * route's answer. Transactions and orders are parsed in the operator's words and handed on in ours
 * (src/domain/vocabulary.ts), so nothing past the operator client ever sees the profile.
 */
import { z } from 'zod';
import {
  type OperatorProfile,
  type RouteName,
  type TransactionKindName,
  valueAtPath,
} from '../domain/operator-profile';
import { ORDER_STATUSES, TRANSACTION_KINDS, TRANSACTION_STATUSES } from '../domain/vocabulary';
import {
  type AuthenticationRequest,
  order as ourOrder,
  type Order,
  quote,
  recipientPage,
  transaction as ourTransaction,
  type Transaction,
  wallet,
  walletAddressesPage,
  webhookRecipient,
} from './schemas';

export interface OperatorErrorBody {
  code: string;
  message: string;
}

export interface ProfileSchemas {
  /** An error answer's body: the code and message at the profile's paths. */
  errorBody: z.ZodType<OperatorErrorBody>;
  /** The Authentication body as the operator takes it, read back into our three values (the sandbox's side). */
  authenticationRequest: z.ZodType<AuthenticationRequest>;
  transaction: z.ZodType<Transaction>;
  order: z.ZodType<Order>;
  /** Every route's 2xx answer. */
  responses: Record<RouteName, z.ZodType>;
}

const cache = new WeakMap<OperatorProfile, ProfileSchemas>();

/** The schemas of one profile (built once per profile object). */
export function profileSchemas(profile: OperatorProfile): ProfileSchemas {
  let schemas = cache.get(profile);
  if (!schemas) {
    schemas = buildSchemas(profile);
    cache.set(profile, schemas);
  }
  return schemas;
}

/** The Authentication body under the profile's field names (`login.fields`). */
export function authenticationBody(
  fields: OperatorProfile['login']['fields'],
  values: AuthenticationRequest,
): Record<string, string> {
  return {
    [fields.sessionId]: values.sessionId,
    [fields.email]: values.email,
    [fields.passcode]: values.passcode,
  };
}

/**
 * The kind of a transaction from its type and subtype in the profile's words: the kind with exactly that type and
 * subtype, else the one of that type whose subtype the profile leaves open (null).
 */
export function transactionKindOf(
  profile: OperatorProfile,
  type: string,
  subtype: string | null | undefined,
): TransactionKindName | undefined {
  const kinds = Object.entries(profile.vocabulary.transactionKinds) as Array<
    [TransactionKindName, { type: string; subtype: string | null }]
  >;
  return (
    kinds.find(
      ([, words]) => words.type === type && words.subtype !== null && words.subtype === subtype,
    )?.[0] ?? kinds.find(([, words]) => words.type === type && words.subtype === null)?.[0]
  );
}

/** Our word for the operator's, by a profile map of ours -> theirs; a word the map lacks stays as it is. */
export function ourWord<K extends string>(map: Record<K, string>, theirs: string): K | string {
  return (Object.keys(map) as K[]).find((ours) => map[ours] === theirs) ?? theirs;
}

const nonEmptyTuple = (values: readonly string[]) => values as [string, ...string[]];

function buildSchemas(profile: OperatorProfile): ProfileSchemas {
  const transaction = transactionSchema(profile);
  const order = orderSchema(profile);
  return {
    errorBody: errorBodySchema(profile),
    authenticationRequest: authenticationRequestSchema(profile),
    transaction,
    order,
    responses: responseSchemas(transaction, order),
  };
}

/** An error answer's code and message, where the profile says they are. */
function errorBodySchema(profile: OperatorProfile) {
  return z.unknown().transform((body, ctx): OperatorErrorBody => {
    const found: Partial<OperatorErrorBody> = {};
    for (const part of ['code', 'message'] as const) {
      const path = profile.errors.body[part];
      const value = valueAtPath(body, path);
      if (typeof value === 'string') found[part] = value;
      else
        ctx.addIssue({
          code: 'custom',
          path: path.split('.'),
          message: `the error ${part} must be a string here (profile key errors.body.${part})`,
        });
    }
    return found as OperatorErrorBody;
  });
}

/** The login's Authenticate request under the profile's field names (the sandbox reads it). */
function authenticationRequestSchema(profile: OperatorProfile) {
  const { fields } = profile.login;
  return z
    .object({
      [fields.sessionId]: z.string().min(1),
      [fields.email]: z.string().min(1),
      [fields.passcode]: z.string().min(1),
    })
    .transform((raw): AuthenticationRequest => ({
      sessionId: String(raw[fields.sessionId]),
      email: String(raw[fields.email]),
      passcode: String(raw[fields.passcode]),
    }));
}

/** A transaction in the operator's words and links, read into ours. */
function transactionSchema(profile: OperatorProfile) {
  const { vocabulary } = profile;
  const transactionLinks = profile.links.transaction;
  const {
    walletId,
    relatedTransactionId,
    orderId,
    status: _ourTxStatus,
    ...transactionFields
  } = ourTransaction.shape;
  return z
    .looseObject({
      ...transactionFields,
      status: z.enum(nonEmptyTuple(TRANSACTION_STATUSES.map((ours) => vocabulary.transactionStatuses[ours]))),
      [transactionLinks.walletId]: walletId,
      [transactionLinks.relatedTransactionId]: relatedTransactionId,
      [transactionLinks.orderId]: orderId,
    })
    .transform((raw): Transaction => {
      const {
        [transactionLinks.walletId]: wallet,
        [transactionLinks.relatedTransactionId]: related,
        [transactionLinks.orderId]: linkedOrder,
        ...rest
      } = raw as Record<string, unknown>;
      const type = String(raw.type);
      const subtype = raw.subtype;
      const kind = transactionKindOf(profile, type, subtype);
      return {
        ...rest,
        id: String(raw.id),
        status: ourWord(vocabulary.transactionStatuses, String(raw.status)) as Transaction['status'],
        type: kind ? TRANSACTION_KINDS[kind].type : type,
        subtype: kind ? TRANSACTION_KINDS[kind].subtype : subtype,
        walletId: String(wallet),
        relatedTransactionId: related as string | null | undefined,
        orderId: linkedOrder as string | null | undefined,
      };
    });
}

/** An order in the operator's words and links, read into ours. */
function orderSchema(profile: OperatorProfile) {
  const { vocabulary } = profile;
  const orderLinks = profile.links.order;
  const { transactionId, status: _ourOrderStatus, direction: _ourDirection, ...orderFields } = ourOrder.shape;
  return z
    .looseObject({
      ...orderFields,
      status: z.enum(nonEmptyTuple(ORDER_STATUSES.map((ours) => vocabulary.orderStatuses[ours]))),
      direction: z.enum(nonEmptyTuple(Object.values(vocabulary.orderDirections))).optional(),
      [orderLinks.transactionId]: transactionId,
    })
    .transform((raw): Order => {
      const { [orderLinks.transactionId]: linkedTransaction, ...rest } = raw as Record<string, unknown>;
      const direction = raw.direction;
      return {
        ...rest,
        id: String(raw.id),
        orderReference: String(raw.orderReference),
        status: ourWord(vocabulary.orderStatuses, String(raw.status)) as Order['status'],
        ...(direction === undefined
          ? {}
          : { direction: ourWord(vocabulary.orderDirections, direction) as Order['direction'] }),
        transactionId: linkedTransaction as string | null | undefined,
      };
    });
}

/** The answer of each operator route, its transactions and orders read by the profile's schemas. */
function responseSchemas(
  transaction: ProfileSchemas['transaction'],
  order: ProfileSchemas['order'],
): Record<RouteName, z.ZodType> {
  const data = <T extends z.ZodType>(schema: T) => z.looseObject({ data: schema });
  /** The create answer is not shown in the spec: we assume an array, and accept a single recipient too. */
  const createdRecipients = data(
    z.union([z.array(webhookRecipient), webhookRecipient.transform((one) => [one])]),
  );
  return {
    /** Only `id` is relied on; the other login-session fields are informational. */
    startSession: data(z.looseObject({ id: z.string().min(1) })),
    /** expiresAt is optional on purpose: without it the session falls back to the configured token lifetime. */
    authenticate: data(
      z.looseObject({
        session: z.looseObject({
          token: z.string().min(1),
          csrfToken: z.string().min(1),
          expiresAt: z.string().optional(),
        }),
      }),
    ),
    /** The spec shows no payload for this call. */
    currentVaultNetworks: data(z.unknown()),
    createWallet: data(wallet),
    getWalletAddresses: walletAddressesPage,
    createQuote: data(quote),
    listTransactionRecipients: recipientPage,
    getTransactionRecipient: data(webhookRecipient),
    createTransactionRecipients: createdRecipients,
    deleteTransactionRecipient: z.unknown(),
    listOrderRecipients: recipientPage,
    getOrderRecipient: data(webhookRecipient),
    createOrderRecipients: createdRecipients,
    deleteOrderRecipient: z.unknown(),
    getTransaction: data(transaction),
    getOrder: data(order),
    listWalletTransactions: data(z.array(transaction)),
  };
}
