import express from 'express';
import request from 'supertest';
import { requestLogger } from '../../../src/http/request-logging';
import { captureLines } from '../../helpers/logs';

function appLoggingTo(logger: Parameters<typeof requestLogger>[0]) {
  const app = express();
  app.use(requestLogger(logger));
  app.get('/healthz', (_req, res) => res.json({ ok: true }));
  app.get('/v1/end-users/:id', (_req, res) => res.json({ ok: true }));
  app.post('/webhooks/transactions/:secret', (_req, res) => res.status(404).json({ error: 'not found' }));
  app.get('/boom', (_req, res) => res.status(500).json({ error: 'internal' }));
  return app;
}

describe('request logs', () => {
  test('one line per request: method, path without query, status and duration, at a level by status', async () => {
    const { logger, lines } = captureLines();
    const app = appLoggingTo(logger);
    await request(app).get('/v1/end-users/user-42?token=abc').expect(200);
    await request(app).get('/boom').expect(500);
    const [ok, failed] = lines();
    expect(ok).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/v1/end-users/user-42' },
      res: { statusCode: 200 },
    });
    expect(typeof ok!.responseTime).toBe('number');
    expect(failed).toMatchObject({ level: 50, res: { statusCode: 500 }, req: { url: '/boom' } });
    expect(JSON.stringify(lines())).not.toContain('token=abc');
  });

  test("a webhook's secret path segment never reaches the line; health probes are not logged", async () => {
    const { logger, lines } = captureLines();
    const app = appLoggingTo(logger);
    await request(app).get('/healthz').expect(200);
    await request(app).post('/webhooks/transactions/s3cr3t-value').send({}).expect(404);
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatchObject({
      level: 40,
      req: { method: 'POST', url: '/webhooks/transactions/[REDACTED]' },
      res: { statusCode: 404 },
    });
    expect(JSON.stringify(lines())).not.toContain('s3cr3t-value');
  });

  test('at warn, a 2xx writes nothing and a 4xx still does', async () => {
    const { logger, lines } = captureLines();
    logger.level = 'warn';
    const app = appLoggingTo(logger);
    await request(app).get('/v1/end-users/user-42').expect(200);
    await request(app).post('/webhooks/orders/another-secret').send({}).expect(404);
    expect(lines().map((line) => line.res)).toEqual([{ statusCode: 404 }]);
  });
});
