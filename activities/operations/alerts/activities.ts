/**
 * Alerts. `raiseAlert` records the incident in the incident store (the ledger's incidents, one open per incident
 * key: src/ledger/incidents.ts) and notifies only when the store says this raise opened the incident: one
 * structured pino error line (always) and, when ALERT_WEBHOOK_URL is set, a Slack-compatible POST `{ text }`,
 * retried by the activity's retry policy until it is answered 2xx (the store recognises the retries by the
 * activity's identity). `resolveAlert` closes an open incident and sends the resolved notice through the same sinks.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { raiseIncident, resolveIncident } from '../../../src/ledger/incidents';
import { incidentKey } from '../../../workflows/operations/alerts/incidents';
import type { AlertInput } from '../../../workflows/operations/alerts/types';
import type { ActivityDeps } from '../../deps';

/** One POST to the alert webhook: chat webhooks answer within a second; a hung one is retried, not waited for. */
export const ALERT_WEBHOOK_TIMEOUT_MS = 5_000;

/**
 * How the store recognises a raise's retries: an activity's identity, or (the outcome dispatcher, which is not an
 * activity) an ID of its own per raise.
 */
export type AlertRequestId = () => string;

/** An activity's identity: the same across its retries, so the store lets the raise that acted notify again. */
const activityRequestId: AlertRequestId = () => {
  const { workflowExecution, activityId } = Context.current().info;
  return `${workflowExecution?.workflowId ?? '-'}/${workflowExecution?.runId ?? '-'}/${activityId}`;
};

export function createAlertActivities(
  { logger, config, ledger }: Pick<ActivityDeps, 'logger' | 'config' | 'ledger'>,
  requestId: AlertRequestId = activityRequestId,
) {
  async function postWebhook(text: string): Promise<boolean> {
    const url = config.alerts.webhookUrl;
    if (!url) return false;
    let status: number;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
        signal: AbortSignal.timeout(config.alerts.webhookTimeoutMs ?? ALERT_WEBHOOK_TIMEOUT_MS),
      });
      status = response.status;
    } catch (error) {
      // The URL is a secret (it carries the webhook's token): only the error's kind is reported.
      throw ApplicationFailure.create({
        type: 'AlertWebhookUnavailable',
        message: `alert webhook unreachable (${(error as Error).name})`,
      });
    }
    if (status < 200 || status >= 300) {
      throw ApplicationFailure.create({
        type: 'AlertWebhookUnavailable',
        message: `alert webhook answered HTTP ${status}`,
      });
    }
    return true;
  }

  return {
    async raiseAlert(
      alert: AlertInput,
    ): Promise<{ delivered: 'log' | 'log+webhook' | 'deduplicated'; key: string; isNew: boolean }> {
      const key = incidentKey(alert.kind, alert.details);
      const answer = await raiseIncident(ledger, { ...alert, key, requestId: requestId() });
      if (!answer.notify) return { delivered: 'deduplicated', key, isNew: false };
      // Once per incident: the raise that opened it logs on its first attempt; its retries only retry the webhook.
      if (answer.isNew) {
        logger.error(
          { alert: { kind: alert.kind, key, workflowId: alert.workflowId, ...alert.details } },
          `ALERT ${alert.kind}: ${alert.message}`,
        );
      }
      const posted = await postWebhook(
        `[ramp-orchestrator] ${alert.kind}: ${alert.message} (${alert.workflowId})`,
      );
      return { delivered: posted ? 'log+webhook' : 'log', key, isNew: answer.isNew };
    },

    /** Closes the incident of this kind and subject (same key rule as raiseAlert); a no-op when none is open. */
    async resolveAlert(input: {
      kind: AlertInput['kind'];
      details: AlertInput['details'];
      resolution: string;
    }): Promise<{ key: string; wasOpen: boolean }> {
      const key = incidentKey(input.kind, input.details);
      const answer = await resolveIncident(ledger, {
        key,
        requestId: requestId(),
        resolution: input.resolution,
      });
      if (!answer.notify) return { key, wasOpen: false };
      if (answer.wasOpen) {
        logger.info(
          {
            alertResolved: {
              kind: input.kind,
              key,
              firstSeen: answer.incident?.firstSeen ?? null,
              occurrences: answer.incident?.occurrences ?? null,
            },
          },
          `RESOLVED ${input.kind}: ${input.resolution}`,
        );
      }
      await postWebhook(`[ramp-orchestrator] RESOLVED ${input.kind}: ${input.resolution}`);
      return { key, wasOpen: answer.wasOpen };
    },
  };
}
