/**
 * The incident store stays bounded whatever the count: 10,000 outcome events a client endpoint never confirmed (the
 * real dispatcher against an endpoint answering 500) are one incident naming the count, and 3,000 ramp exceptions
 * (one incident each, legitimately) are listed by GET /v1/alerts a page at a time, every answer under 64 kB. No
 * Temporal: the incidents, and the decisions on them, are the ledger's.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import request from 'supertest';
import { createAlertActivities } from '../../../activities/operations/alerts/activities';
import { createApiApp } from '../../../src/api/app';
import { ledgerIdempotency } from '../../../src/api/idempotency';
import type { ClientContext } from '../../../src/client/context';
import { acknowledgeIncident, listAlerts, resolveIncident } from '../../../src/client/operations';
import type { RampApi } from '../../../src/api/types';
import { loadClientWebhookConfig } from '../../../src/config/client-webhooks';
import { outcomeWebhookId } from '../../../src/domain/outcome-events';
import { insertRaisedEvents, listEventViews } from '../../../src/ledger/outcome-events';
import { startDispatcher } from '../../../src/outcomes/dispatcher';
import { dispatcherIncidents, dispatcherRequestId } from '../../../src/outcomes/incidents';
import { SecretString } from '../../../src/secrets/secret-string';
import { testActivityConfig } from '../../helpers/activities';
import { freshTestDatabase, type TestDatabase } from '../../helpers/database';
import { waitFor } from '../../helpers/wait';

const API_KEY = 'api-key-incident-bounds-0123456789';
const LIMIT_BYTES = 64 * 1024;
const EVENTS = 10_000;
const EXCEPTIONS = 3_000;

describe('the incident store, bounded whatever the count', () => {
  let database: TestDatabase;
  let endpoint: http.Server;

  beforeAll(async () => {
    database = await freshTestDatabase();
    // The client's backend, down: every delivery answered 500.
    endpoint = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.statusCode = 500;
        res.end();
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => endpoint.close(resolve));
    await database.close();
  });

  test('10,000 undelivered events are one incident naming the count; 3,000 ramp exceptions page under 64 kB', async () => {
    const logger = pino({ level: 'silent' });
    // Each raise its own ramp's activity: a request of its own.
    const alerts = createAlertActivities({ logger, config: testActivityConfig(), ledger: database.db }, () =>
      randomUUID(),
    );

    // 10,000 processes' events, each given up at its first refusal (retry time 1 ms).
    for (let start = 0; start < EVENTS; start += 500)
      await Promise.all(
        Array.from({ length: Math.min(500, EVENTS - start) }, (_, index) => {
          const processId = `onramp/bounds-${start + index}`;
          return insertRaisedEvents(
            database.db,
            processId,
            [
              {
                webhookId: outcomeWebhookId(processId, 1),
                sequence: 1,
                event: {
                  type: 'on_ramp.created',
                  timestamp: new Date().toISOString(),
                  data: { workflowId: processId, endUserId: null, status: 'awaiting-order', step: 'created' },
                },
              },
            ],
            1,
          );
        }),
      );
    const clientWebhooks = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/hooks`,
      CLIENT_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    });
    const [label] = clientWebhooks.endpoints.map((entry) => entry.label) as [string];
    const dispatcher = startDispatcher({
      database,
      clientWebhooks,
      timings: { attemptTimeoutMs: 2_000, retryInitialMs: 1_000, retryMaximumMs: 1_000, retryForMs: 1 },
      logger,
      incidents: dispatcherIncidents(
        createAlertActivities(
          { logger, config: testActivityConfig(), ledger: database.db },
          dispatcherRequestId,
        ),
      ),
    });
    try {
      await waitFor(
        async () => {
          const pending = await listEventViews(database.db, { delivery: 'pending' }, 1);
          return pending.data.length === 0 ? true : undefined;
        },
        'every event given up',
        180_000,
        500,
      );
    } finally {
      await dispatcher.stop();
    }

    // 3,000 ramps, each with its exception: one incident each.
    for (let start = 0; start < EXCEPTIONS; start += 100)
      await Promise.all(
        Array.from({ length: 100 }, (_, index) =>
          alerts.raiseAlert({
            kind: 'ramp-exception',
            message: `The off-ramp of dep-${start + index} executed further from its quote than the tolerance`,
            workflowId: `offramp/dep-${start + index}`,
            details: {
              depositTransactionId: `dep-${start + index}`,
              reason: 'off_quote',
              endUserId: `user-${start + index}`,
              asset: 'USDT',
              amount: '1250.50',
            },
          }),
        ),
      );

    // The API's incident routes over the typed client's own functions, on this ledger.
    const context = { ledger: database.db } as ClientContext;
    const ramp = {
      listAlerts: (filter) => listAlerts(context, filter),
      acknowledgeIncident: (action) => acknowledgeIncident(context, action),
      resolveIncident: (action) => resolveIncident(context, action),
    } as Pick<RampApi, 'listAlerts' | 'acknowledgeIncident' | 'resolveIncident'> as RampApi;
    const app = createApiApp({
      ramp,
      idempotency: ledgerIdempotency(database.db),
      apiKey: new SecretString(API_KEY),
      logger,
    });
    const get = async (query: string) => {
      const answer = await request(app).get(`/v1/alerts${query}`).set('authorization', `Bearer ${API_KEY}`);
      expect(answer.status).toBe(200);
      expect(Buffer.byteLength(answer.text)).toBeLessThan(LIMIT_BYTES);
      return answer.body as {
        data: Array<{ key: string; kind: string; occurrences: number; message: string }>;
        pagination: { nextPageToken: string | null };
      };
    };

    // The endpoint's outage: one incident, counting every event it missed.
    const undelivered = await get('?kind=outcome-event-undelivered&limit=100');
    expect(undelivered.data).toHaveLength(1);
    expect(undelivered.data[0]).toMatchObject({
      key: `outcome-event-undelivered/endpoint/${label}`,
      occurrences: EVENTS,
    });
    expect(undelivered.data[0]!.message).toContain('occurrences counts them');

    // Every incident listed once, each page under 64 kB.
    const keys = new Set<string>();
    let pages = 0;
    let largest = 0;
    let token: string | null = null;
    do {
      const query: string = `?limit=100${token ? `&pageToken=${token}` : ''}`;
      const page = await get(query);
      largest = Math.max(largest, Buffer.byteLength(JSON.stringify(page)));
      for (const entry of page.data) keys.add(entry.key);
      token = page.pagination.nextPageToken;
      pages += 1;
    } while (token);
    expect(keys.size).toBe(EXCEPTIONS + 1);
    expect(pages).toBeGreaterThanOrEqual(Math.ceil((EXCEPTIONS + 1) / 100));
    expect(largest).toBeLessThan(LIMIT_BYTES);
    process.stdout.write(
      `[incident bounds] ${EVENTS} events given up -> 1 incident (occurrences ${EVENTS}); ` +
        `${EXCEPTIONS + 1} incidents in ${pages} pages, the largest ${largest} bytes\n`,
    );

    // A person's action on one of them answers one incident, bounded too.
    const action = await request(app)
      .post('/v1/alerts/acknowledge')
      .set('authorization', `Bearer ${API_KEY}`)
      .send({ key: `outcome-event-undelivered/endpoint/${label}`, by: 'ana', reason: 'calling the client' });
    expect(action.status).toBe(200);
    expect(Buffer.byteLength(action.text)).toBeLessThan(LIMIT_BYTES);
  }, 300_000);
});
