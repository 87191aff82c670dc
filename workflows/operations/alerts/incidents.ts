/**
 * Pure rules of the incident store: the key of an incident (the ledger's store and the workflow's alike) and a
 * person's action's checks; then, for the workflow runs that still hold incidents in their state (a 1.0 replay),
 * opening, counting and closing them, and what such a run shows (current details, search attributes). Workflow-safe:
 * no I/O, no Temporal calls, no clock (`now` is passed in). The reducers change the state they are handed in place:
 * the state query returns that same object.
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { Networks, RampStatus } from '../../../src/domain/search-attributes';
import type {
  AlertInput,
  AlertsInput,
  AlertsState,
  Incident,
  IncidentAction,
  ResolvedIncident,
  RaiseAlertAnswer,
  RaiseAlertRequest,
  ResolveAlertAnswer,
  ResolveAlertRequest,
} from './types';

/** How many resolved incidents the store keeps (newest first). */
export const RESOLVED_KEPT = 50;

/** What one run hands to the next when it continues as new. */
export type CarriedAlertsState = NonNullable<AlertsInput['carried']>;

/** Kinds with one incident per subject and reason: a ramp's exceptions (other kinds' reasons only describe). */
const KINDS_BY_REASON: readonly string[] = ['ramp-exception'];

/**
 * One incident per key: kind + deposit (a stranded deposit), kind + wallet + network (funds nobody accounts for),
 * or kind + network (the gas wallet), and for a ramp's exceptions the reason too. A second raise with the same key
 * only updates `lastSeen`.
 */
export function incidentKey(kind: string, details: AlertInput['details']): string {
  const text = (name: string) =>
    typeof details[name] === 'string' && details[name] !== '' ? details[name] : null;
  const reason = KINDS_BY_REASON.includes(kind) ? text('reason') : null;
  return reason ? `${subjectKey(kind, text)}/${reason}` : subjectKey(kind, text);
}

function subjectKey(kind: string, text: (name: string) => string | null): string {
  // Outcome events a client endpoint did not take are one incident per endpoint, however many events it missed.
  const endpoint = text('endpoint');
  if (endpoint) return `${kind}/endpoint/${endpoint}`;
  // An undelivered outcome event of a run from before the ledger: one incident per event.
  const webhookId = text('webhookId');
  if (webhookId) return `${kind}/event/${webhookId}`;
  const deposit = text('depositTransactionId');
  if (deposit) return `${kind}/deposit/${deposit}`;
  const wallet = text('walletId');
  const network = text('network');
  if (wallet) return `${kind}/wallet/${wallet}${network ? `/${network}` : ''}`;
  if (network) return `${kind}/${network}`;
  // A wallet's owner (end-user/<id>, account-setup) or a closed process: one incident each.
  const owner = text('walletOwner') ?? text('process');
  if (owner) return `${kind}/${owner}`;
  return kind;
}

/** The state of a new run: the carried incidents and counters, one more run, `since` kept from the first run. */
export function newAlertsState(carried: CarriedAlertsState | undefined, now: string): AlertsState {
  return {
    open: carried?.open ?? [],
    recentlyResolved: carried?.recentlyResolved ?? [],
    raisedTotal: carried?.raisedTotal ?? 0,
    resolvedTotal: carried?.resolvedTotal ?? 0,
    runs: (carried?.runs ?? 0) + 1,
    since: carried?.since ?? now,
  };
}

export function carriedState(state: AlertsState): CarriedAlertsState {
  return {
    open: state.open,
    recentlyResolved: state.recentlyResolved,
    raisedTotal: state.raisedTotal,
    resolvedTotal: state.resolvedTotal,
    runs: state.runs,
    since: state.since,
  };
}

/**
 * Opens an incident for the request's key, or counts one more occurrence of the open one. Only the raise that
 * opened it (and its retries, same requestId) is told to notify.
 */
export function raise(state: AlertsState, request: RaiseAlertRequest, now: string): RaiseAlertAnswer {
  const open = state.open.find((incident) => incident.key === request.key);
  if (open) {
    open.lastSeen = now;
    open.occurrences += 1;
    open.lastWorkflowId = request.workflowId;
    open.details = request.details;
    return {
      key: open.key,
      isNew: false,
      notify: open.openedBy === request.requestId,
      occurrences: open.occurrences,
    };
  }
  const text = (name: string) => (typeof request.details[name] === 'string' ? request.details[name] : null);
  const incident: Incident = {
    key: request.key,
    kind: request.kind,
    network: text('network'),
    depositTransactionId: text('depositTransactionId'),
    message: request.message,
    workflowId: request.workflowId,
    lastWorkflowId: request.workflowId,
    details: request.details,
    firstSeen: now,
    lastSeen: now,
    occurrences: 1,
    openedBy: request.requestId,
  };
  state.open.push(incident);
  state.raisedTotal += 1;
  return { key: incident.key, isNew: true, notify: true, occurrences: 1 };
}

