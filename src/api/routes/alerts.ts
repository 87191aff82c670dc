/**
 * The incidents: GET /v1/alerts pages them newest first (the open ones, or `status=resolved`; `kind`, `limit`,
 * `pageToken`), each with its kind, network, first/last seen, details and who acknowledged it; POST
 * /v1/alerts/acknowledge and /v1/alerts/resolve: someone on call takes an open incident, or closes it by hand, with
 * who and why (`{ key, by, reason }`, the key as GET lists it, slashes and all).
 */
import { z } from 'zod';
import { isoDateTime, nullableText, text } from '../../ledger/views';
import { ACTION_LIMITS } from '../../../workflows/operations/alerts/incidents';
import {
  ALERT_KINDS,
  type Incident,
  type ResolvedIncident,
} from '../../../workflows/operations/alerts/types';
import { component, describes, pageAnswer, pageOf, paging, statedText, storedText } from '../components';
import { endpoint, input } from '../endpoint';

const incidentShape = {
  key: text,
  kind: z.enum(ALERT_KINDS),
  network: nullableText,
  depositTransactionId: nullableText,
  message: text,
  workflowId: text,
  lastWorkflowId: text,
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  firstSeen: isoDateTime,
  lastSeen: isoDateTime,
  occurrences: z.number(),
  openedBy: text,
  acknowledged: z
    .strictObject({ by: text, reason: text, at: isoDateTime })
    .optional()
    .meta({ description: 'Who took it on call, why and when' }),
};
const incident = component(
  'Incident',
  describes<Incident>()(z.strictObject(incidentShape)),
  'An open incident',
);
const resolvedIncident = component(
  'ResolvedIncident',
  describes<ResolvedIncident>()(
    z.strictObject({ ...incidentShape, resolvedAt: isoDateTime, resolution: text, resolvedBy: text }),
  ),
  'A resolved incident: resolvedBy is `person/<who>` when someone closed it by hand',
);

/** The incident, who acts and why. */
const incidentAction = component(
  'IncidentAction',
  z.strictObject({
    key: storedText.min(1).max(500).meta({ description: "The incident's key, as GET /v1/alerts lists it" }),
    by: statedText.max(ACTION_LIMITS.by).meta({ description: 'Who acts (a name or handle)' }),
    reason: statedText.max(ACTION_LIMITS.reason).meta({ description: 'Why' }),
  }),
);

const incidentPage = component(
  'IncidentPage',
  pageOf(
    z.union([resolvedIncident, incident]),
    'Newest first: open ones by when they opened, resolved ones by when they were resolved',
  ),
  'One page of incidents, under 64 kB however many there are (a page of long incidents holds fewer than limit)',
);

const incidentFilter = z.strictObject({
  status: z.enum(['open', 'resolved']).optional().meta({ description: 'open (the default) or resolved' }),
  kind: z.enum(ALERT_KINDS).optional(),
  ...paging,
});

const action = input('incident action', incidentAction);

export const alertEndpoints = [
  endpoint({
    method: 'get',
    path: '/v1/alerts',
    operationId: 'listAlerts',
    summary:
      'Incidents, newest first, one page at a time: the open ones (the default) or the resolved ones, of one kind if asked; following nextPageToken lists each once',
    tag: 'Alerts',
    query: input('incident filter', incidentFilter),
    answers: {
      200: {
        schema: incidentPage,
        description: 'One page; pagination.nextPageToken is null on the last',
        bare: true,
      },
    },
    errors: [400, 404],
    handle: async ({ query }, ramp) => pageAnswer(await ramp.listAlerts(query)),
  }),
  endpoint({
    method: 'post',
    path: '/v1/alerts/acknowledge',
    operationId: 'acknowledgeIncident',
    summary: 'Someone on call takes an open incident: who and why',
    tag: 'Alerts',
    body: action,
    answers: { 200: { schema: incident, description: 'The incident, acknowledged' } },
    errors: [404],
    handle: ({ body }, ramp) => ramp.acknowledgeIncident(body),
  }),
  endpoint({
    method: 'post',
    path: '/v1/alerts/resolve',
    operationId: 'resolveIncident',
    summary: 'Someone closes an open incident by hand: who and why',
    tag: 'Alerts',
    body: action,
    answers: { 200: { schema: resolvedIncident, description: 'The incident, resolved' } },
    errors: [404],
    handle: ({ body }, ramp) => ramp.resolveIncident(body),
  }),
];
