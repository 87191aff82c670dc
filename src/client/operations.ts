/** Operations seen from the client: the incident store (processIds.alertsWorkflowId). */
import { WorkflowNotFoundError } from '@temporalio/client';
import { alertsStateQuery } from '../../workflows/operations/alerts/messages';
import type { AlertsState } from '../../workflows/operations/alerts/types';
import type { ClientContext } from './context';

/** Open and recently resolved incidents; the empty store before the first alert. */
export async function listAlerts(
  context: ClientContext,
  options: { workflowId?: string } = {},
): Promise<AlertsState> {
  const workflowId = options.workflowId ?? context.processIds.alertsWorkflowId;
  try {
    return await context.temporal.workflow.getHandle(workflowId).query(alertsStateQuery);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError)
      return {
        open: [],
        recentlyResolved: [],
        raisedTotal: 0,
        resolvedTotal: 0,
        runs: 0,
        since: new Date(context.now()).toISOString(),
      };
    throw error;
  }
}
