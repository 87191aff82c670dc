import { Router } from 'express';
import { parseInput } from '../errors';
import { incidentActionSchema } from '../schemas';
import type { RampApi, TemporalCall } from '../types';

/**
 * GET /v1/alerts: the open incidents (kind, network, first/last seen, details, who acknowledged them) and the
 * recently resolved ones. POST /v1/alerts/acknowledge and /v1/alerts/resolve: someone on call takes an open incident,
 * or closes it by hand, with who and why (`{ key, by, reason }`; the key as GET lists it, slashes and all).
 */
export function alertsRouter(ramp: RampApi, call: TemporalCall): Router {
  const router = Router();
  router.get('/v1/alerts', async (_req, res) => {
    res.status(200).json({ data: await call(() => ramp.listAlerts()) });
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
