/**
 * raiseAlert: one structured pino error line (always, on the first attempt) and, when ALERT_WEBHOOK_URL is set, a
 * Slack-compatible POST `{ text }`, retried by the activity's retry policy until it is answered 2xx.
 * A later issue adds an incident store; this stays deliberately small.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { loadRampActivityConfig, type RampActivityConfig } from '../src/config/ramps';
import type { AlertInput } from '../workflows/ramp-types';
import type { ActivityDeps } from './deps';

export function createAlertActivities({ logger, ramps }: ActivityDeps) {
  let settings: RampActivityConfig | undefined = ramps;
  const config = () => (settings ??= loadRampActivityConfig());
  return {
    async raiseAlert(alert: AlertInput): Promise<{ delivered: 'log' | 'log+webhook' }> {
      const { attempt } = Context.current().info;
      if (attempt === 1) logger.error({ alert: { kind: alert.kind, workflowId: alert.workflowId, ...alert.details } }, `ALERT ${alert.kind}: ${alert.message}`);
      const url = config().alertWebhookUrl;
      if (!url) return { delivered: 'log' };
      const text = `[ramp-orchestrator] ${alert.kind}: ${alert.message} (${alert.workflowId})`;
      let status: number;
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text }),
          signal: AbortSignal.timeout(config().alertWebhookTimeoutMs),
        });
        status = response.status;
      } catch (error) {
        // The URL is a secret (it carries the webhook's token): only the error's kind is reported.
        throw ApplicationFailure.create({ type: 'AlertWebhookUnavailable', message: `alert webhook unreachable (${(error as Error).name})` });
      }
      if (status < 200 || status >= 300) {
        throw ApplicationFailure.create({ type: 'AlertWebhookUnavailable', message: `alert webhook answered HTTP ${status}` });
      }
      return { delivered: 'log+webhook' };
    },
  };
}
