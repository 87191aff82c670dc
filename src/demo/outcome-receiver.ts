/**
 * A small stand-in for the client's backend: an HTTP endpoint on 127.0.0.1 that receives outcome events,
 * verifies each delivery's signature with the `standardwebhooks` package (as a client would) and hands every
 * delivery to its caller. `npm start` prints them; the tests also use it to answer 500 or to hold an answer.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { ClientWebhookConfig } from '../config/client-webhooks';
import { type OutcomeEvent, TEST_EVENT_TYPE } from '../domain/outcome-events';
import { SecretString } from '../secrets/secret-string';

export interface ReceivedDelivery {
  webhookId: string;
  timestamp: string;
  /** The raw body, exactly as it arrived (what the signature covers). */
  body: string;
  headers: Record<string, string>;
  /** The Authorization header, when the endpoint's URL carried credentials. */
  authorization?: string;
  /** The W3C trace context the sender passed on (with tracing on): the backend may continue the ramp's trace. */
  traceparent?: string;
  /** Whether `new Webhook(secret).verify(body, headers)` accepted it. */
  verified: boolean;
  /** The verifier's message when it did not. */
  verifyError?: string;
  /** The parsed body (also for an unverified delivery, so a test can see what came); a test.ping has no process. */
  event: OutcomeEvent | undefined;
  receivedAt: number;
  /** The HTTP status answered; undefined while the answer is held or the connection broke first. */
  answered?: number;
}

export interface OutcomeReceiverOptions {
  /** `whsec_<base64>`; a fresh one when absent. */
  secret?: string;
  /**
   * The status to answer a delivery with (may wait, to hold the answer). Default: 204 when verified, 400 when not.
   */
  respond?: (delivery: ReceivedDelivery) => number | Promise<number>;
  /** Called for every delivery once it has been answered. */
  onDelivery?: (delivery: ReceivedDelivery) => void;
}

export interface RunningOutcomeReceiver {
  url: string;
  secret: string;
  /** Every delivery, in arrival order. */
  deliveries: ReceivedDelivery[];
  /** The deliveries answered with a 2xx, the first of each webhook ID only. */
  confirmed(): ReceivedDelivery[];
  close(): Promise<void>;
}

/** A new Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const header = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value.join(',') : (value ?? '');

export async function startOutcomeReceiver(
  options: OutcomeReceiverOptions = {},
): Promise<RunningOutcomeReceiver> {
  const secret = options.secret ?? newWebhookSecret();
  const verifier = new Webhook(secret);
  const deliveries: ReceivedDelivery[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': header(request.headers['webhook-id']),
        'webhook-timestamp': header(request.headers['webhook-timestamp']),
        'webhook-signature': header(request.headers['webhook-signature']),
      };
      let verified = false;
      let verifyError: string | undefined;
      try {
        verifier.verify(body, headers);
        verified = true;
      } catch (error) {
        verifyError = error instanceof Error ? error.message : String(error);
      }
      let event: OutcomeEvent | undefined;
      try {
        event = JSON.parse(body) as OutcomeEvent;
      } catch {
        event = undefined;
      }
      const delivery: ReceivedDelivery = {
        webhookId: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        body,
        headers,
        ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
        ...(request.headers.traceparent ? { traceparent: header(request.headers.traceparent) } : {}),
        verified,
        ...(verifyError === undefined ? {} : { verifyError }),
        event,
        receivedAt: Date.now(),
      };
      deliveries.push(delivery);
      void Promise.resolve(options.respond ? options.respond(delivery) : verified ? 204 : 400)
        .then((status) => {
          if (response.destroyed) return;
          delivery.answered = status;
          response.writeHead(status).end();
          options.onDelivery?.(delivery);
        })
        .catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/outcome-events`,
    secret,
    deliveries,
    confirmed() {
      const seen = new Set<string>();
      return deliveries.filter((delivery) => {
        const ok = delivery.answered !== undefined && delivery.answered >= 200 && delivery.answered < 300;
        if (!ok || seen.has(delivery.webhookId)) return false;
        seen.add(delivery.webhookId);
        return true;
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The worker's endpoints with the demo backend added after the configured ones (never replacing them), and its
 * secret added to the signing secrets: every delivery carries one signature per secret, so each receiver verifies
 * with its own.
 */
export function withDemoBackend(
  config: ClientWebhookConfig,
  backend: Pick<RunningOutcomeReceiver, 'url' | 'secret'>,
): ClientWebhookConfig {
  return {
    ...config,
    endpoints: [
      ...config.endpoints,
      { url: new SecretString(backend.url), label: `demo backend (${new URL(backend.url).host})` },
    ],
    secrets: [...config.secrets, new SecretString(backend.secret)],
  };
}

/** One line per delivery, as `npm start` prints it: an outcome event names its process and status. */
export function describeDelivery(delivery: ReceivedDelivery): string {
  const verdict = delivery.verified ? 'verified' : `NOT verified (${delivery.verifyError ?? 'unknown'})`;
  const { event } = delivery;
  // A test.ping (POST /v1/events/test) arrives here too: it has no process.
  const type: string | undefined = event?.type;
  const what =
    event === undefined || type === TEST_EVENT_TYPE ? '' : ` ${event.data.workflowId}: ${event.data.status}`;
  return `[client backend] ${verdict} ${type ?? '?'} ${delivery.webhookId}${what}`;
}
