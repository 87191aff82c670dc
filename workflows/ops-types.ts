/**
 * Moved: the operations processes' types and pure rules live in operations/ (alerts/, gas-monitor/, reconcile/),
 * the incident store's workflow ID in src/domain/ids.ts. Re-exported for the importers not yet moved.
 */
export { DEFAULT_ALERTS_WORKFLOW_ID as ALERTS_WORKFLOW_ID } from '../src/domain/ids';
export { incidentKey, RESOLVED_KEPT } from './operations/alerts/incidents';
export type {
  AlertsInput,
  AlertsState,
  Incident,
  RaiseAlertAnswer,
  RaiseAlertRequest,
  ResolveAlertAnswer,
  ResolveAlertRequest,
  ResolvedIncident,
} from './operations/alerts/types';
export {
  DEFAULT_GAS_NETWORKS,
  type GasAssessment,
  type GasMonitorInput,
  type GasMonitorResult,
} from './operations/gas-monitor/types';
export { findingsTable } from './operations/reconcile/findings';
export type {
  ReconcileFinding,
  ReconcileFindingKind,
  ReconcileInput,
  ReconcileResult,
} from './operations/reconcile/types';
