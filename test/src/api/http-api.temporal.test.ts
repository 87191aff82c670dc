/**
 * The HTTP API over the real typed client (dev server + sandbox + worker): the key is required, an authorised call
 * goes all the way to the operator, on-ramps start idempotently by order reference, and paging through the ramps
 * lists each process once. Every answer is checked against the OpenAPI document.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import request from 'supertest';
import { createApiApp } from '../../../src/api/app';
import { ledgerIdempotency } from '../../../src/api/idempotency';
import { RampClient } from '../../../src/client/ramp-client';
import { SecretString } from '../../../src/secrets/secret-string';
import { offRampWorkflowId, WORKFLOW_TYPES } from '../../../src/domain/ids';
import { checkAnswersAfterEach, recordAnswers } from '../../helpers/openapi-answers';
import { fastTimings, testServer } from '../../helpers/temporal';
import { type Stack, startStack, waitFor } from '../../helpers/client-stack';

const API_KEY = 'integration-test-api-key-5f1d9c';

describe('HTTP API (real dev server + sandbox over HTTP)', () => {
  let stack: Stack;
  let app: ReturnType<typeof createApiApp>;
  const auth = { Authorization: `Bearer ${API_KEY}` };

  checkAnswersAfterEach();

  beforeAll(async () => {
    stack = await startStack();
    app = recordAnswers(
      createApiApp({
        ramp: stack.ramp,
        idempotency: ledgerIdempotency(stack.database.db),
        apiKey: new SecretString(API_KEY),
        logger: pino({ level: 'silent' }),
      }),
    );
  });
  afterAll(async () => {
    await stack.stop();
  });

  test('without its key (or with a wrong one) every route answers 401 JSON and nothing reaches the operator', async () => {
    const before = stack.sandbox.calls().length;
    for (const [method, path] of [
      ['post', '/v1/quotes'],
      ['post', '/v1/end-users/u1/deposit-wallet'],
      ['get', '/v1/end-users/u1'],
      ['post', '/v1/account/setup'],
      ['get', '/v1/account'],
      ['post', '/v1/on-ramps'],
      ['get', '/v1/on-ramps/ord-1'],
      ['get', '/v1/off-ramps/tx-1'],
      ['get', '/v1/ramps'],
      ['post', '/v1/events/evt_onramp~ord-1~1/redeliver'],
      ['get', '/v1/unknown'],
    ] as const) {
      const missing = await request(app)[method](path).send({});
      expect(missing.status).toBe(401);
      expect(missing.body.error.code).toBe('unauthorized');
      const wrong = await request(app)[method](path).set('Authorization', 'Bearer not-the-key').send({});
      expect(wrong.status).toBe(401);
    }
    expect(stack.sandbox.calls().length).toBe(before);
  });

  test('with the key: deposit wallet, end user, quote; 404 for an unknown user; 400 for bad input', async () => {
    const endUserId = `api-${randomUUID().slice(0, 8)}`;
    const created = await request(app).post(`/v1/end-users/${endUserId}/deposit-wallet`).set(auth);
    expect(created.status).toBe(200);
    expect(created.body.data.addresses).toHaveLength(2);

    const user = await request(app).get(`/v1/end-users/${endUserId}`).set(auth);
    expect(user.status).toBe(200);
    expect(user.body.data.wallet.walletId).toBe(created.body.data.walletId);

    const unknown = await request(app)
      .get(`/v1/end-users/nobody-${randomUUID().slice(0, 8)}`)
      .set(auth);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');

    const quote = await request(app)
      .post('/v1/quotes')
      .set(auth)
      .send({ direction: 'off-ramp', coinFrom: 'USDT', chainFrom: 'TRX', coinTo: 'MXN', amountFrom: '20' });
    expect(quote.status).toBe(200);
    expect(quote.body.data.targetAmount).toMatch(/^\d+(\.\d+)?$/);

    const before = stack.sandbox.calls().length;
    const bad = await request(app)
      .post('/v1/quotes')
      .set(auth)
      .send({ direction: 'off-ramp', coinFrom: 'USDT', chainFrom: 'TRX', coinTo: 'MXN', amountFrom: '-1' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_input');
    expect((bad.body.error.issues as string[]).join('\n')).toMatch(/amountFrom/);
    expect(stack.sandbox.calls().length).toBe(before);
  });

  test('GET /openapi.json needs no key', async () => {
    const response = await request(app).get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toMatch(/^3\.1\./);
  });

  test('POST /v1/on-ramps: 201 with the quote shown, 200 for the same body again, 409 for another end user; GET both ramps', async () => {
    const endUserId = `onr-${randomUUID().slice(0, 8)}`;
    const orderReference = `ref-${randomUUID().slice(0, 12)}`;
    const body = {
      endUserId,
      orderReference,
      quoteRequest: {
        direction: 'on-ramp',
        coinFrom: 'MXN',
        coinTo: 'USDT',
        chainTo: 'TRX',
        amountFrom: '1000',
      },
    };
    const started = await request(app).post('/v1/on-ramps').set(auth).send(body);
    expect(started.status).toBe(201);
    expect(started.body.data).toMatchObject({
      orderReference,
      endUserId,
      status: 'awaiting-order',
      unattributed: false,
    });
    expect(started.body.data.quote.targetAmount).toMatch(/^\d+(\.\d+)?$/);
    const quoteCalls = stack.sandbox.calls().length;

    const again = await request(app).post('/v1/on-ramps').set(auth).send(body);
    expect(again.status).toBe(200);
    expect(again.body.data.quote).toEqual(started.body.data.quote);
    expect(again.body.data.startedAt).toBe(started.body.data.startedAt);
    expect(stack.sandbox.calls().length).toBe(quoteCalls); // no second quote for the same on-ramp

    // Still running: another end user is refused, and the process keeps its first one.
    const other = await request(app)
      .post('/v1/on-ramps')
      .set(auth)
      .send({ endUserId: `${endUserId}-other`, orderReference });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('conflict');

    const read = await request(app).get(`/v1/on-ramps/${orderReference}`).set(auth);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ orderReference, endUserId });
    expect(
      (
        await request(app)
          .get(`/v1/on-ramps/ref-${randomUUID().slice(0, 8)}`)
          .set(auth)
      ).status,
    ).toBe(404);

    // An off-ramp as a deposit starts it (the operator has no such deposit: it keeps reading, running).
    const depositTransactionId = `dep-${randomUUID().slice(0, 8)}`;
    await stack.client.workflow.start(WORKFLOW_TYPES.offRamp, {
      workflowId: offRampWorkflowId(depositTransactionId),
      taskQueue: stack.worker.taskQueue,
      args: [{ depositTransactionId, timings: stack.timings }],
    });
    const offRamp = await waitFor(async () => {
      const response = await request(app).get(`/v1/off-ramps/${depositTransactionId}`).set(auth);
      return response.status === 200 ? response : undefined;
    }, 'the off-ramp to answer');
    expect(offRamp.body.data).toMatchObject({ depositTransactionId, endUserId: null });
    expect(
      (
        await request(app)
          .get(`/v1/off-ramps/dep-${randomUUID().slice(0, 8)}`)
          .set(auth)
      ).status,
    ).toBe(404);

    const user = await waitFor(async () => {
      const response = await request(app).get(`/v1/end-users/${endUserId}`).set(auth);
      return response.status === 200 && response.body.data.ramps.length > 0 ? response : undefined;
    }, 'the end user to list the on-ramp');
    // An end user with on-ramps only has no end-user process: no wallet asked for.
    expect(user.body.data).toMatchObject({ endUserId, walletStatus: 'none', nextRampsPageToken: null });
    expect(user.body.data.ramps).toEqual([
      expect.objectContaining({ direction: 'on-ramp', orderReference, endUserId, running: true }),
    ]);
    await stack.client.workflow.getHandle(offRampWorkflowId(depositTransactionId)).terminate('test done');
  });

  test('GET /v1/ramps: paging through 250 on-ramps with limit=20 lists each once, newest first', async () => {
    const began = Date.now();
    const endUserId = `pager-${randomUUID().slice(0, 8)}`;
    // Their own client, so that they outlive the test's paging (the stack's process timeout is short).
    const ramp = new RampClient({
      connection: stack.connection,
      database: stack.database,
      namespace: testServer().namespace,
      taskQueue: stack.worker.taskQueue,
      timings: fastTimings({ processTimeoutMs: 10 * 60_000 }),
    });
    const references = Array.from(
      { length: 250 },
      (_, index) => `page-${endUserId}-${String(index).padStart(3, '0')}`,
    );
    for (let index = 0; index < references.length; index += 25)
      await Promise.all(
        references.slice(index, index + 25).map((reference) => ramp.startOnRamp(endUserId, reference)),
      );
    // No wait: each start answers once the ledger holds its on-ramp, so the list has every one at once.
    const started = Date.now() - began;

    const seen: string[] = [];
    const startTimes: string[] = [];
    let pages = 0;
    let pageToken: string | null = null;
    do {
      const response = await request(app)
        .get('/v1/ramps')
        .query({ endUserId, limit: '20', ...(pageToken ? { pageToken } : {}) })
        .set(auth);
      expect(response.status).toBe(200);
      const page = response.body as {
        data: { orderReference: string; startTime: string; endUserId: string }[];
        pagination: { nextPageToken: string | null };
      };
      expect(page.data.length).toBeLessThanOrEqual(20);
      for (const entry of page.data) {
        expect(entry.endUserId).toBe(endUserId);
        seen.push(entry.orderReference);
        startTimes.push(entry.startTime);
      }
      pageToken = page.pagination.nextPageToken;
      pages += 1;
      expect(pages).toBeLessThanOrEqual(14);
    } while (pageToken);
    expect(seen).toHaveLength(250);
    expect(new Set(seen)).toEqual(new Set(references));
    expect([...startTimes].sort().reverse()).toEqual(startTimes);
    expect(pages).toBeGreaterThanOrEqual(13);

    // The typed client pages the same way; a filter value that would reach the query unchecked is refused.
    const first = await stack.ramp.listRamps({
      endUserId,
      direction: 'on-ramp',
      status: 'awaiting-order',
      limit: 100,
    });
    expect(first.data).toHaveLength(100);
    expect(first.nextPageToken).not.toBeNull();
    const bad = await request(app).get('/v1/ramps').query({ status: "settled' OR '1'='1" }).set(auth);
    expect(bad.status).toBe(400);
    for (const query of [
      { pageToken: 'bm90LWEtdG9rZW4' },
      { endUserId: `${endUserId}-x`, pageToken: first.nextPageToken! },
    ]) {
      const wrongToken = await request(app).get('/v1/ramps').query(query).set(auth);
      // Well formed, but no page of this list: 404, as for any reference to something that does not exist.
      expect(wrongToken.status).toBe(404);
      expect(wrongToken.body.error.code).toBe('not_found');
    }
    console.log(
      `250 on-ramps started in ${started} ms, listed in ${pages} pages in ${Date.now() - began - started} ms`,
    );
  }, 180_000);
});
