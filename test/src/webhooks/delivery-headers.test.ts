import express from 'express';
import request from 'supertest';
import { healthRouter } from '../../../src/observability/health';
import { SecretString } from '../../../src/secrets/secret-string';
import {
  DELIVERIES_KEPT_PER_KIND,
  DeliveryHeaderLog,
  looksLikeSignature,
} from '../../../src/webhooks/delivery-headers';
import { captureLines } from '../../helpers/logs';

describe('the header names of deliveries', () => {
  test('names only, of the first deliveries of each kind; later ones change nothing', () => {
    const log = new DeliveryHeaderLog();
    log.record('transaction-created', ['Content-Type', 'User-Agent', 'X-Request-Id']);
    log.record('transaction-created', ['content-type', 'x-trace']);
    for (let index = 0; index < DELIVERIES_KEPT_PER_KIND; index += 1)
      log.record('order-updated', ['content-type', `x-late-${index}`]);
    log.record('order-updated', ['content-type', 'x-after-the-first-five']);
    log.record('transaction-created', ['not a header name', 'x-'.padEnd(200, 'a')]);
    expect(log.report()).toEqual({
      'transaction-created': {
        deliveries: 3,
        headerNames: ['content-type', 'user-agent', 'x-'.padEnd(60, 'a'), 'x-request-id', 'x-trace'],
        signatureLike: [],
      },
      'order-updated': {
        deliveries: DELIVERIES_KEPT_PER_KIND,
        headerNames: ['content-type', 'x-late-0', 'x-late-1', 'x-late-2', 'x-late-3', 'x-late-4'],
        signatureLike: [],
      },
    });
  });

  test('a name that looks like a signature is reported, with one warning per kind', () => {
    for (const name of [
      'X-Hub-Signature-256',
      'stripe-signature',
      'webhook-signature',
      'x-sig',
      'x-hmac-sha256',
      'digest',
      'authorization',
    ])
      expect(looksLikeSignature(name)).toBe(true);
    for (const name of ['content-type', 'x-signal-id', 'user-agent', 'x-sandbox-attempt', 'webhook-id'])
      expect(looksLikeSignature(name)).toBe(false);
    const { logger, lines } = captureLines();
    const log = new DeliveryHeaderLog(logger);
    log.record('transaction-updated', ['content-type', 'x-operator-signature']);
    log.record('transaction-updated', ['content-type', 'x-operator-signature']);
    expect(log.report()['transaction-updated']!.signatureLike).toEqual(['x-operator-signature']);
    const warnings = lines().filter((line) => String(line.msg).includes('looks like a signature'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ kind: 'transaction-updated', headers: ['x-operator-signature'] });
  });

  test("/readyz's details carry them, and only for whoever may read the details", async () => {
    const log = new DeliveryHeaderLog();
    log.record('order-created', ['content-type']);
    const served = express().use(
      healthRouter({
        probes: [],
        bindHost: '0.0.0.0',
        metricsToken: new SecretString('metrics-token-0123456789abcdef'),
        details: () => ({ deliveryHeaders: log.report() }),
      }),
    );
    expect((await request(served).get('/readyz')).body).toEqual({ status: 'ready' });
    const detailed = await request(served)
      .get('/readyz')
      .set('authorization', 'Bearer metrics-token-0123456789abcdef');
    expect(detailed.body).toEqual({
      status: 'ready',
      checks: {},
      deliveryHeaders: {
        'order-created': { deliveries: 1, headerNames: ['content-type'], signatureLike: [] },
      },
    });
  });
});
