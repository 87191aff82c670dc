/**
 * The workflow side of outcome events: raises them in the process's outbox and sends them from a loop of their
 * own, so that a client outage never holds up the process's steps. Each event is one activity, retried with
 * growing delays for the configured time; when that runs out the event is recorded as failed, an incident is
 * raised, and the next event goes. Before the process ends it waits until its outbox is drained.
 */
import { type ActivityOptions, condition, log, proxyActivities, workflowInfo } from '@temporalio/workflow';
import { failureReason } from '../../src/domain/errors';
import type { OutcomeEventData, OutcomeEventType } from '../../src/domain/outcome-events';
import { TEST_EVENT_RETRY_FOR_MS, type WorkflowTimings } from '../../src/domain/timings';
import type { createOutcomeActivities } from '../../activities/outcomes/activities';
import type { createAlertActivities } from '../../activities/operations/alerts/activities';
import { operatorActivityOptions } from '../shared/activity-options';
import { isDrained, nextToDeliver, raiseOutcome, recordDelivery, type Outbox } from './outbox';

type OutcomeActivities = ReturnType<typeof createOutcomeActivities>;

/** One delivery: an attempt per retry, growing delays, given up after the configured time. */
export function outcomeDeliveryOptions(timings: WorkflowTimings): ActivityOptions {
  const delivery = timings.outcomeDelivery;
  return {
    startToCloseTimeout: delivery.attemptTimeoutMs,
    scheduleToCloseTimeout: delivery.retryForMs,
    retry: {
      initialInterval: delivery.retryInitialMs,
      maximumInterval: delivery.retryMaximumMs,
      backoffCoefficient: 2,
    },
  };
}

/** The test event's one delivery: the same attempts, given up after TEST_EVENT_RETRY_FOR_MS. */
export function testEventDeliveryOptions(timings: WorkflowTimings): ActivityOptions {
  return {
    startToCloseTimeout: timings.outcomeDelivery.attemptTimeoutMs,
    scheduleToCloseTimeout: TEST_EVENT_RETRY_FOR_MS,
    retry: { initialInterval: 2_000, maximumInterval: 10_000, backoffCoefficient: 2 },
  };
}

export interface OutcomeSender {
  raise(type: OutcomeEventType, data: OutcomeEventData): void;
  /** The ledger's sender only: what the process shows changed, so its next write records the view. */
  touch?(): void;
  /** Resolves once every raised event is delivered, given up, or had nowhere to go. */
  drained(): Promise<void>;
}

export function startOutcomeSender(outbox: Outbox, timings: WorkflowTimings): OutcomeSender {
  const { deliverOutcomeEvent } = proxyActivities<OutcomeActivities>(outcomeDeliveryOptions(timings));
  const { raiseAlert } = proxyActivities<ReturnType<typeof createAlertActivities>>(
    operatorActivityOptions(timings),
  );
  const { workflowId } = workflowInfo();

  async function sendLoop(): Promise<never> {
    for (;;) {
      await condition(() => nextToDeliver(outbox) !== undefined);
      const record = nextToDeliver(outbox)!;
      try {
        const answer = await deliverOutcomeEvent({ webhookId: record.webhookId, event: record.event });
        recordDelivery(
          outbox,
          record.webhookId,
          { delivery: answer.endpoints === 0 ? 'no-endpoint' : 'delivered' },
          new Date(),
        );
      } catch (error) {
        const reason = failureReason(error);
        recordDelivery(outbox, record.webhookId, { delivery: 'failed', error: reason }, new Date());
        log.error('outcome event given up', { webhookId: record.webhookId, type: record.event.type });
        await raiseAlert({
          kind: 'outcome-event-undelivered',
          message: `The client's backend was not told ${record.event.type} (${record.webhookId}): ${reason}. Redeliver it with POST /v1/events/${record.webhookId}/redeliver once its endpoint answers.`,
          workflowId,
          details: {
            webhookId: record.webhookId,
            type: record.event.type,
            endUserId: record.event.data.endUserId,
          },
          // The store being unreachable for the whole retry time must not stop the events behind this one.
        }).catch(() => undefined);
      }
    }
  }

  void sendLoop();

  return {
    raise(type, data) {
      raiseOutcome(outbox, workflowId, type, data, new Date());
    },
    async drained() {
      await condition(() => isDrained(outbox));
    },
  };
}
