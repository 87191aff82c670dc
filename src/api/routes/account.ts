import { Router } from 'express';
import type { RampApi, TemporalCall } from '../types';

/** POST /v1/account/setup (runs or re-checks the setup), GET /v1/account (the recorded setup). */
export function accountRouter(ramp: RampApi, call: TemporalCall): Router {
  const router = Router();
  router.post('/v1/account/setup', async (_req, res) => {
    res.status(200).json({ data: await call(() => ramp.setupAccount()) });
  });
  router.get('/v1/account', async (_req, res) => {
    res.status(200).json({ data: await call(() => ramp.getAccount()) });
  });
  return router;
}
