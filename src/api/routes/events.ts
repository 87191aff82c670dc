import { Router } from 'express';
import { parseInput } from '../errors';
import { webhookIdParams } from '../schemas';
import type { RampApi, TemporalCall } from '../types';

/** POST /v1/events/{webhookId}/redeliver: sends one outcome event again with the same webhook-id (202). */
export function eventsRouter(ramp: RampApi, call: TemporalCall): Router {
  const router = Router();
  router.post('/v1/events/:webhookId/redeliver', async (req, res) => {
    const { webhookId } = parseInput(webhookIdParams, req.params, 'webhook ID');
    res.status(202).json({ data: await call(() => ramp.redeliverEvent(webhookId)) });
  });
  return router;
}
