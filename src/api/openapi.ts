/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the zod schemas the routes validate with and answer
 * (src/api/schemas.ts): served at GET /openapi.json and committed as docs/openapi.json (`npm run openapi`).
 */
import { z } from 'zod';
import { type OutcomeEventType, TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from '../domain/outcome-events';
import { IDENTIFIER_ALPHABET } from '../validation/identifiers';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, REPLAYED_HEADER } from './idempotency';
import { CSV_HEADER } from '../client/statement-rows';
import {
  apiRegistry,
  endUserParams,
  eventListQuerySchema,
  incidentListQuerySchema,
  newEndUserParams,
  redeliveryJobParams,
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
  /** OpenAPI links of its answers: where what it answered can be read next (by name). */
  links?: Record<string, Link>;
}

interface Link {
  operationId: string;
  /** Parameter name -> runtime expression. */
  parameters: Record<string, string>;
  description: string;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input: `issues` lists every problem (nothing was called)',
  401: 'Missing or wrong API key',
  404: 'Not found (for a list: no page of it has this pageToken)',
  413: 'The request body is too large',
  415: 'Unsupported request content encoding or charset',
  409: 'Conflict with what the process already holds (code: conflict, claim_window_closed, quote_expired or process_ended), or a request with the same Idempotency-Key is still running (idempotency_key_in_use)',
  422: 'The operator rejected the request (operator_rejected), or the Idempotency-Key was used with another request (idempotency_key_reused)',
  500: 'Internal error',
  502: 'Temporal or the operator failed; the request can be retried',
  503: 'Temporal or the database did not answer in time; retry after Retry-After seconds',
};

