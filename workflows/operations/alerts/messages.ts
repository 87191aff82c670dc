/** The messages of the incident store (ops/alerts). The name strings are part of recorded histories: they never change. */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type {
  AlertsState,
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
