import { Router } from 'express';
import { parseInput } from '../errors';
import { incidentActionSchema, incidentListQuerySchema } from '../schemas';
import type { RampApi, TemporalCall } from '../types';

/**
 * GET /v1/alerts: incidents newest first, a page at a time (the open ones, or `status=resolved`; `kind`, `limit`,
 * `pageToken`), each with its kind, network, first/last seen, details and who acknowledged it. POST /v1/alerts/acknowledge and /v1/alerts/resolve: someone on call takes an open incident,
 * or closes it by hand, with who and why (`{ key, by, reason }`; the key as GET lists it, slashes and all).
 */
export function alertsRouter(ramp: RampApi, call: TemporalCall): Router {
  const router = Router();
  router.get('/v1/alerts', async (req, res) => {
    const query = parseInput(incidentListQuerySchema, req.query, 'incident filter');
    const page = await call(() => ramp.listAlerts(query));
    res.status(200).json({ data: page.data, pagination: { nextPageToken: page.nextPageToken } });
  });
  router.post('/v1/alerts/acknowledge', async (req, res) => {
    const action = parseInput(incidentActionSchema, req.body, 'incident action');
    res.status(200).json({ data: await call(() => ramp.acknowledgeIncident(action)) });
  });
  router.post('/v1/alerts/resolve', async (req, res) => {
    const action = parseInput(incidentActionSchema, req.body, 'incident action');
    res.status(200).json({ data: await call(() => ramp.resolveIncident(action)) });
  });
  return router;
}
