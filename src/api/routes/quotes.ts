import { Router } from 'express';
import { quoteRequestSchema } from '../../client/quote-input';
import { parseInput } from '../errors';
import type { RampApi, TemporalCall } from '../types';

/** POST /v1/quotes: `{ direction, coinFrom, coinTo, chainTo | chainFrom, amountFrom }` -> `{ targetAmount, expiresAt, ... }`. */
export function quotesRouter(ramp: RampApi, call: TemporalCall): Router {
  const router = Router();
  router.post('/v1/quotes', async (req, res) => {
    const request = parseInput(quoteRequestSchema, req.body, 'quote request');
    res.status(200).json({ data: await call(() => ramp.quote(request)) });
  });
  return router;
}
