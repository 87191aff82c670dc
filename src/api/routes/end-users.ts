import { Router } from 'express';
import { z } from 'zod';
import { endUserIdSchema } from '../../validation/identifiers';
import { parseInput } from '../errors';
import type { RampApi, TemporalCall } from '../types';

const params = z.object({ id: endUserIdSchema });

/** POST /v1/end-users/{id}/deposit-wallet, GET /v1/end-users/{id}. */
export function endUsersRouter(ramp: RampApi, call: TemporalCall): Router {
  const router = Router();
  router.post('/v1/end-users/:id/deposit-wallet', async (req, res) => {
    const { id } = parseInput(params, req.params, 'end user ID');
    res.status(200).json({ data: await call(() => ramp.ensureDepositWallet(id)) });
  });
  router.get('/v1/end-users/:id', async (req, res) => {
    const { id } = parseInput(params, req.params, 'end user ID');
    res.status(200).json({ data: await call(() => ramp.getEndUser(id)) });
  });
  return router;
}
