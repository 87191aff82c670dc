/** The messages of the incident store (ops/alerts). The name strings are part of recorded histories: they never change. */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type {
  AlertsState,
  Incident,
  IncidentAction,
  ResolvedIncident,
  RaiseAlertAnswer,
  RaiseAlertRequest,
  ResolveAlertAnswer,
  ResolveAlertRequest,
} from './types';

/** Opens an incident (or counts one more occurrence of an open one); answers whether this raise notifies. */
export const raiseAlertUpdate = defineUpdate<RaiseAlertAnswer, [RaiseAlertRequest]>('raiseAlert');
/** Closes an open incident; answers whether it was open (then the caller sends the resolved notice). */
export const resolveAlertUpdate = defineUpdate<ResolveAlertAnswer, [ResolveAlertRequest]>('resolveAlert');
export const alertsStateQuery = defineQuery<AlertsState>('alertsState');
/** Someone on call takes an open incident (who and why); answers it as it stands now. */
export const acknowledgeIncidentUpdate = defineUpdate<Incident, [IncidentAction]>('acknowledgeIncident');
/** Someone closes an open incident by hand (who and why); answers it as resolved. */
export const resolveIncidentUpdate = defineUpdate<ResolvedIncident, [IncidentAction]>('resolveIncident');
