/** Operations seen from the client: the incident store, in the ledger (src/ledger/incidents.ts). */
import { ALERT_KINDS } from '../../workflows/operations/alerts/types';
import { ACTION_LIMITS } from '../../workflows/operations/alerts/incidents';
import type { Incident, IncidentAction, ResolvedIncident } from '../../workflows/operations/alerts/types';
import {
  acknowledgeIncident as acknowledgeInLedger,
  type IncidentQuery,
  type IncidentStatus,
  listIncidents,
  resolveIncidentByPerson,
} from '../ledger/incidents';
import type { ClientContext } from './context';
import { InvalidInputError, NotFoundError } from './errors';
import { openPageToken, PAGE_TOKEN, sealPageToken } from './page-token';

export interface IncidentListFilter {
  /** open (the default) or resolved. */
  status?: string;
  /** One kind of incident (ALERT_KINDS). */
  kind?: string;
  /** Page size, 1 to 100 (default 20); a page of long incidents may hold fewer. */
  limit?: number;
  /** The `nextPageToken` of the previous page, with the same filter. */
  pageToken?: string;
}

export interface IncidentPage {
  /** Newest first: open incidents by when they opened, resolved ones by when they were resolved. */
  data: Array<Incident | ResolvedIncident>;
  nextPageToken: string | null;
}

const STATUSES: readonly IncidentStatus[] = ['open', 'resolved'];
const CURSOR_KEYS = ['at', 'id'] as const;

/**
 * One page of incidents, newest first; following `nextPageToken` with the same filter lists each once. Every page
 * stays under the store's page budget however many incidents there are.
 */
export async function listAlerts(
  context: ClientContext,
  filter: IncidentListFilter = {},
): Promise<IncidentPage> {
  const issues: string[] = [];
  const status = filter.status ?? 'open';
  if (!(STATUSES as readonly string[]).includes(status))
    issues.push(`status: must be one of ${STATUSES.join(', ')}`);
  if (filter.kind !== undefined && !(ALERT_KINDS as readonly string[]).includes(filter.kind))
    issues.push(`kind: must be one of ${ALERT_KINDS.join(', ')}`);
  const limit = filter.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    issues.push('limit: must be an integer from 1 to 100');
  if (filter.pageToken !== undefined && !PAGE_TOKEN.test(filter.pageToken))
    issues.push('pageToken: must be a nextPageToken this API answered');
  if (issues.length > 0) throw new InvalidInputError('Invalid incident filter', issues);
  const query: IncidentQuery = {
    status: status as IncidentStatus,
    ...(filter.kind !== undefined ? { kind: filter.kind } : {}),
  };
  const after =
    filter.pageToken === undefined ? undefined : openPageToken(filter.pageToken, query, CURSOR_KEYS);
  const page = await listIncidents(context.ledger, query, limit, after);
  return { data: page.data, nextPageToken: page.next ? sealPageToken({ ...page.next }, query) : null };
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

/** Someone on call takes an open incident (who and why); answers it as it stands. */
export async function acknowledgeIncident(context: ClientContext, action: IncidentAction): Promise<Incident> {
  const checked = checkedAction(action);
  const incident = await acknowledgeInLedger(context.ledger, checked);
  if (!incident) throw new NotFoundError(`No open incident ${checked.key}`);
  return incident;
}

/** Someone closes an open incident by hand (who and why); answers it as resolved. */
export async function resolveIncident(
  context: ClientContext,
  action: IncidentAction,
): Promise<ResolvedIncident> {
  const checked = checkedAction(action);
  const incident = await resolveIncidentByPerson(context.ledger, checked);
  if (!incident) throw new NotFoundError(`No open incident ${checked.key}`);
  return incident;
}
