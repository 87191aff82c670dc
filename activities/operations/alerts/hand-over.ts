/**
 * The incident store workflow's way into the ledger (workflows/operations/alerts/workflow.ts): a run from before the
 * ledger held the incidents hands over the ones it holds, then forwards each request it is still sent (by the
 * activities of workflows still running an older version) to the ledger, answering as the store always answered.
 * The notices stay with the activity that raised: it is told whether to send them.
 */
import { ApplicationFailure } from '@temporalio/activity';
import {
  acknowledgeIncident,
  raiseIncident,
  resolveIncident,
  resolveIncidentByPerson,
  takeOverIncidents,
} from '../../../src/ledger/incidents';
import { INCIDENT_NOT_OPEN } from '../../../workflows/operations/alerts/incidents';
import type {
  Incident,
  IncidentAction,
  RaiseAlertAnswer,
  RaiseAlertRequest,
  ResolveAlertAnswer,
  ResolveAlertRequest,
  ResolvedIncident,
} from '../../../workflows/operations/alerts/types';
import type { ActivityDeps } from '../../deps';

const notOpen = (key: string) =>
  ApplicationFailure.create({
    type: INCIDENT_NOT_OPEN,
    message: `No open incident ${key}`,
    nonRetryable: true,
  });

export function createIncidentHandOverActivities({
  ledger,
  logger,
}: Pick<ActivityDeps, 'ledger' | 'logger'>) {
  return {
    /** The incidents a store run held, taken into the ledger as they were (idempotent). */
    async takeOverIncidents(held: {
      open: Incident[];
      recentlyResolved: ResolvedIncident[];
    }): Promise<{ open: number; resolved: number }> {
      const taken = await takeOverIncidents(ledger, held);
      logger.info(
        { incidentsTakenOver: taken },
        'The incident store workflow handed its incidents to the ledger',
      );
      return taken;
    },
    forwardRaiseAlert(request: RaiseAlertRequest): Promise<RaiseAlertAnswer> {
      return raiseIncident(ledger, request);
    },
    forwardResolveAlert(request: ResolveAlertRequest): Promise<ResolveAlertAnswer> {
      return resolveIncident(ledger, request);
    },
    async forwardAcknowledgeIncident(action: IncidentAction): Promise<Incident> {
      return (await acknowledgeIncident(ledger, action)) ?? Promise.reject(notOpen(action.key));
    },
    async forwardResolveIncident(action: IncidentAction): Promise<ResolvedIncident> {
      return (await resolveIncidentByPerson(ledger, action)) ?? Promise.reject(notOpen(action.key));
    },
  };
}
