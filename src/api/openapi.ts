/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the declared endpoints (src/api/routes) and the zod
 * schemas they validate and answer with: served at GET /openapi.json and committed as docs/openapi.json
 * (`npm run openapi`).
 */
import { z } from 'zod';
import { IDENTIFIER_ALPHABET } from '../validation/identifiers';
import { apiRegistry, componentId, errorSchema } from './components';
import { type AnyEndpoint, TAGS } from './endpoint';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, REPLAYED_HEADER } from './idempotency';
import { webhooksSection } from './openapi-webhooks';
import { ENDPOINTS } from './routes';

type Json = Record<string, unknown>;

/** Where the document is served, without the API key. */
export const DOCUMENT_PATH = '/openapi.json';

const TARGET = 'draft-2020-12' as const;
const ref = (schema: z.ZodType): Json => ({ $ref: `#/components/schemas/${componentId(schema)}` });
const json = (schema: Json): Json => ({ 'application/json': { schema } });

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

function parameters(where: 'path' | 'query', schema: z.ZodType | undefined): Json[] {
  if (!schema) return [];
  const fields = (schema as z.ZodObject).shape as Record<string, z.ZodType>;
  return Object.entries(fields).map(([name, field]) => {
    const { $schema: _schema, ...fieldSchema } = z.toJSONSchema(field, {
      target: TARGET,
      io: 'input',
      unrepresentable: 'any',
    }) as Json;
    // Every path parameter but the webhook-id (whose shape is its own) is an identifier.
    const description =
      where === 'path' && name !== 'webhookId' ? IDENTIFIER_ALPHABET : fieldSchema.description;
    return {
      name,
      in: where,
      required: where === 'path' || !field.safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema: fieldSchema,
    };
  });
}

/** The answers of an endpoint: its own by status, then the errors it and every endpoint of its method may answer. */
function responses(endpoint: AnyEndpoint): Record<string, Json> {
  const post = endpoint.method === 'post';
  const answers: Record<string, Json> = {};
  for (const [status, answer] of Object.entries(endpoint.answers))
    answers[status] = {
      description: answer.description,
      ...(post ? { headers: REPLAYED } : {}),
      content: {
        ...json(
          answer.bare
            ? ref(answer.schema)
            : {
                type: 'object',
                properties: { data: ref(answer.schema) },
                required: ['data'],
                additionalProperties: false,
              },
        ),
        ...(answer.csv ? { 'text/csv': { schema: { type: 'string', description: answer.csv } } } : {}),
      },
      ...(endpoint.links ? { links: endpoint.links } : {}),
    };
  // Any request may be malformed (400) or unauthorised; any body too large or in an unsupported encoding; any
  // Idempotency-Key in use (409) or used with another request (422).
  const common = [400, 401, 500, 502, 503, ...(post ? [409, 413, 415, 422] : [])];
  for (const status of [...new Set([...endpoint.errors, ...common])].sort((a, b) => a - b))
    answers[String(status)] = {
      description: ERROR_TEXT[status]!,
      ...(status === 503
        ? { headers: { 'Retry-After': { description: 'Seconds', schema: { type: 'integer' } } } }
        : post && isKeptAnswer(status)
          ? { headers: REPLAYED }
          : {}),
      content: json(ref(errorSchema)),
    };
  return answers;
}

function operation(endpoint: AnyEndpoint): Json {
  const parameterList = [
    ...parameters('path', endpoint.params?.schema),
    ...parameters('query', endpoint.query?.schema),
    ...(endpoint.method === 'post' ? [IDEMPOTENCY_KEY_PARAMETER] : []),
  ];
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    tags: [endpoint.tag],
    ...(parameterList.length > 0 ? { parameters: parameterList } : {}),
    ...(endpoint.body ? { requestBody: { required: true, content: json(ref(endpoint.body.schema)) } } : {}),
    responses: responses(endpoint),
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
  for (const endpoint of ENDPOINTS)
    paths[endpoint.path] = { ...paths[endpoint.path], [endpoint.method]: operation(endpoint) };
  paths[DOCUMENT_PATH] = {
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
    tags: TAGS.map((name) => ({ name })),
    paths,
    webhooks: webhooksSection(),
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
