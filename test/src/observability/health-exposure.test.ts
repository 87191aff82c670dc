/**
 * Who may read /metrics and the /readyz details: the metrics token, or anyone only on a server bound to loopback.
 * And what a scrape costs: the ledger's figures read once per TTL, one read at a time; a ledger away is a figure.
 */
import express from 'express';
import request from 'supertest';
import { SecretString } from '../../../src/secrets/secret-string';
import { healthRouter, type HealthRouterOptions } from '../../../src/observability/health';
import { RampMetrics } from '../../../src/observability/metrics';
import { openDatabase } from '../../../src/database/connection';
import { raiseIncident } from '../../../src/ledger/incidents';
import { freshTestDatabase } from '../../helpers/database';

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
  test("the ledger's figures are shared by concurrent scrapes and reused for the TTL", async () => {
    const database = await freshTestDatabase();
    try {
      const raise = (network: string) =>
        raiseIncident(database.db, {
          key: `gas-low/${network}`,
          requestId: network,
          kind: 'gas-low',
          message: 'low',
          workflowId: 'ops/gas-monitor',
          details: { network },
        });
      for (let index = 0; index < 7; index += 1) await raise(`n${index}`);
      const reads = jest.spyOn(database.db, 'selectFrom');
      const served = app({
        metrics: new RampMetrics({ ledger: database.db, cacheTtlMs: 500 }),
        bindHost: '127.0.0.1',
      });
      const gasLow = 'ramp_incidents_open{kind="gas-low",acknowledged="false"}';
      const scrapes = await Promise.all(Array.from({ length: 10 }, () => request(served).get('/metrics')));
      expect(scrapes.map((scrape) => scrape.status)).toEqual(Array(10).fill(200));
      expect(scrapes.every((scrape) => scrape.text.includes(`${gasLow} 7`))).toBe(true);
      // One read: three grouped counts (ramps, outcome events, open incidents).
      expect(reads).toHaveBeenCalledTimes(3);
      await raise('n7');
      await raise('n8');
      expect((await request(served).get('/metrics')).text).toContain(`${gasLow} 7`);
      expect(reads).toHaveBeenCalledTimes(3);
      await new Promise((resolve) => setTimeout(resolve, 600));
      const after = (await request(served).get('/metrics')).text;
      expect(after).toContain(`${gasLow} 9`);
      expect(after).toContain('ramp_incidents_open{kind="gas-low",acknowledged="true"} 0');
      expect(after).toContain('ramp_database_up 1');
      expect(reads).toHaveBeenCalledTimes(6);
    } finally {
      await database.close();
    }
  });

  test('a ledger that does not answer is ramp_database_up 0, promptly, and the scrape is still served', async () => {
    const away = openDatabase('postgres://ramp@127.0.0.1:1/nowhere', { applicationName: 'metrics test' });
    try {
      const served = app({ metrics: new RampMetrics({ ledger: away.db }), bindHost: '127.0.0.1' });
      const started = Date.now();
      const scrape = await request(served).get('/metrics');
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(scrape.status).toBe(200);
      expect(scrape.text).toContain('ramp_database_up 0');
      expect(scrape.text).toContain('ramp_webhook_deliveries_total');
    } finally {
      await away.close();
    }
  });
});
