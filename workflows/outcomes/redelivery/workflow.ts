/**
 * outcome-redelivery/<webhook-id>/<request>: sends one recorded outcome event again, with its own id and body,
 * whether or not its process is still running. Asked for with POST /v1/events/{webhook-id}/redeliver once a
 * client's endpoint is back; retried like any delivery, and its result is this workflow's result.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { createOutcomeActivities } from '../../../activities/outcomes/activities';
import type { OutcomeDeliveryStatus, WebhookEvent } from '../../../src/domain/outcome-events';
import type { WorkflowTimings } from '../../../src/domain/timings';
import { failureReason } from '../../../src/domain/errors';
import { outcomeDeliveryOptions } from '../sender';
import { declareReleaseBehaviour } from '../../shared/versioning';

export interface OutcomeRedeliveryInput {
  webhookId: string;
  event: WebhookEvent;
  timings: WorkflowTimings;
}

export interface OutcomeRedeliveryResult {
  webhookId: string;
  delivery: Exclude<OutcomeDeliveryStatus, 'pending'>;
  error?: string;
}

export async function outcomeRedeliveryWorkflow(
  input: OutcomeRedeliveryInput,
): Promise<OutcomeRedeliveryResult> {
  const { deliverOutcomeEvent } = proxyActivities<ReturnType<typeof createOutcomeActivities>>(
    outcomeDeliveryOptions(input.timings),
  );
  try {
    const { endpoints } = await deliverOutcomeEvent({ webhookId: input.webhookId, event: input.event });
    return { webhookId: input.webhookId, delivery: endpoints === 0 ? 'no-endpoint' : 'delivered' };
  } catch (error) {
    return { webhookId: input.webhookId, delivery: 'failed', error: failureReason(error) };
  }
}

declareReleaseBehaviour(outcomeRedeliveryWorkflow, 'pinned');
