/**
 * The outcome dispatcher's incidents: one `outcome-event-undelivered` per client endpoint that misses events for
 * good, each event it missed one occurrence (the events stay in the ledger, listed by GET /v1/events?status=failed
 * and redelivered by `since`), resolved when the endpoint confirms an event again. Raised in the incident store like
 * every alert.
 */
import { randomUUID } from 'node:crypto';
import type { AlertInput } from '../../workflows/operations/alerts/types';
import type { DispatcherIncidents } from './dispatcher';

/** The incident store's two calls, as the alert activities make them. */
interface AlertActivities {
  raiseAlert(alert: AlertInput): Promise<unknown>;
  resolveAlert(input: Pick<AlertInput, 'kind' | 'details'> & { resolution: string }): Promise<unknown>;
}

export function dispatcherIncidents(alerts: AlertActivities): DispatcherIncidents {
  return {
    async undelivered(endpoint, event, error) {
      await alerts.raiseAlert({
        kind: 'outcome-event-undelivered',
        message:
          `The client's endpoint ${endpoint} did not confirm outcome events before their retry time ran out ` +
          `(occurrences counts them; the first: ${event.event.type} ${event.webhookId}; ${error}). List them with ` +
          `GET /v1/events?status=failed; once the endpoint answers, POST /v1/events/redeliver with since the outage ` +
          `began sends every event it has not confirmed.`,
        workflowId: event.processId,
        details: { endpoint },
      });
    },
    async recovered(endpoint) {
      await alerts.resolveAlert({
        kind: 'outcome-event-undelivered',
        details: { endpoint },
        resolution: `the endpoint ${endpoint} confirms outcome events again`,
      });
    },
  };
}

/** Each raise or resolve of the dispatcher is a request of its own (it has no activity retries to recognise). */
export const dispatcherRequestId = () => `outcome-dispatcher/${randomUUID()}`;
