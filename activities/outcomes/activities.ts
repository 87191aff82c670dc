/**
 * Sends one outcome event to every configured endpoint of the client's backend, signed (Standard Webhooks).
 * Only a 2xx confirms; a timeout, a redirect or any other answer is a failure, retried by the activity's retry
 * policy with the same `webhook-id` and body. Endpoints that already confirmed are remembered in the heartbeat
 * details, so a retry goes only to those that did not.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Logger } from 'pino';
import type { ClientWebhookConfig } from '../../src/config/client-webhooks';
import type { OutcomeEvent } from '../../src/domain/outcome-events';
import { inClientSpan } from '../../src/observability/spans';
import { signatureHeaders } from '../../src/outcomes/signature';

export interface OutcomeActivityDeps {
  logger: Logger;
  /** Absent or without endpoints: events are recorded in their process and sent nowhere. */
  clientWebhooks?: ClientWebhookConfig;
}

export interface DeliverOutcomeRequest {
  webhookId: string;
  event: OutcomeEvent;
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

export function createOutcomeActivities({ logger, clientWebhooks }: OutcomeActivityDeps) {
  return {
    async deliverOutcomeEvent({ webhookId, event }: DeliverOutcomeRequest): Promise<{ endpoints: number }> {
      const endpoints = clientWebhooks?.endpoints ?? [];
      if (endpoints.length === 0 || !clientWebhooks) return { endpoints: 0 };
      const context = Context.current();
      const earlier: unknown = context.info.heartbeatDetails;
      const confirmed = new Set<number>(Array.isArray(earlier) ? earlier.filter(Number.isInteger) : []);
      const body = JSON.stringify(event);
      const failures: string[] = [];
      await Promise.all(
        endpoints.map(async (endpoint, index) => {
          if (confirmed.has(index)) return;
          const headers = signatureHeaders(webhookId, body, clientWebhooks.secrets, new Date());
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
              {
                'http.request.method': 'POST',
                'outcome.endpoint': endpoint.label,
                'outcome.webhook_id': webhookId,
              },
              sent,
              () =>
                fetch(target.url, {
                  method: 'POST',
                  headers: sent,
                  body,
                  redirect: 'manual',
                  signal: AbortSignal.any([
                    AbortSignal.timeout(clientWebhooks.timeoutMs),
                    context.cancellationSignal,
                  ]),
                }),
            );
            await response.body?.cancel().catch(() => undefined);
            if (isConfirmed(response.status)) confirmed.add(index);
            else failures.push(`${endpoint.label} answered HTTP ${response.status}`);
          } catch (error) {
            // fetch's message may quote the URL, which is a secret: only the kind of failure is kept.
            const timedOut = (error as Error).name === 'TimeoutError';
            failures.push(
              `${endpoint.label} ${timedOut ? `did not answer within ${clientWebhooks.timeoutMs} ms` : 'was unreachable'}`,
            );
          }
        }),
      );
      context.heartbeat([...confirmed]);
      if (failures.length > 0) {
        logger.warn(
          { webhookId, type: event.type, attempt: context.info.attempt, failures },
          'outcome event not confirmed',
        );
        throw ApplicationFailure.retryable(failures.join('; '), 'OutcomeEventUnconfirmed');
      }
      logger.info({ webhookId, type: event.type, endpoints: endpoints.length }, 'outcome event delivered');
      return { endpoints: endpoints.length };
    },
  };
}
