/**
 * Sends one outcome event to every configured endpoint of the client's backend that receives its type, signed
 * (Standard Webhooks). Only a 2xx confirms; a timeout, a redirect or any other answer is a failure, retried by the
 * activity's retry policy with the same `webhook-id` and body. Endpoints that already confirmed are remembered in the
 * heartbeat details, so a retry goes only to those that did not. Each attempt, refusal and end is told to the
 * event's record (events/<webhook-id>), which the events API lists.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Logger } from 'pino';
import type { ClientWebhookConfig } from '../../src/config/client-webhooks';
import { endpointReceives, type WebhookEvent } from '../../src/domain/outcome-events';
import { inClientSpan } from '../../src/observability/spans';
import { signatureHeaders } from '../../src/outcomes/signature';
import type { EventRecordSink } from '../../src/temporal/event-records';
import type { DeliveryNews } from '../../workflows/outcomes/events/types';

export interface OutcomeActivityDeps {
  logger: Logger;
  /** Absent or without endpoints: events are recorded in their process and sent nowhere. */
  clientWebhooks?: ClientWebhookConfig;
  /** The events' records (the worker's; absent in unit tests of the delivery alone). */
  records?: EventRecordSink;
}

export interface DeliverOutcomeRequest {
  webhookId: string;
  event: WebhookEvent;
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

export function createOutcomeActivities({ logger, clientWebhooks, records }: OutcomeActivityDeps) {
  return {
    async deliverOutcomeEvent({ webhookId, event }: DeliverOutcomeRequest): Promise<{ endpoints: number }> {
      const context = Context.current();
      const { info } = context;
      const tell = (news: DeliveryNews) =>
        records ? records({ taskQueue: info.taskQueue, webhookId, event }, news) : Promise.resolve();
      const now = () => new Date().toISOString();
      await tell({
        kind: 'attempt',
        at: now(),
        giveUpAt: new Date(info.scheduledTimestampMs + info.scheduleToCloseTimeoutMs).toISOString(),
      });
      // Every endpoint that receives this type, by its position in the configured list (the heartbeat's key).
      const endpoints = (clientWebhooks?.endpoints ?? [])
        .map((endpoint, index) => ({ endpoint, index }))
        .filter(({ endpoint }) => endpointReceives(endpoint.types, event.type));
      if (endpoints.length === 0 || !clientWebhooks) {
        await tell({ kind: 'ended', at: now(), delivery: 'no-endpoint' });
        return { endpoints: 0 };
      }
      const earlier: unknown = info.heartbeatDetails;
      const confirmed = new Set<number>(Array.isArray(earlier) ? earlier.filter(Number.isInteger) : []);
      const body = JSON.stringify(event);
      const failures: string[] = [];
      await Promise.all(
        endpoints.map(async ({ endpoint, index }) => {
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
          { webhookId, type: event.type, attempt: info.attempt, failures },
          'outcome event not confirmed',
        );
        await tell({ kind: 'refused', at: now(), error: failures.join('; ') });
        throw ApplicationFailure.retryable(failures.join('; '), 'OutcomeEventUnconfirmed');
      }
      await tell({ kind: 'ended', at: now(), delivery: 'delivered' });
      logger.info({ webhookId, type: event.type, endpoints: endpoints.length }, 'outcome event delivered');
      return { endpoints: endpoints.length };
    },
  };
}
