/**
 * One attempt to deliver one outcome event: POSTed, signed (Standard Webhooks), to every configured endpoint that
 * receives its type and has not confirmed it yet. Only a 2xx confirms; a timeout, a redirect or any other answer is
 * a failure named by the endpoint's label (its URL may carry a credential and is never repeated).
 */
import { endpointReceives, type WebhookEvent } from '../domain/outcome-events';
import type { ClientWebhookConfig, ClientWebhookEndpoint } from '../config/client-webhooks';
import { inClientSpan } from '../http/spans';
import { signatureHeaders } from './signature';

export interface AttemptResult {
  /** The labels of the endpoints that receive the event's type (none: there is nowhere to send it). */
  receiving: string[];
  /** Labels that confirmed it in this attempt. */
  confirmed: string[];
  /** One line per endpoint that did not. */
  failures: string[];
}

const isConfirmed = (status: number) => status >= 200 && status < 300;

/** fetch refuses a URL with credentials: they go as HTTP Basic authentication instead. */
function withoutCredentials(text: string): { url: string; headers: Record<string, string> } {
  const url = new URL(text);
  if (url.username === '' && url.password === '') return { url: text, headers: {} };
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  const basic = Buffer.from(`${user}:${password}`).toString('base64');
  return { url: url.toString(), headers: { authorization: `Basic ${basic}` } };
}

/** The endpoints of the configuration that receive this event type. */
export const receivingEndpoints = (config: ClientWebhookConfig | undefined, type: string) =>
  (config?.endpoints ?? []).filter((endpoint) => endpointReceives(endpoint.types, type));

async function postTo(
  config: ClientWebhookConfig,
  endpoint: ClientWebhookEndpoint,
  webhookId: string,
  event: WebhookEvent,
  body: string,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const headers = signatureHeaders(webhookId, body, config.secrets, new Date());
  try {
    const target = withoutCredentials(endpoint.url.reveal());
    const sent: Record<string, string> = {
      ...headers,
      ...target.headers,
      'content-type': 'application/json',
    };
    // The span names the endpoint by its label: its URL may carry a credential.
    const response = await inClientSpan(
      `outcome webhook ${event.type}`,
      { 'http.request.method': 'POST', 'outcome.endpoint': endpoint.label, 'outcome.webhook_id': webhookId },
      sent,
      () =>
        fetch(target.url, {
          method: 'POST',
          headers: sent,
          body,
          redirect: 'manual',
          signal: AbortSignal.any([AbortSignal.timeout(config.timeoutMs), ...(signal ? [signal] : [])]),
        }),
    );
    await response.body?.cancel().catch(() => undefined);
    return isConfirmed(response.status) ? undefined : `${endpoint.label} answered HTTP ${response.status}`;
  } catch (error) {
    // fetch's message may quote the URL, which is a secret: only the kind of failure is kept.
    const timedOut = (error as Error).name === 'TimeoutError';
    return `${endpoint.label} ${timedOut ? `did not answer within ${config.timeoutMs} ms` : 'was unreachable'}`;
  }
}

/** Sends the event to every receiving endpoint not in `alreadyConfirmed`, at once. */
export async function attemptDelivery(
  config: ClientWebhookConfig | undefined,
  webhookId: string,
  event: WebhookEvent,
  alreadyConfirmed: readonly string[],
  signal?: AbortSignal,
): Promise<AttemptResult> {
  const receiving = receivingEndpoints(config, event.type);
  const result: AttemptResult = { receiving: receiving.map((e) => e.label), confirmed: [], failures: [] };
  if (!config || receiving.length === 0) return result;
  const body = JSON.stringify(event);
  await Promise.all(
    receiving
      .filter((endpoint) => !alreadyConfirmed.includes(endpoint.label))
      .map(async (endpoint) => {
        const failure = await postTo(config, endpoint, webhookId, event, body, signal);
        if (failure === undefined) result.confirmed.push(endpoint.label);
        else result.failures.push(failure);
      }),
  );
  return result;
}
