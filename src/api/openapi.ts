/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the zod schemas the routes validate with and answer
 * (src/api/schemas.ts): served at GET /openapi.json and committed as docs/openapi.json (`npm run openapi`).
 */
import { z } from 'zod';
import { OUTCOME_EVENT_TYPES, type OutcomeEventType } from '../domain/outcome-events';
import { IDENTIFIER_ALPHABET } from '../validation/identifiers';
import { CSV_HEADER } from '../client/statement-rows';
import {
  apiRegistry,
  endUserParams,
  offRampParams,
  onRampParams,
  rampListQuerySchema,
  statementQuerySchema,
  webhookIdParams,
} from './schemas';

type Json = Record<string, unknown>;

const TARGET = 'draft-2020-12' as const;
const ref = (id: string): Json => ({ $ref: `#/components/schemas/${id}` });

/** One operation: its answer schemas by status (`data` wraps a component unless `bare`), its inputs and errors. */
interface Operation {
  method: 'get' | 'post';
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: string;
  /** Status -> [component, description]. */
  answers: Record<number, [string, string]>;
  /** Answers are the component itself, not `{ data }`. */
  bare?: boolean;
  /** The 200 answer can also be CSV (`format=csv`): its description. */
  csv?: string;
  /** Error statuses beyond 400, 401, 500, 502 and 503 (and 413, 415 for a POST). */
  errors: number[];
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input: `issues` lists every problem (nothing was called)',
  401: 'Missing or wrong API key',
  404: 'Not found',
  413: 'The request body is too large',
  415: 'Unsupported request content encoding or charset',
  409: 'Conflict with what the process already holds (code: conflict, claim_window_closed, quote_expired or process_ended)',
  422: 'The operator rejected the request',
  500: 'Internal error',
  502: 'Temporal or the operator failed; the request can be retried',
  503: 'Temporal did not answer in time; retry after Retry-After seconds',
};

export const OPERATIONS: readonly Operation[] = [
  {
    method: 'post',
    path: '/v1/end-users/{id}/deposit-wallet',
    operationId: 'ensureDepositWallet',
    summary: "Creates (once) and answers the end user's deposit wallet",
    tag: 'End users',
    params: endUserParams,
    answers: { 200: ['DepositWallet', 'The deposit wallet and its addresses'] },
    errors: [400, 409, 422],
  },
  {
    method: 'post',
    path: '/v1/end-users/{id}/deposit-quote',
    operationId: 'showDepositQuote',
    summary:
      "Asks for an off-ramp quote and records it as the one shown to the end user for their next deposit: that deposit's off-ramp compares its execution with it",
    tag: 'End users',
    params: endUserParams,
    body: 'OffRampQuoteRequest',
    answers: { 200: ['DepositQuote', 'The quote, as recorded for the next deposit'] },
    errors: [400, 404, 409, 422],
  },
  {
    method: 'get',
    path: '/v1/end-users/{id}',
    operationId: 'getEndUser',
    summary: "The end user's state and newest ramps of both directions",
    tag: 'End users',
    params: endUserParams,
    answers: { 200: ['EndUser', 'The end user'] },
    errors: [400, 404],
  },
  {
    method: 'post',
    path: '/v1/quotes',
    operationId: 'quote',
    summary: 'A quote from the operator, never handed out expired',
    tag: 'Quotes',
    body: 'QuoteRequest',
    answers: { 200: ['Quote', 'The quote'] },
    errors: [400, 409, 422],
  },
  {
    method: 'post',
    path: '/v1/on-ramps',
    operationId: 'startOnRamp',
    summary: 'Starts the on-ramp of an order reference for an end user (idempotent by orderReference)',
    tag: 'Ramps',
    body: 'StartOnRampRequest',
    answers: {
      201: ['OnRampState', 'Started (or attributed to this end user before it ended) by this call'],
      200: [
        'OnRampState',
        "It already was this end user's on-ramp, or this call claimed one that had ended without an end user (on_ramp.claimed follows): the process as it is",
      ],
    },
    errors: [400, 409, 422],
  },
  {
    method: 'get',
    path: '/v1/on-ramps/{orderReference}',
    operationId: 'getOnRamp',
    summary: 'The full state of an on-ramp',
    tag: 'Ramps',
    params: onRampParams,
    answers: { 200: ['OnRampState', 'The on-ramp'] },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/v1/off-ramps/{depositTransactionId}',
    operationId: 'getOffRamp',
    summary: 'The full state of an off-ramp, by the deposit transaction that started it',
    tag: 'Ramps',
    params: offRampParams,
    answers: { 200: ['OffRampState', 'The off-ramp'] },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/v1/ramps',
    operationId: 'listRamps',
    summary:
      'On-ramps and off-ramps, newest first (running ones, then by when they ended), one page at a time; following nextPageToken lists each process once',
    tag: 'Ramps',
    query: rampListQuerySchema,
    answers: { 200: ['RampPage', 'One page; pagination.nextPageToken is null on the last'] },
    bare: true,
    errors: [400],
  },
  {
    method: 'get',
    path: '/v1/statement',
    operationId: 'statement',
    summary:
      'The settlement statement of a period: a row per ramp whose process closed in it, reconciled against a fresh read of the operator, then totals per status and asset (streamed)',
    tag: 'Ramps',
    query: statementQuerySchema,
    answers: { 200: ['Statement', 'The statement (format=json); format=csv answers text/csv'] },
    bare: true,
    csv: `RFC 4180 lines: the header ${CSV_HEADER.join(',')}; one line per ramp (record=ramp), then one per total (record=total: status, asset, ramps, received, delivered, gas)`,
    errors: [400],
  },
  {
    method: 'post',
    path: '/v1/events/{webhookId}/redeliver',
    operationId: 'redeliverEvent',
    summary: 'Sends one outcome event again, with the same webhook-id',
    tag: 'Outcome events',
    params: webhookIdParams,
    answers: { 202: ['EventRedelivery', 'The redelivery is under way'] },
    errors: [400, 404],
  },
  {
    method: 'post',
    path: '/v1/account/setup',
    operationId: 'setupAccount',
    summary: 'Runs (or re-checks) the account setup',
    tag: 'Account',
    answers: { 200: ['AccountSetupResult', 'The setup: wallets, recipients, next steps'] },
    errors: [422],
  },
  {
    method: 'get',
    path: '/v1/account',
    operationId: 'getAccount',
    summary: 'The recorded account setup',
    tag: 'Account',
    answers: { 200: ['AccountSetupState', 'The account setup'] },
    errors: [404],
  },
  {
    method: 'get',
    path: '/v1/alerts',
    operationId: 'listAlerts',
    summary: 'Open incidents and the recently resolved ones',
    tag: 'Alerts',
    answers: { 200: ['Alerts', 'The incidents'] },
    errors: [],
  },
];

