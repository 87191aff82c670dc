import { Router } from 'express';
import { parseInput } from '../errors';
import {
  eventListQuerySchema,
  redeliveryJobParams,
  redeliveryRequestSchema,
  webhookIdParams,
} from '../schemas';
import type { RampApi, TemporalCall } from '../types';

/**
 * The events API: GET /v1/events (newest first, paged), GET /v1/events/{webhookId}, POST /v1/events/test (a signed
 * test.ping to every endpoint), POST /v1/events/redeliver (every event a filter matches, as one job: 202) and
 * GET /v1/events/redeliveries/{jobId} (its progress), POST /v1/events/{webhookId}/redeliver (one event again, 202).
 */
export function eventsRouter(ramp: RampApi, call: TemporalCall): Router {
  const router = Router();
  router.get('/v1/events', async (req, res) => {
    const query = parseInput(eventListQuerySchema, req.query, 'event filter');
    const page = await call(() => ramp.listEvents(query));
    res.status(200).json({ data: page.data, pagination: { nextPageToken: page.nextPageToken } });
  });
  router.post('/v1/events/test', async (_req, res) => {
    res.status(202).json({ data: await call(() => ramp.sendTestEvent()) });
  });
  router.post('/v1/events/redeliver', async (req, res) => {
    const filter = parseInput(redeliveryRequestSchema, req.body ?? {}, 'redelivery filter');
    res.status(202).json({ data: await call(() => ramp.startRedeliveryJob(filter)) });
  });
  router.get('/v1/events/redeliveries/:jobId', async (req, res) => {
    const { jobId } = parseInput(redeliveryJobParams, req.params, 'job ID');
    res.status(200).json({ data: await call(() => ramp.getRedeliveryJob(jobId)) });
  });
  router.get('/v1/events/:webhookId', async (req, res) => {
    const { webhookId } = parseInput(webhookIdParams, req.params, 'webhook ID');
    res.status(200).json({ data: await call(() => ramp.getEvent(webhookId)) });
  });
  router.post('/v1/events/:webhookId/redeliver', async (req, res) => {
    const { webhookId } = parseInput(webhookIdParams, req.params, 'webhook ID');
    res.status(202).json({ data: await call(() => ramp.redeliverEvent(webhookId)) });
  });
  return router;
}
