import { Router } from 'express';
import { parseInput } from '../errors';
import {
  offRampParams,
  onRampParams,
  rampListQuerySchema,
  rampPageAnswer,
  startOnRampRequestSchema,
} from '../schemas';
import type { RampApi, TemporalCall } from '../types';

/**
 * POST /v1/on-ramps (idempotent by orderReference: 201 started or attributed, 200 already this user's or claimed
 * after it ended, 409 another user's or closed unclaimed),
 * GET /v1/on-ramps/{orderReference}, GET /v1/off-ramps/{depositTransactionId}, GET /v1/ramps (paged).
 */
export function rampsRouter(ramp: RampApi, call: TemporalCall): Router {
  const router = Router();
  router.post('/v1/on-ramps', async (req, res) => {
    const { endUserId, orderReference, quoteRequest } = parseInput(
      startOnRampRequestSchema,
      req.body,
      'on-ramp request',
    );
    const started = await call(() =>
      ramp.startOnRamp(endUserId, orderReference, quoteRequest ? { quoteRequest } : {}),
    );
    res.status(started.created ? 201 : 200).json({ data: started.state });
  });
  router.get('/v1/on-ramps/:orderReference', async (req, res) => {
    const { orderReference } = parseInput(onRampParams, req.params, 'order reference');
    res.status(200).json({ data: await call(() => ramp.getOnRamp(orderReference)) });
  });
  router.get('/v1/off-ramps/:depositTransactionId', async (req, res) => {
    const { depositTransactionId } = parseInput(offRampParams, req.params, 'deposit transaction ID');
    res.status(200).json({ data: await call(() => ramp.getOffRamp(depositTransactionId)) });
  });
  router.get('/v1/ramps', async (req, res) => {
    const query = parseInput(rampListQuerySchema, req.query, 'ramp filter');
    res.status(200).json(rampPageAnswer(await call(() => ramp.listRamps(query))));
  });
  return router;
}
