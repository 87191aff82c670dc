/**
 * Who may read /metrics and the /readyz details: the metrics token, or anyone only on a server bound to loopback.
 * And what a scrape costs: figures read from Temporal once per TTL, one read at a time, within a deadline.
 */
import express from 'express';
import request from 'supertest';
import { SecretString } from '../../../src/secrets/secret-string';
import { healthRouter, type HealthRouterOptions } from '../../../src/observability/health';
import { RampMetrics } from '../../../src/observability/metrics';

const TOKEN = 'metrics-token-0123456789abcdef';

function app(options: HealthRouterOptions) {
  const served = express();
  served.use(healthRouter(options));
  return served;
}

const failing = { name: 'temporal', check: () => Promise.reject(new Error('down')) };
const passing = { name: 'operator', check: () => Promise.resolve() };

describe('/metrics and /readyz exposure', () => {
  test('bound to loopback without a token: both open, with details', async () => {
    for (const bindHost of ['127.0.0.1', '::1', 'localhost', '127.0.0.2']) {
      const served = app({ metrics: new RampMetrics(), probes: [passing], bindHost });
      expect((await request(served).get('/metrics')).status).toBe(200);
      expect((await request(served).get('/readyz')).body).toEqual({
        status: 'ready',
        checks: { operator: 'ok' },
      });
    }
  });

  test('bound elsewhere without a token: /metrics refused, /readyz gives its verdict only', async () => {
    for (const bindHost of ['0.0.0.0', '::', '10.1.2.3', undefined]) {
      const served = app({
        metrics: new RampMetrics(),
        probes: [failing, passing],
        ...(bindHost ? { bindHost } : {}),
      });
      const metrics = await request(served).get('/metrics');
      expect(metrics.status).toBe(401);
      expect(metrics.headers['www-authenticate']).toBe('Bearer');
      expect(metrics.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
      expect(metrics.text).not.toContain('ramp_webhook_deliveries_total');
      const ready = await request(served).get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.headers['retry-after']).toMatch(/^\d+$/);
      expect(ready.body).toEqual({ status: 'unready' });
      expect((await request(served).get('/healthz')).status).toBe(200);
    }
  });

  test('with a token, wherever bound: details only with the bearer', async () => {
    for (const bindHost of ['0.0.0.0', '127.0.0.1']) {
      const served = app({
        metrics: new RampMetrics(),
        probes: [passing],
        metricsToken: new SecretString(TOKEN),
        bindHost,
      });
      expect((await request(served).get('/metrics')).status).toBe(401);
      expect((await request(served).get('/metrics').set('authorization', 'Bearer wrong')).status).toBe(401);
      const metrics = await request(served).get('/metrics').set('authorization', `Bearer ${TOKEN}`);
      expect(metrics.status).toBe(200);
      expect(metrics.text).toContain('# TYPE ramp_webhook_deliveries_total counter');
      expect((await request(served).get('/readyz')).body).toEqual({ status: 'ready' });
      expect((await request(served).get('/readyz').set('authorization', `Bearer ${TOKEN}`)).body).toEqual({
        status: 'ready',
        checks: { operator: 'ok' },
      });
    }
  });
});

describe('/metrics cost', () => {
  test('figures read from Temporal are shared by concurrent scrapes and reused for the TTL', async () => {
    let reads = 0;
    let now = 7;
    const openIncidents = async () => {
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return Array.from({ length: now }, () => ({ kind: 'gas-low' as const }));
    };
    const served = app({
      metrics: new RampMetrics({ openIncidents, cacheTtlMs: 300, timeoutMs: 2000 }),
      bindHost: '127.0.0.1',
    });
    const scrapes = await Promise.all(Array.from({ length: 10 }, () => request(served).get('/metrics')));
    expect(scrapes.map((scrape) => scrape.status)).toEqual(Array(10).fill(200));
    expect(
      scrapes.every((scrape) =>
        scrape.text.includes('ramp_incidents_open{kind="gas-low",acknowledged="false"} 7'),
      ),
    ).toBe(true);
    expect(reads).toBe(1);
    now = 9;
    expect((await request(served).get('/metrics')).text).toContain(
      'ramp_incidents_open{kind="gas-low",acknowledged="false"} 7',
    );
    expect(reads).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await request(served).get('/metrics')).text).toContain(
      'ramp_incidents_open{kind="gas-low",acknowledged="false"} 9',
    );
    expect(reads).toBe(2);
  });

  test('a Temporal figure that does not come within the deadline is a 503 with Retry-After, promptly', async () => {
    const never = () => new Promise<never>(() => undefined);
    const served = app({
      metrics: new RampMetrics({ openIncidents: never, timeoutMs: 300 }),
      bindHost: '127.0.0.1',
    });
    const started = Date.now();
    const scrape = await request(served).get('/metrics');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(scrape.status).toBe(503);
    expect(scrape.headers['retry-after']).toBe('1');
    expect(scrape.body).toEqual({ error: { code: 'temporarily_unavailable', message: expect.any(String) } });
  });
});
