import { Router } from 'express';
import { parseInput } from '../errors';
import { offRampQuoteRequestSchema } from '../../client/quote-input';
import { endUserParams, newEndUserParams } from '../schemas';
import type { RampApi, TemporalCall } from '../types';

/**
 * POST /v1/end-users/{id}/deposit-wallet, POST /v1/end-users/{id}/deposit-quote (the quote shown for the user's next
 * deposit), GET /v1/end-users/{id} (with the user's ramps of both directions).
 */
export function endUsersRouter(ramp: RampApi, call: TemporalCall): Router {
  const router = Router();
  router.post('/v1/end-users/:id/deposit-wallet', async (req, res) => {
    const { id } = parseInput(newEndUserParams, req.params, 'end user ID');
    res.status(200).json({ data: await call(() => ramp.ensureDepositWallet(id)) });
  });
  router.post('/v1/end-users/:id/deposit-quote', async (req, res) => {
    const { id } = parseInput(newEndUserParams, req.params, 'end user ID');
    const quoteRequest = parseInput(offRampQuoteRequestSchema, req.body, 'quote request');
    res.status(200).json({ data: await call(() => ramp.showDepositQuote(id, { quoteRequest })) });
  });
  router.get('/v1/end-users/:id', async (req, res) => {
    const { id } = parseInput(endUserParams, req.params, 'end user ID');
    res.status(200).json({ data: await call(() => ramp.getEndUserOverview(id)) });
  });
  return router;
}