/**
 * Closes the open incident of the request's key and keeps it among the recently resolved. With none open, only
 * a retry of the resolve that closed it notifies again (its webhook may have failed).
 */
export function resolve(state: AlertsState, request: ResolveAlertRequest, now: string): ResolveAlertAnswer {
  const index = state.open.findIndex((incident) => incident.key === request.key);
  if (index < 0) {
    const resolved = state.recentlyResolved.find(
      (incident) => incident.key === request.key && incident.resolvedBy === request.requestId,
    );
    return {
      key: request.key,
      wasOpen: false,
      notify: !!resolved,
      ...(resolved ? { incident: resolved } : {}),
    };
  }
  const [incident] = state.open.splice(index, 1) as [Incident];
  state.recentlyResolved.unshift({
    ...incident,
    resolvedAt: now,
    resolution: request.resolution,
    resolvedBy: request.requestId,
  });
  state.recentlyResolved.splice(RESOLVED_KEPT);
  state.resolvedTotal += 1;
  return { key: request.key, wasOpen: true, notify: true, incident };
}

/** Longest `by` and `reason` of a person's action: a name and a sentence, never a document. */
export const ACTION_LIMITS = { by: 100, reason: 500 } as const;

/** Failure types of a refused action, for the typed client: an incident that is not open, or a bad request. */
export const INCIDENT_NOT_OPEN = 'IncidentNotOpen';
export const INVALID_INCIDENT_ACTION = 'InvalidIncidentAction';

/** Why a person's action cannot be taken (who or why missing, or the incident is not open), or undefined. */
export function incidentActionIssue(
  state: AlertsState,
  action: IncidentAction,
): { type: typeof INCIDENT_NOT_OPEN | typeof INVALID_INCIDENT_ACTION; message: string } | undefined {
  const invalid = (message: string) => ({ type: INVALID_INCIDENT_ACTION, message }) as const;
  if (!action || typeof action.key !== 'string' || action.key === '') return invalid('key: required');
  for (const field of ['by', 'reason'] as const) {
    const value = action[field];
    if (typeof value !== 'string' || value.trim() === '') return invalid(`${field}: required`);
    if (value.length > ACTION_LIMITS[field])
      return invalid(`${field}: at most ${ACTION_LIMITS[field]} characters`);
  }
  if (!state.open.some((incident) => incident.key === action.key))
    return { type: INCIDENT_NOT_OPEN, message: `No open incident ${action.key}` };
  return undefined;
}

/** Marks an open incident as taken by someone (a second acknowledgement replaces the first). */
export function acknowledge(state: AlertsState, action: IncidentAction, now: string): Incident {
  const incident = state.open.find((candidate) => candidate.key === action.key)!;
  incident.acknowledged = { by: action.by.trim(), reason: action.reason.trim(), at: now };
  return incident;
}

/** Closes an open incident by hand; should its cause persist, the next raise opens a new one. */
export function resolveByPerson(state: AlertsState, action: IncidentAction, now: string): ResolvedIncident {
  const by = action.by.trim();
  resolve(state, { key: action.key, requestId: `person/${by}`, resolution: action.reason.trim() }, now);
  return state.recentlyResolved[0]!;
}

/** The Web UI's current details: the open incidents, or an all-clear line with the totals. */
export function currentDetails(state: AlertsState): string {
  if (state.open.length === 0) {
    return `All clear: no open incidents (${state.raisedTotal} raised, ${state.resolvedTotal} resolved since ${state.since})`;
  }
  const lines = state.open.map(
    (incident) =>
      `- ${incident.key}: ${incident.message} (first ${incident.firstSeen}, last ${incident.lastSeen}, x${incident.occurrences})` +
      (incident.acknowledged
        ? ` acknowledged by ${incident.acknowledged.by}: ${incident.acknowledged.reason}`
        : ''),
  );
  return `${state.open.length} open incident(s):\n${lines.join('\n')}`;
}

/** RampStatus `incidents-open` or `all-clear`; RampNetworks the networks with an open incident, each once. */
export function searchAttributes(state: AlertsState): SearchAttributeUpdatePair[] {
  const networks = [
    ...new Set(
      state.open.map((incident) => incident.network).filter((network): network is string => !!network),
    ),
  ];
  return [
    { key: RampStatus, value: state.open.length > 0 ? 'incidents-open' : 'all-clear' },
    { key: Networks, value: networks },
  ];
}
