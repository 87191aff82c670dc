/** ops/alerts: the incident store's alerts, incidents, state and the answers of its updates. */

/**
 * The kinds of alert: stranded deposits and timeouts (ramp processes), the gas monitor's `gas-low`,
 * reconciliation's `unaccounted-funds`, wallets the operator may hold besides the one shown (`extra-wallet`), and
 * money that moved after its process gave up (`late-event-after-timeout`), outcome events the client's backend
 * was never told (`outcome-event-undelivered`), a ramp's exception by name (`ramp-exception`, its reason in the
 * details) and an on-ramp nobody claimed within its claim window (`unclaimed-on-ramp`).
 */
export const ALERT_KINDS = [
  'gas-shortfall',
  'sweep-not-started',
  'process-timed-out',
  'gas-low',
  'unaccounted-funds',
  'extra-wallet',
  'late-event-after-timeout',
  'outcome-event-undelivered',
  'ramp-exception',
  'unclaimed-on-ramp',
  'ledger-unavailable',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export interface AlertInput {
  kind: AlertKind;
  message: string;
  workflowId: string;
  details: Record<string, string | number | boolean | null>;
}

export interface Incident {
  key: string;
  kind: AlertInput['kind'];
  network: string | null;
  depositTransactionId: string | null;
  message: string;
  /** The workflow that raised it first, and the one that raised it last. */
  workflowId: string;
  lastWorkflowId: string;
  details: AlertInput['details'];
  firstSeen: string;
  lastSeen: string;
  occurrences: number;
  /** The raise that opened it: its retries notify again (the webhook may have failed), nobody else does. */
  openedBy: string;
  /** Someone on call took it: who, why and when (absent until then). */
  acknowledged?: PersonNote;
}

export interface ResolvedIncident extends Incident {
  resolvedAt: string;
  resolution: string;
  /** The request that closed it: the process whose cause cleared, or `person/<who>` when someone closed it. */
  resolvedBy: string;
}

/** Who did something to an incident by hand, why, and when. */
export interface PersonNote {
  by: string;
  reason: string;
  at: string;
}

/** An incident acknowledged or resolved by a person (the API, the typed client): who and why. */
export interface IncidentAction {
  key: string;
  by: string;
  reason: string;
}

export interface AlertsState {
  open: Incident[];
  /** The last RESOLVED_KEPT resolved incidents, newest first. */
  recentlyResolved: ResolvedIncident[];
  raisedTotal: number;
  resolvedTotal: number;
  runs: number;
  since: string;
}

export interface AlertsInput {
  carried?: Omit<AlertsState, 'runs'> & { runs: number };
}

export interface RaiseAlertRequest extends AlertInput {
  key: string;
  /** workflowId/runId/activityId of the raising activity: the same across its retries. */
  requestId: string;
}

export interface RaiseAlertAnswer {
  key: string;
  isNew: boolean;
  /** True for the raise that opened the incident (and its retries): only it notifies the sinks. */
  notify: boolean;
  occurrences: number;
}

export interface ResolveAlertRequest {
  key: string;
  requestId: string;
  resolution: string;
}

export interface ResolveAlertAnswer {
  key: string;
  wasOpen: boolean;
  notify: boolean;
  incident?: Incident;
}
