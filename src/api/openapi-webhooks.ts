/**
 * The `webhooks` section of the OpenAPI document: the outcome events the API sends to the client's endpoints, one
 * entry per type with its body (a named component each) and the Standard Webhooks headers.
 */
import {
  type OutcomeEventType,
  OUTCOME_EVENT_TYPES,
  TEST_EVENT_TYPE,
  WEBHOOK_EVENT_TYPES,
} from '../domain/outcome-events';
import { outcomeEventBody } from '../ledger/views';
import { component, componentId } from './components';
import { testPingEvent } from './routes/events';

type Json = Record<string, unknown>;

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

/** One named body schema per outcome event type. */
const bodies = Object.fromEntries(
  OUTCOME_EVENT_TYPES.map((type) => [type, component(`OutcomeEvent_${type}`, outcomeEventBody(type))]),
);

const HEADERS: Json[] = [
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

function webhook(type: OutcomeEventType | typeof TEST_EVENT_TYPE): Json {
  const test = type === TEST_EVENT_TYPE;
  const body = test ? testPingEvent : bodies[type]!;
  return {
    post: {
      operationId: `outcome.${type}`,
      summary: test ? 'The test event of POST /v1/events/test' : EVENT_SUMMARY[type],
      tags: ['Outcome events'],
      description: test
        ? 'Sent to every CLIENT_WEBHOOK_URLS endpoint, whatever types it receives, signed like any event; retried for a minute at most.'
        : 'Sent to every CLIENT_WEBHOOK_URLS endpoint that receives its type (all, or those its #types= fragment lists), following the Standard Webhooks specification; retried with growing delays until a 2xx or CLIENT_WEBHOOK_RETRY_FOR has passed. Events of one process arrive in the order of its transitions.',
      parameters: HEADERS,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${componentId(body)}` } } },
      },
      responses: {
        '2XX': { description: 'Any 2xx confirms the delivery; anything else (or a timeout) is retried' },
      },
    },
  };
}

/** The document's `webhooks`: one entry per type the client's endpoints receive. */
export const webhooksSection = (): Json =>
  Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type, webhook(type)]));
