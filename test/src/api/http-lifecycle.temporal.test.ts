/**
 * One end user's off-ramp and on-ramp over the HTTP API, to their ends, on the whole ramp stack (sandbox operator,
 * real HTTPS receiver, worker, dev server): started, followed with waitForOutcome, read back, listed by end user
 * and by filter. Every answer is checked against the OpenAPI document.
 */
import { randomUUID } from 'node:crypto';
import type { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import request from 'supertest';
import { createApiApp } from '../../../src/api/app';
import { ledgerIdempotency } from '../../../src/api/idempotency';
import { NotFoundError } from '../../../src/client/errors';
import { OutcomeTimeoutError } from '../../../src/client/ramp-outcome';
import { SecretString } from '../../../src/secrets/secret-string';
import { checkAnswersAfterEach, recordAnswers } from '../../helpers/openapi-answers';
import { connectTestClient } from '../../helpers/temporal';
import {
  depositCrypto,
  depositFiat,
  endUserWithWallet,
  type RampStack,
  startRampStack,
  waitFor,
} from '../../helpers/ramp-stack';

const API_KEY = 'lifecycle-test-api-key-83a1f0';
const auth = { Authorization: `Bearer ${API_KEY}` };

describe('the ramp lifecycle over HTTP (sandbox + receiver + dev server)', () => {
  let client: Client;
  let connection: Connection;
  let stack: RampStack;
  let app: ReturnType<typeof createApiApp>;

  checkAnswersAfterEach();

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
    stack = await startRampStack(client, connection);
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
    await stack?.close();
    await connection.close();
  });

  test('an off-ramp and an on-ramp of one end user settle; both are read, listed with the user and by filter', async () => {
    const since = new Date(Date.now() - 1_000).toISOString();
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address, '50');
    const orderReference = `ref-${randomUUID().slice(0, 12)}`;
    const body = {
      endUserId: user.endUserId,
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
    await depositFiat(stack, orderReference);
    // The deposit's off-ramp exists once its first webhook arrived (a client learns of it from off_ramp.created).
    await waitFor('the off-ramp to start', () => stack.ramp.getOffRamp(depositId).catch(() => undefined));

    const [offRamp, onRamp] = await Promise.all([
      stack.ramp.waitForOutcome({ depositTransactionId: depositId }, { timeoutMs: 60_000 }),
      stack.ramp.waitForOutcome({ orderReference }, { timeoutMs: 60_000 }),
    ]);
    expect(offRamp).toMatchObject({ status: 'settled', endUserId: user.endUserId, fiatCurrency: 'MXN' });
    expect(onRamp).toMatchObject({
      status: 'settled',
      endUserId: user.endUserId,
      quote: started.body.data.quote,
    });
    expect(onRamp.endedAt).toEqual(expect.any(String));

    const readOff = await request(app).get(`/v1/off-ramps/${depositId}`).set(auth);
    expect(readOff.status).toBe(200);
    expect(readOff.body.data).toMatchObject({
      depositTransactionId: depositId,
      status: 'settled',
      fiatAmount: offRamp.fiatAmount,
    });
    const readOn = await request(app).get(`/v1/on-ramps/${orderReference}`).set(auth);
    expect(readOn.body.data).toMatchObject({
      orderReference,
      status: 'settled',
      cryptoAmount: onRamp.cryptoAmount,
    });

    // Ended: the same body answers the process as it ended; another end user is still a conflict.
    const again = await request(app).post('/v1/on-ramps').set(auth).send(body);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ status: 'settled', endedAt: onRamp.endedAt });
    const other = await request(app)
      .post('/v1/on-ramps')
      .set(auth)
      .send({ endUserId: `${user.endUserId}-2`, orderReference });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('conflict');

    const endUser = await waitFor('the end user to list both settled ramps', async () => {
      const response = await request(app).get(`/v1/end-users/${user.endUserId}`).set(auth);
      const ramps = (response.body.data?.ramps ?? []) as { direction: string; status: string }[];
      return ramps.length === 2 && ramps.every((entry) => entry.status === 'settled') ? response : undefined;
    });
    expect(endUser.body.data).toMatchObject({
      endUserId: user.endUserId,
      walletStatus: 'ready',
      wallet: { walletId: user.walletId },
    });
    expect(
      (endUser.body.data.ramps as { direction: string }[]).map((entry) => entry.direction).sort(),
    ).toEqual(['off-ramp', 'on-ramp']);

    const settled = await request(app)
      .get('/v1/ramps')
      .query({ endUserId: user.endUserId, status: 'settled', closedAfter: since })
      .set(auth);
    expect(settled.status).toBe(200);
    expect(settled.body.data).toHaveLength(2);
    expect(settled.body.pagination).toEqual({ nextPageToken: null });
    const offRamps = await request(app)
      .get('/v1/ramps')
      .query({ endUserId: user.endUserId, direction: 'off-ramp' })
      .set(auth);
    expect(offRamps.body.data).toEqual([
      expect.objectContaining({
        depositTransactionId: depositId,
        running: false,
        closeTime: expect.any(String),
      }),
    ]);
    const later = await request(app)
      .get('/v1/ramps')
      .query({ endUserId: user.endUserId, closedAfter: new Date(Date.now() + 60_000).toISOString() })
      .set(auth);
    expect(later.body.data).toEqual([]);
  });

  test('waitForOutcome: a ramp that has not ended in time is an OutcomeTimeoutError with its state; an unknown one NotFoundError', async () => {
    const orderReference = `ref-${randomUUID().slice(0, 12)}`;
    await stack.ramp.startOnRamp('waiting-user', orderReference);
    const began = Date.now();
    const error = await stack.ramp
      .waitForOutcome({ orderReference }, { timeoutMs: 500 })
      .catch((caught: unknown) => caught);
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(OutcomeTimeoutError);
    expect((error as OutcomeTimeoutError).state).toMatchObject({ orderReference, status: 'awaiting-order' });
    await expect(
      stack.ramp.waitForOutcome({ depositTransactionId: `nope-${randomUUID().slice(0, 8)}` }),
    ).rejects.toThrow(NotFoundError);
  });
});
