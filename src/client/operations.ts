/** Operations seen from the client: the incident store (processIds.alertsWorkflowId). */
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ACTION_LIMITS, INCIDENT_NOT_OPEN } from '../../workflows/operations/alerts/incidents';
import {
  acknowledgeIncidentUpdate,
  alertsStateQuery,
  resolveIncidentUpdate,
} from '../../workflows/operations/alerts/messages';
import type {
  AlertsState,
  Incident,
  IncidentAction,
  ResolvedIncident,
} from '../../workflows/operations/alerts/types';
import type { ClientContext } from './context';
import { InvalidInputError, NotFoundError } from './errors';

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

/** Who acts on an incident and why: both required, bounded, trimmed. */
function checkedAction(action: IncidentAction): IncidentAction {
  const issues: string[] = [];
  if (typeof action?.key !== 'string' || action.key === '') issues.push('key: required');
  for (const field of ['by', 'reason'] as const) {
    const value = action?.[field];
    if (typeof value !== 'string' || value.trim() === '') issues.push(`${field}: required`);
    else if (value.trim().length > ACTION_LIMITS[field])
      issues.push(`${field}: at most ${ACTION_LIMITS[field]} characters`);
  }
  if (issues.length > 0) throw new InvalidInputError('Invalid incident action', issues);
  return { key: action.key, by: action.by.trim(), reason: action.reason.trim() };
}

/** One person's action through the store's update; an incident that is not open is a NotFoundError. */
async function act<T>(
  context: ClientContext,
  action: IncidentAction,
  update: typeof acknowledgeIncidentUpdate | typeof resolveIncidentUpdate,
  options: { workflowId?: string },
): Promise<T> {
  const checked = checkedAction(action);
  const workflowId = options.workflowId ?? context.processIds.alertsWorkflowId;
  try {
    return (await context.temporal.workflow.getHandle(workflowId).executeUpdate(update, {
      args: [checked],
    })) as T;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) throw new NotFoundError(`No open incident ${checked.key}`);
    const cause = error instanceof WorkflowUpdateFailedError ? error.cause : undefined;
    if (cause instanceof ApplicationFailure) {
      if (cause.type === INCIDENT_NOT_OPEN) throw new NotFoundError(cause.message);
      throw new InvalidInputError('Invalid incident action', [cause.message]);
    }
    throw error;
  }
}

/** Someone on call takes an open incident (who and why); answers it as it stands. */
export function acknowledgeIncident(
  context: ClientContext,
  action: IncidentAction,
  options: { workflowId?: string } = {},
): Promise<Incident> {
  return act<Incident>(context, action, acknowledgeIncidentUpdate, options);
}

/** Someone closes an open incident by hand (who and why); answers it as resolved. */
export function resolveIncident(
  context: ClientContext,
  action: IncidentAction,
  options: { workflowId?: string } = {},
): Promise<ResolvedIncident> {
  return act<ResolvedIncident>(context, action, resolveIncidentUpdate, options);
}
