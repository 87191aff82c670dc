import { Router } from 'express';
import type { RampApi, TemporalCall } from '../types';

/** GET /v1/alerts: the open incidents (kind, network, first/last seen, details) and the recently resolved ones. */
export function alertsRouter(ramp: RampApi, call: TemporalCall): Router {
  const router = Router();
  router.get('/v1/alerts', async (_req, res) => {
    res.status(200).json({ data: await call(() => ramp.listAlerts()) });
  });
  return router;
}
