/**
 * The delivery activity of runs taken from 1.0 histories: their sender loop hands each outcome event to the
 * ledger's queue here, with its own webhook-id, and the outcome dispatcher delivers it in its process's order
 * (src/outcomes/dispatcher.ts). The same activity serves a 1.0 redelivery (outcome-redelivery/...), which puts
 * a delivered event back in its queue. Runs that record into the ledger raise their events there themselves.
 */
import { Context } from '@temporalio/activity';
import { parseOutcomeWebhookId, type WebhookEvent } from '../../src/domain/outcome-events';
import { requeueEvent } from '../../src/ledger/outcome-events';
import { receivingEndpoints } from '../../src/outcomes/send';
import type { ActivityDeps } from '../deps';

export interface DeliverOutcomeRequest {
  webhookId: string;
  event: WebhookEvent;
}

/** A delivery's retry time when the activity has none of its own (its schedule-to-close), CLIENT_WEBHOOK_RETRY_FOR's default. */
const DEFAULT_RETRY_FOR_MS = 24 * 60 * 60 * 1000;

export function createOutcomeActivities({ ledger, config }: Pick<ActivityDeps, 'ledger' | 'config'>) {
  return {
    /** Queues the event in the ledger (recorded if new, requeued if its delivery had ended); answers its endpoints. */
    async deliverOutcomeEvent({ webhookId, event }: DeliverOutcomeRequest): Promise<{ endpoints: number }> {
      const parsed = parseOutcomeWebhookId(webhookId);
      if (!parsed) throw new Error(`Not the webhook-id of an outcome event: ${webhookId}`);
      const retryForMs = Context.current().info.scheduleToCloseTimeoutMs || DEFAULT_RETRY_FOR_MS;
      await requeueEvent(ledger, webhookId, {
        processId: parsed.workflowId,
        sequence: parsed.sequence,
        event,
        retryForMs,
      });
      return { endpoints: receivingEndpoints(config.clientWebhooks, event.type).length };
    },
  };
}