export const OPERATIONS: readonly Operation[] = [
  {
    method: 'post',
    path: '/v1/end-users/{id}/deposit-wallet',
    operationId: 'ensureDepositWallet',
    summary: "Creates (once) and answers the end user's deposit wallet",
    tag: 'End users',
    params: newEndUserParams,
    answers: { 200: ['DepositWallet', 'The deposit wallet and its addresses'] },
    errors: [400, 409, 422],
    links: {
      endUser: {
        operationId: 'getEndUser',
        parameters: { id: '$request.path.id' },
        description: 'The end user whose wallet this is',
      },
    },
  },
  {
    method: 'post',
    path: '/v1/end-users/{id}/deposit-quote',
    operationId: 'showDepositQuote',
    summary:
      "Asks for an off-ramp quote and records it as the one shown to the end user for their next deposit: that deposit's off-ramp compares its execution with it. The body is the quote request itself, as POST /v1/quotes takes it (POST /v1/on-ramps wraps it in quoteRequest, beside its other fields)",
    tag: 'End users',
    params: newEndUserParams,
    body: 'OffRampQuoteRequest',
    answers: { 200: ['DepositQuote', 'The quote, as recorded for the next deposit'] },
    errors: [400, 404, 409, 422],
  },
  {
    method: 'get',
    path: '/v1/end-users/{id}',
    operationId: 'getEndUser',
    summary: "The end user's wallet and newest ramps of both directions",
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
      201: ['OnRamp', 'Started (or attributed to this end user before it ended) by this call'],
      200: [
        'OnRamp',
        "It already was this end user's on-ramp, or this call claimed one that had ended without an end user (on_ramp.claimed follows): the on-ramp as it is",
      ],
    },
    errors: [400, 409, 422],
    links: {
      onRamp: {
        operationId: 'getOnRamp',
        parameters: { orderReference: '$response.body#/data/orderReference' },
        description: 'The on-ramp as it goes on',
      },
    },
  },
  {
    method: 'get',
    path: '/v1/on-ramps/{orderReference}',
    operationId: 'getOnRamp',
    summary: 'An on-ramp as its process last recorded it (also once Temporal no longer holds its run)',
    tag: 'Ramps',
    params: onRampParams,
    answers: { 200: ['OnRamp', 'The on-ramp'] },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/v1/off-ramps/{depositTransactionId}',
    operationId: 'getOffRamp',
    summary:
      'An off-ramp as its process last recorded it, by the deposit transaction that started it (also once Temporal no longer holds its run)',
    tag: 'Ramps',
    params: offRampParams,
    answers: { 200: ['OffRamp', 'The off-ramp'] },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/v1/ramps',
    operationId: 'listRamps',
    summary:
      'On-ramps and off-ramps, newest first (by when they started), one page at a time; following nextPageToken lists each ramp once',
    tag: 'Ramps',
    query: rampListQuerySchema,
    answers: { 200: ['RampPage', 'One page; pagination.nextPageToken is null on the last'] },
    bare: true,
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/v1/events',
    operationId: 'listEvents',
    summary:
      'Outcome events from the moment their process raised them, with how their delivery stands and their place in their queue, newest first, one page at a time; following nextPageToken lists each event once',
    tag: 'Outcome events',
    query: eventListQuerySchema,
    answers: { 200: ['EventPage', 'One page; pagination.nextPageToken is null on the last'] },
    bare: true,
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/v1/events/{webhookId}',
    operationId: 'getEvent',
    summary: 'One outcome event with how its delivery stands',
    tag: 'Outcome events',
    params: webhookIdParams,
    answers: { 200: ['EventRecord', 'The event'] },
    errors: [400, 404],
  },
  {
    method: 'post',
    path: '/v1/events/test',
    operationId: 'sendTestEvent',
    summary: 'Sends a signed test.ping to every endpoint; read its delivery with GET /v1/events/{webhookId}',
    tag: 'Outcome events',
    answers: { 202: ['EventRecord', 'The test event, on its way'] },
    errors: [],
    links: {
      event: {
        operationId: 'getEvent',
        parameters: { webhookId: '$response.body#/data/webhookId' },
        description: "How the test event's delivery stands",
      },
    },
  },
  {
    method: 'post',
    path: '/v1/events/redeliver',
    operationId: 'redeliverEvents',
    summary:
      "Redelivers every outcome event a filter matches (for instance every failed one since T) as one job; each event goes back in its process's queue with its own webhook-id",
    tag: 'Outcome events',
    body: 'RedeliveryRequest',
    answers: {
      202: ['RedeliveryJob', 'The job, started; read its progress with GET /v1/events/redeliveries/{jobId}'],
    },
    errors: [],
    links: {
      job: {
        operationId: 'getRedeliveryJob',
        parameters: { jobId: '$response.body#/data/jobId' },
        description: "The job's progress",
      },
    },
  },
  {
    method: 'get',
    path: '/v1/events/redeliveries/{jobId}',
    operationId: 'getRedeliveryJob',
    summary: 'How a bulk redelivery stands',
    tag: 'Outcome events',
    params: redeliveryJobParams,
    answers: { 200: ['RedeliveryJob', 'The job'] },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/v1/statement',
    operationId: 'statement',
    summary:
      "The settlement statement of a period: a row per ramp booked in it, with reconciliation's last read of the operator, then totals per status and asset (streamed)",
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
    summary: "Sends one outcome event again, with the same webhook-id: back in its process's queue, due now",
    tag: 'Outcome events',
    params: webhookIdParams,
    answers: { 202: ['EventRecord', 'The event, on its way again'] },
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
    summary:
      'Incidents, newest first, one page at a time: the open ones (the default) or the resolved ones, of one kind if asked; following nextPageToken lists each once',
    tag: 'Alerts',
    query: incidentListQuerySchema,
    answers: { 200: ['IncidentPage', 'One page; pagination.nextPageToken is null on the last'] },
    bare: true,
    errors: [400, 404],
  },
  {
    method: 'post',
    path: '/v1/alerts/acknowledge',
    operationId: 'acknowledgeIncident',
    summary: 'Someone on call takes an open incident: who and why',
    tag: 'Alerts',
    body: 'IncidentAction',
    answers: { 200: ['Incident', 'The incident, acknowledged'] },
    errors: [404],
  },
  {
    method: 'post',
    path: '/v1/alerts/resolve',
    operationId: 'resolveIncident',
    summary: 'Someone closes an open incident by hand: who and why',
    tag: 'Alerts',
    body: 'IncidentAction',
    answers: { 200: ['ResolvedIncident', 'The incident, resolved'] },
    errors: [404],
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

const IDEMPOTENCY_KEY_PARAMETER: Json = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description: `Makes the POST safe to repeat (Stripe's semantics): the first answer to a key is kept per key and route for IDEMPOTENCY_RETENTION (24 h); the same request again gets it again with \`${REPLAYED_HEADER}: true\`; the key with another request is 422 (idempotency_key_reused); a repeat while the first still runs is 409 (idempotency_key_in_use). An answer of 400 or 5xx is not kept: a retry runs afresh. Use a new key (a UUID) per request.`,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source },
};
const REPLAYED: Json = {
  [REPLAYED_HEADER]: {
    description: 'true when this is the kept answer to an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
};
/** The answers a POST keeps for its Idempotency-Key, which a repeat may get again (replayed). */
const isKeptAnswer = (status: number) =>
  status < 500 && status !== 400 && status !== 401 && status !== 413 && status !== 415;

function operationObject(operation: Operation): Json {
  const post = operation.method === 'post';
  const responses: Record<string, Json> = {};
  for (const [status, [id, description]] of Object.entries(operation.answers))
    responses[status] = {
      description,
      ...(post ? { headers: REPLAYED } : {}),
      content: {
        ...json(operation.bare ? ref(id) : envelope(id)),
        ...(operation.csv && status === '200'
          ? { 'text/csv': { schema: { type: 'string', description: operation.csv } } }
          : {}),
      },
      ...(operation.links ? { links: operation.links } : {}),
    };
  // Any request may be malformed (400) or unauthorised; any body too large or in an unsupported encoding; any
  // Idempotency-Key in use (409) or used with another request (422).
  const common = [400, 401, 500, 502, 503, ...(post ? [409, 413, 415, 422] : [])];
  for (const status of [...new Set([...operation.errors, ...common])].sort((a, b) => a - b))
    responses[String(status)] = {
      description: ERROR_TEXT[status]!,
      ...(status === 503
        ? { headers: { 'Retry-After': { description: 'Seconds', schema: { type: 'integer' } } } }
        : post && isKeptAnswer(status)
          ? { headers: REPLAYED }
          : {}),
      content: json(ref('Error')),
    };
  const parameterList = [
    ...parameters('path', operation.params),
    ...parameters('query', operation.query),
    ...(post ? [IDEMPOTENCY_KEY_PARAMETER] : []),
  ];
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    tags: [operation.tag],
    ...(parameterList.length > 0 ? { parameters: parameterList } : {}),
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

function webhookObject(type: OutcomeEventType | typeof TEST_EVENT_TYPE): Json {
  const test = type === TEST_EVENT_TYPE;
  return {
    post: {
      operationId: `outcome.${type}`,
      summary: test ? 'The test event of POST /v1/events/test' : EVENT_SUMMARY[type],
      tags: ['Outcome events'],
      description: test
        ? 'Sent to every CLIENT_WEBHOOK_URLS endpoint, whatever types it receives, signed like any event; retried for a minute at most.'
        : 'Sent to every CLIENT_WEBHOOK_URLS endpoint that receives its type (all, or those its #types= fragment lists), following the Standard Webhooks specification; retried with growing delays until a 2xx or CLIENT_WEBHOOK_RETRY_FOR has passed. Events of one process arrive in the order of its transitions.',
      parameters: WEBHOOK_HEADERS,
      requestBody: { required: true, content: json(ref(test ? 'TestPingEvent' : `OutcomeEvent_${type}`)) },
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
    webhooks: Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type, webhookObject(type)])),
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