const EVENT_SUMMARY: Record<OutcomeEventType, string> = {
  'deposit_wallet.created': "An end user's deposit wallet exists",
  'off_ramp.created': 'A deposit started an off-ramp',
  'off_ramp.stuck': 'An off-ramp needs attention (its deposit is stranded)',
  'off_ramp.settled': 'An off-ramp settled: credit the MXN',
  'off_ramp.failed': 'An off-ramp failed',
  'off_ramp.timed_out': 'An off-ramp gave up waiting',
  'on_ramp.created': 'An on-ramp started',
  'on_ramp.settled': 'An on-ramp settled: the stablecoin was delivered',
  'on_ramp.expired': "An on-ramp's order expired",
  'on_ramp.failed': 'An on-ramp failed',
  'on_ramp.timed_out': 'An on-ramp gave up waiting',
  'off_ramp.exception':
    'An off-ramp met an exception (reason: unsupported_market, below_minimum, above_maximum, off_quote, unattributed)',
  'on_ramp.exception':
    'An on-ramp met an exception (reason: unsupported_market, below_minimum, above_maximum, off_quote)',
  'on_ramp.claimed':
    'An on-ramp that ended without an end user was claimed: book it for data.endUserId now, with its data',
  'on_ramp.unclaimed': 'An on-ramp ended without an end user and nobody claimed it within its claim window',
};

function parameterSchema(schema: z.ZodType): Json {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, {
    target: TARGET,
    io: 'input',
    unrepresentable: 'any',
  }) as Json;
  return rest;
}

function parameters(where: 'path' | 'query', schema: z.ZodObject | undefined): Json[] {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => {
    const optional = (field as z.ZodType).safeParse(undefined).success;
    const description =
      where === 'path' && name !== 'webhookId' ? `${IDENTIFIER_ALPHABET}` : (field as z.ZodType).description;
    return {
      name,
      in: where,
      required: where === 'path' || !optional,
      ...(description ? { description } : {}),
      schema: parameterSchema(field as z.ZodType),
    };
  });
}

