import { Router } from 'express';
import type { RampApi } from '../types';

/** GET /v1/alerts: the open incidents (kind, network, first/last seen, details) and the recently resolved ones. */
export function alertsRouter(ramp: RampApi): Router {
  const router = Router();
  router.get('/v1/alerts', async (_req, res) => {
    res.status(200).json({ data: await ramp.listAlerts() });
  });
  return router;
}
