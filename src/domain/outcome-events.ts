/**
 * The outcome events the client's backend is told (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`; body `{ type, timestamp, data }`). Their vocabulary and their IDs live here, once:
 * the processes that raise them, the delivery activity, the HTTP API and the OpenAPI document all read it.
 * Workflow-safe.
 */
import type { AmountsAgainstQuote } from './amounts-against-quote';
import type { ExceptionReason, RampException } from './markets';
import type { RampGas } from './ramp-gas';

export const OUTCOME_EVENT_TYPES = [
  'deposit_wallet.created',
  'off_ramp.created',
  'off_ramp.stuck',
  'off_ramp.settled',
  'off_ramp.failed',
  'off_ramp.timed_out',
  'off_ramp.exception',
  'on_ramp.created',
  'on_ramp.settled',
  'on_ramp.expired',
  'on_ramp.failed',
  'on_ramp.timed_out',
  'on_ramp.exception',
  'on_ramp.claimed',
  'on_ramp.unclaimed',
] as const;
export type OutcomeEventType = (typeof OUTCOME_EVENT_TYPES)[number];

/** What an event says; every amount is a decimal string. Fields a process does not know yet are absent. */
export interface OutcomeEventData {
  workflowId: string;
  /** Null while an off-ramp's deposit wallet is not yet matched to an end user. */
  endUserId: string | null;
  status: string;
  step: string;
  depositTransactionId?: string;
  orderReference?: string;
  orderId?: string;
  network?: string;
  address?: string;
  asset?: string;
  cryptoAmount?: string;
  fiatAmount?: string;
  fiatCurrency?: string;
  failure?: { resource: string; id: string; status: string };
  /** What executed against the quote the end user was shown (decimal strings). */
  amounts?: AmountsAgainstQuote;
  /** Off-ramp: the gas the operator reports for its top-up and sweep. */
  gas?: RampGas;
  /** `*.exception`: the exception just seen. */
  exception?: { reason: ExceptionReason; message: string };
  /** Every exception the ramp met so far. */
  exceptions?: RampException[];
  /** `on_ramp.claimed`: when the end user was named, after the on-ramp had ended. */
  claimedAt?: string;
  /** deposit_wallet.created: the wallet and its address on each network. */
  walletId?: string;
  addresses?: { network: string; address: string }[];
}

/** One event as a process raises it (its id and timestamp come from the outbox). */
export interface RaisedOutcome {
  type: OutcomeEventType;
  data: OutcomeEventData;
}

/** The data without its absent fields, so that the recorded body holds only what is known. */
export function compactData(data: OutcomeEventData): OutcomeEventData {
  return Object.fromEntries(
    Object.entries(data).filter(([, value]) => value !== undefined),
  ) as unknown as OutcomeEventData;
}

/** The JSON body of one event, identical on every delivery of it (its `webhook-timestamp` is the attempt's). */
export interface OutcomeEvent {
  type: OutcomeEventType;
  /** When the transition happened (ISO 8601), not when it was sent. */
  timestamp: string;
  data: OutcomeEventData;
}

/** One event as its process raised it for the ledger: its webhook-id, its number in the process's queue, its body. */
export interface RaisedEvent {
  webhookId: string;
  sequence: number;
  event: WebhookEvent;
}

/** How the delivery of one event to the client's endpoints stands. */
export const OUTCOME_DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'no-endpoint'] as const;
export type OutcomeDeliveryStatus = (typeof OUTCOME_DELIVERY_STATUSES)[number];

/** The event `POST /v1/events/test` sends to every endpoint, whatever types it receives: no process raises it. */
export const TEST_EVENT_TYPE = 'test.ping';
export interface TestPingEvent {
  type: typeof TEST_EVENT_TYPE;
  timestamp: string;
  data: { message: string };
}
/** Every event type the events API lists. */
export const WEBHOOK_EVENT_TYPES = [...OUTCOME_EVENT_TYPES, TEST_EVENT_TYPE] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** What a webhook delivery carries: an outcome event, or the test event. */
export type WebhookEvent = OutcomeEvent | TestPingEvent;

/** One event of a process, as its state lists it (with its body, so that it can be sent again as it was). */
export interface OutcomeEventRecord {
  webhookId: string;
  event: OutcomeEvent;
  delivery: OutcomeDeliveryStatus;
  /** Set once the delivery ended (delivered, given up, or nothing to send it to). */
  deliveredAt?: string;
  /** Why the delivery was given up: the last attempt's failure, never a URL or a secret. */
  error?: string;
}

const WEBHOOK_ID_PREFIX = 'evt_';
// Workflow IDs never hold `~` (src/validation/identifiers.ts and ids.ts), so it can stand for `/` and separate.
const SLASH = '~';

/**
 * The `webhook-id` of a process's n-th event (n from 1): stable across retries, crashes and redeliveries because
 * the process numbers its own transitions; readable, and it names its process, so a redelivery finds the event.
 */
export function outcomeWebhookId(workflowId: string, sequence: number): string {
  return `${WEBHOOK_ID_PREFIX}${workflowId.replaceAll('/', SLASH)}${SLASH}${sequence}`;
}

/** The webhook ID of a test event: numbered 1 under test/<uuid>, so it has the shape of every other. */
export const testWebhookId = (uuid: string) => outcomeWebhookId(`test/${uuid}`, 1);

/**
 * Whether an endpoint with these event types receives `type`: every type without a list; else a listed type, or
 * one under a listed `<subject>.*`. The test event goes to every endpoint.
 */
export function endpointReceives(types: readonly string[] | undefined, type: string): boolean {
  if (types === undefined || type === TEST_EVENT_TYPE) return true;
  return types.some((listed) =>
    listed.endsWith('.*') ? type.startsWith(listed.slice(0, -1)) : listed === type,
  );
}

/**
 * The shape of every webhook ID we issue, as the OpenAPI document publishes it: `evt_`, the workflow ID with `/` as
 * `~` (segments of identifier characters, none empty), `~` and the sequence number.
 */
export const OUTCOME_WEBHOOK_ID_PATTERN = /^evt_[A-Za-z0-9._:@-]+(?:~[A-Za-z0-9._:@-]+)*~[1-9][0-9]{0,8}$/;
export const MAX_OUTCOME_WEBHOOK_ID_LENGTH = 420;

/** The process and sequence a webhook ID names, or undefined when it is not one of ours. */
export function parseOutcomeWebhookId(
  webhookId: string,
): { workflowId: string; sequence: number } | undefined {
  if (webhookId.length > MAX_OUTCOME_WEBHOOK_ID_LENGTH || !OUTCOME_WEBHOOK_ID_PATTERN.test(webhookId))
    return undefined;
  const separator = webhookId.lastIndexOf(SLASH);
  return {
    workflowId: webhookId.slice(WEBHOOK_ID_PREFIX.length, separator).replaceAll(SLASH, '/'),
    sequence: Number(webhookId.slice(separator + 1)),
  };
}