const json = (schema: Json): Json => ({ 'application/json': { schema } });
const envelope = (id: string): Json => ({
  type: 'object',
  properties: { data: ref(id) },
  required: ['data'],
  additionalProperties: false,
});

function operationObject(operation: Operation): Json {
  const responses: Record<string, Json> = {};
  for (const [status, [id, description]] of Object.entries(operation.answers))
    responses[status] = {
      description,
      content: {
        ...json(operation.bare ? ref(id) : envelope(id)),
        ...(operation.csv && status === '200'
          ? { 'text/csv': { schema: { type: 'string', description: operation.csv } } }
          : {}),
      },
    };
  // Any request may be malformed (400) or unauthorised; any body too large or in an unsupported encoding.
  const common = [400, 401, 500, 502, 503, ...(operation.method === 'post' ? [413, 415] : [])];
  for (const status of [...new Set([...operation.errors, ...common])].sort((a, b) => a - b))
    responses[String(status)] = {
      description: ERROR_TEXT[status]!,
      ...(status === 503
        ? { headers: { 'Retry-After': { description: 'Seconds', schema: { type: 'integer' } } } }
        : {}),
      content: json(ref('Error')),
    };
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    tags: [operation.tag],
    ...(operation.params || operation.query
      ? { parameters: [...parameters('path', operation.params), ...parameters('query', operation.query)] }
      : {}),
    ...(operation.body ? { requestBody: { required: true, content: json(ref(operation.body)) } } : {}),
    responses,
  };
}

const WEBHOOK_HEADERS: Json[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event ID: the same on every retry and redelivery of it (deduplicate on it)',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Seconds since the epoch when this attempt was sent (reject ones too far from now)',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<body>` with each secret (`whsec_<base64>`)',
    schema: { type: 'string' },
  },
];

function webhookObject(type: OutcomeEventType): Json {
  return {
    post: {
      operationId: `outcome.${type}`,
      summary: EVENT_SUMMARY[type],
      tags: ['Outcome events'],
      description:
        'Sent to every CLIENT_WEBHOOK_URLS endpoint following the Standard Webhooks specification; retried with growing delays until a 2xx or CLIENT_WEBHOOK_RETRY_FOR has passed. Events of one process arrive in the order of its transitions.',
      parameters: WEBHOOK_HEADERS,
      requestBody: { required: true, content: json(ref(`OutcomeEvent_${type}`)) },
      responses: {
        '2XX': { description: 'Any 2xx confirms the delivery; anything else (or a timeout) is retried' },
      },
    },
  };
}

function componentSchemas(): Record<string, Json> {
  const { schemas } = z.toJSONSchema(apiRegistry, {
    target: TARGET,
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  });
  const out: Record<string, Json> = {};
  for (const id of Object.keys(schemas).sort()) {
    const { $schema: _schema, $id: _id, ...rest } = schemas[id] as Json;
    out[id] = rest;
  }
  return out;
}

let cached: Json | undefined;

/** The document (built once per process: the schemas do not change at run time). */
export function openApiDocument(): Json {
  cached ??= buildDocument();
  return cached;
}

function buildDocument(): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const operation of OPERATIONS) {
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method] = operationObject(operation);
  }
  paths['/openapi.json'] = {
    get: {
      operationId: 'openApiDocument',
      summary: 'This document (no API key needed)',
      tags: ['Meta'],
      security: [],
      responses: { '200': { description: 'The OpenAPI 3.1 document', content: json({ type: 'object' }) } },
    },
  };
  return {
    openapi: '3.1.1',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'ramp-orchestrator HTTP API',
      version: '1.0.0',
      description:
        'MXN <-> stablecoin ramps over HTTP: deposit wallets, quotes, on-ramps, off-ramps, alerts and the account setup. Every answer is JSON: `{ data }` on success, `{ error: { code, message, issues? } }` otherwise. The outcome webhooks sent to the client backend are under `webhooks`.',
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }],
    tags: ['End users', 'Quotes', 'Ramps', 'Outcome events', 'Account', 'Alerts', 'Meta'].map((name) => ({
      name,
    })),
    paths,
    webhooks: Object.fromEntries(OUTCOME_EVENT_TYPES.map((type) => [type, webhookObject(type)])),
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
      },
      schemas: componentSchemas(),
    },
  };
}

/** The committed file's text (docs/openapi.json). */
export function openApiText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}
