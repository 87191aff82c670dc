import https from 'node:https';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { type DeliveryAttemptRecord, ORDER_WAIT_CAP_MS } from '../../../src/sandbox/delivery';
import type { RunningSandbox, SandboxOverrides } from '../../../src/sandbox/server';
import { getLocalCertificate } from '../../../src/tls/local-certificate';
import {
  login,
  registerRecipients,
  setUpAccount,
  startReceiver,
  startTestSandbox,
  summary,
  type Receiver,
} from '../../helpers/sandbox';
import { waitFor } from '../../helpers/wait';

describe('webhook delivery engine', () => {
  const running: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    while (running.length > 0) await running.pop()!.close();
  });

  /** Listens on a loopback port and closes the server (and its connections) after the test. */
  async function listenUntilAfterTest(server: https.Server): Promise<void> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    running.push({
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    });
  }

  async function setUp(overrides: SandboxOverrides = {}, respond?: Receiver['respond']) {
    const sandbox = await startTestSandbox(overrides);
    running.push(sandbox);
    const receiver = await startReceiver(respond);
    running.push(receiver);
    const auth = await login(sandbox);
    await registerRecipients(sandbox, auth, receiver.url);
    return { sandbox, receiver, auth };
  }

  const finals = (sandbox: RunningSandbox) => sandbox.deliveries().filter((record) => record.final);
  const publishTransactions = (sandbox: RunningSandbox, count: number) =>
    Array.from({ length: count }, (_, index) =>
      sandbox.ctx.delivery.publish('transaction-created', { id: `tx-${index + 1}` }),
    );

  it('gives up after exactly 5 attempts when the receiver answers 500, with increasing scaled delays', async () => {
    // Default schedule 1m, 5m, 15m, 30m at 1/10000 speed: 6, 30, 90, 180 ms.
    const { sandbox, receiver } = await setUp(
      { timeScale: 0.0001, deliveryDelaysMs: [60_000, 300_000, 900_000, 1_800_000] },
      () => 500,
    );
    publishTransactions(sandbox, 1);
    const final = await waitFor(() => finals(sandbox)[0], 'the delivery to end');
    expect(final).toMatchObject({ outcome: 'gave-up', attempt: 5, status: 500 });
    expect(receiver.received.map((delivery) => delivery.attempt)).toEqual(['1', '2', '3', '4', '5']);
    const attempts = sandbox.deliveries();
    expect(attempts.map((record) => record.outcome)).toEqual([
      'failed',
      'failed',
      'failed',
      'failed',
      'gave-up',
    ]);
    const times = attempts.map((record) => Date.parse(record.time));
    const gaps = times.slice(1).map((time, index) => time - times[index]!);
    expect(gaps[3]!).toBeGreaterThan(gaps[0]!);
    // Nothing is left scheduled: no sixth attempt can come.
    expect(sandbox.ctx.scheduler.pending).toBe(0);
    const log = await request(sandbox.url)
      .get(`/sandbox/v1/deliveries?resourceId=tx-1&outcome=gave-up`)
      .expect(200);
    expect(log.body.data).toHaveLength(1);
  });

  it('does not take 204 as a confirmation: retries until a 200', async () => {
    const { sandbox, receiver } = await setUp(
      { deliveryDelaysMs: [5, 10, 20, 40], timeScale: 1 },
      (_delivery, index) => (index < 2 ? 204 : 200),
    );
    publishTransactions(sandbox, 1);
    const final = await waitFor(() => finals(sandbox)[0], 'the delivery to end');
    expect(final).toMatchObject({ outcome: 'delivered', attempt: 3, status: 200 });
    expect(sandbox.deliveries().map((record) => [record.attempt, record.status, record.outcome])).toEqual([
      [1, 204, 'failed'],
      [2, 204, 'failed'],
      [3, 200, 'delivered'],
    ]);
    expect(receiver.received).toHaveLength(3);
  });

  it('counts a refused connection and a timeout as failures', async () => {
    const sandbox = await startTestSandbox({ deliveryDelaysMs: [1], timeScale: 1, deliveryTimeoutMs: 100 });
    running.push(sandbox);
    const auth = await login(sandbox);
    const { key, cert } = await getLocalCertificate();
    const silent = https.createServer({ key, cert }, () => undefined); // never answers
    await listenUntilAfterTest(silent);
    const closed = https.createServer({ key, cert });
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await request(sandbox.url)
      .post('/webhooks/private/v1/recipients')
      .set(auth.headers)
      .send({
        urls: [
          `https://127.0.0.1:${closedPort}/hook`,
          `https://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`,
        ],
      })
      .expect(201);
    publishTransactions(sandbox, 1);
    await waitFor(() => finals(sandbox).length === 2, 'both deliveries to end');
    const byUrl = (port: number) => sandbox.deliveries().filter((record) => record.url.includes(`:${port}/`));
    expect(byUrl(closedPort).map((record) => record.outcome)).toEqual(['failed', 'gave-up']);
    expect(byUrl(closedPort)[0]!.error).toMatch(/ECONNREFUSED/);
    const silentRecords = byUrl((silent.address() as AddressInfo).port);
    expect(silentRecords.map((record) => record.outcome)).toEqual(['failed', 'gave-up']);
    expect(silentRecords[0]!.error).toMatch(/timed out/);
  });

  describe('first attempts to one recipient', () => {
    /**
     * A receiver that holds its answers (200) and counts how many requests the sandbox keeps open at once: either
     * each for `forMs`, or all of them until `untilOpen` are open (or every expected one has arrived).
     */
    type Hold = { forMs: number } | { untilOpen: number };
    async function holdingReceiver(hold: Hold, expected: number) {
      const { key, cert } = await getLocalCertificate();
      const arrived: string[] = [];
      const open: Array<() => void> = [];
      let mostOpen = 0;
      const server = https.createServer({ key, cert }, (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            data: { payload: { id: string } };
          };
          arrived.push(body.data.payload.id);
          const answer = () => {
            open.splice(open.indexOf(answer), 1);
            res.end();
          };
          open.push(answer);
          mostOpen = Math.max(mostOpen, open.length);
          if ('forMs' in hold) setTimeout(answer, hold.forMs);
          else if (open.length >= hold.untilOpen || arrived.length === expected)
            [...open].forEach((each) => each());
        });
      });
      await listenUntilAfterTest(server);
      return {
        url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
        arrived,
        mostOpen: () => mostOpen,
      };
    }

    async function deliverSix(deliveryConcurrency: number, hold: Hold) {
      const sandbox = await startTestSandbox({ deliveryConcurrency });
      running.push(sandbox);
      const receiver = await holdingReceiver(hold, 6);
      await registerRecipients(sandbox, await login(sandbox), receiver.url);
      publishTransactions(sandbox, 6);
      await waitFor(() => finals(sandbox).length === 6, 'six deliveries to end');
      expect(finals(sandbox).map((record) => record.outcome)).toEqual(Array(6).fill('delivered'));
      return { sandbox, receiver };
    }

    it('start one after the other by default, in event order', async () => {
      // Each answer takes 100 ms (well inside the 2 s wait cap): six published at once still arrive one by one.
      const { receiver } = await deliverSix(1, { forMs: 100 });
      expect(receiver.mostOpen()).toBe(1);
      expect(receiver.arrived).toEqual(['tx-1', 'tx-2', 'tx-3', 'tx-4', 'tx-5', 'tx-6']);
    });

    it('run up to the configured concurrency at once, started in event order', async () => {
      // Answers come only once 3 are open: the next 3 start only after those are answered.
      const { sandbox, receiver } = await deliverSix(3, { untilOpen: 3 });
      expect(receiver.mostOpen()).toBe(3);
      // Open together, not one after another released by the wait cap.
      const durations = sandbox.deliveries().map((record) => record.durationMs!);
      expect(Math.max(...durations)).toBeLessThan(ORDER_WAIT_CAP_MS);
      expect(receiver.arrived.slice(0, 3).sort()).toEqual(['tx-1', 'tx-2', 'tx-3']);
      expect(receiver.arrived.slice(3).sort()).toEqual(['tx-4', 'tx-5', 'tx-6']);
    });

    it('refuses a concurrency that is not a whole number from 1 to 64', async () => {
      for (const deliveryConcurrency of [0, 1.5, 65])
        await expect(startTestSandbox({ deliveryConcurrency })).rejects.toThrow(/deliveryConcurrency/);
    });
  });

  describe('faults', () => {
    const outcomes = (records: readonly DeliveryAttemptRecord[]) =>
      records.map(
        (record) =>
          `${record.resourceId}:${record.outcome}:${record.fault ?? ''}:${record.duplicateOf ? 'copy' : ''}`,
      );

    it('drops deliveries (never sent, recorded as dropped)', async () => {
      const { sandbox, receiver } = await setUp({ faults: { deliveries: { drop: 1 } } });
      publishTransactions(sandbox, 3);
      await waitFor(() => finals(sandbox).length === 3, 'three dropped records');
      expect(
        sandbox
          .deliveries()
          .every((record) => record.outcome === 'dropped' && record.attempt === 0 && record.fault === 'drop'),
      ).toBe(true);
      // A delivery to the receiver would have been recorded before: none was sent.
      expect(receiver.received).toHaveLength(0);
    });

    it('drops every event of a resource after its first (dropAfterFirst), through the on-ramp flow', async () => {
      const { sandbox, receiver, auth } = await setUp({ faults: { deliveries: { dropAfterFirst: true } } });
      await setUpAccount(sandbox, auth);
      await request(sandbox.url)
        .post('/sandbox/v1/onramp/deposits')
        .send({ reference: 'lost-1', amount: '100', coinTo: 'USDT', chainTo: 'TRX' })
        .expect(202);
      await waitFor(() => finals(sandbox).length === 4, 'four deliveries to end');
      expect(summary(receiver.received).sort()).toEqual(['order-created:', 'transaction-created:']);
      expect(
        sandbox
          .deliveries()
          .filter((record) => record.outcome === 'dropped')
          .map((record) => record.eventType)
          .sort(),
      ).toEqual(['order-updated', 'transaction-updated']);
    });

    it('duplicates deliveries', async () => {
      const { sandbox, receiver } = await setUp({ faults: { deliveries: { duplicate: 1 } } });
      publishTransactions(sandbox, 2);
      await waitFor(() => finals(sandbox).length === 4, 'four deliveries to end');
      expect(receiver.received.map((delivery) => delivery.body.data.payload.id)).toEqual([
        'tx-1',
        'tx-1',
        'tx-2',
        'tx-2',
      ]);
      expect(sandbox.deliveries().filter((record) => record.duplicateOf !== undefined)).toHaveLength(2);
    });

    it('reorders deliveries: a held event goes right after the next one', async () => {
      const { sandbox, receiver } = await setUp({ faults: { deliveries: { reorder: 1 } } });
      publishTransactions(sandbox, 4);
      await waitFor(() => receiver.received.length === 4, 'four deliveries');
      expect(receiver.received.map((delivery) => delivery.body.data.payload.id)).toEqual([
        'tx-2',
        'tx-1',
        'tx-4',
        'tx-3',
      ]);
      // A held event with no follower is released after reorderMaxHoldMs.
      sandbox.setFaults({ deliveries: { reorder: 1, reorderMaxHoldMs: 20 } });
      publishTransactions(sandbox, 1);
      await waitFor(() => receiver.received.length === 5, 'the held delivery to be released');
    });

    it('delays deliveries by the extra milliseconds', async () => {
      const { sandbox, receiver } = await setUp({ faults: { deliveries: { delay: 1, delayMs: 150 } } });
      const started = Date.now();
      publishTransactions(sandbox, 1);
      await waitFor(() => receiver.received.length === 1, 'the delayed delivery');
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      // The attempt is recorded once the receiver's answer is read, a moment after the receiver saw the request.
      const attempt = await waitFor(() => sandbox.deliveries()[0], 'the attempt record');
      expect(attempt.fault).toBe('delay');
    });

    it('takes the same random decisions for the same seed', async () => {
      const faults = { deliveries: { drop: 0.3, duplicate: 0.3, reorder: 0.3, reorderMaxHoldMs: 20 } };
      const run = async (seed: number) => {
        const { sandbox, receiver } = await setUp({ seed, faults });
        publishTransactions(sandbox, 30);
        await waitFor(
          () => sandbox.deliveries().length > 0 && sandbox.ctx.delivery.active === 0,
          'every delivery to end',
        );
        return {
          outcomes: [...outcomes(sandbox.deliveries())].sort(),
          received: receiver.received.map((delivery) => delivery.body.data.payload.id),
        };
      };
      const first = await run(42);
      const second = await run(42);
      expect(second).toEqual(first);
      expect(first.outcomes.some((line) => line.includes(':dropped:'))).toBe(true);
      expect(first.outcomes.some((line) => line.endsWith(':copy'))).toBe(true);
      expect(first.outcomes.some((line) => line.includes(':reorder:'))).toBe(true);
    });
  });

  describe('API faults', () => {
    it('fails the next N calls of a route with 5xx, then recovers', async () => {
      const sandbox = await startTestSandbox({
        faults: { api: { failNext: 2, failStatus: 502, routes: ['createWallet'] } },
      });
      running.push(sandbox);
      const auth = await login(sandbox); // login routes are not in `routes`: unaffected
      const body = { networks: ['networks/tron-mainnet'], externalUserId: 'user-x' };
      const failed = await request(sandbox.url)
        .post('/wallets/private/v1/wallets')
        .set(auth.headers)
        .send(body)
        .expect(502);
      expect(failed.body.error.code).toBe('injected_fault');
      await request(sandbox.url).post('/wallets/private/v1/wallets').set(auth.headers).send(body).expect(502);
      await request(sandbox.url).post('/wallets/private/v1/wallets').set(auth.headers).send(body).expect(201);
      const calls = await request(sandbox.url).get('/sandbox/v1/calls?route=createWallet').expect(200);
      expect(
        (calls.body.data as Array<{ status: number; injectedFault?: boolean }>).map((call) => [
          call.status,
          call.injectedFault === true,
        ]),
      ).toEqual([
        [502, true],
        [502, true],
        [201, false],
      ]);
      expect(sandbox.state.wallets.size).toBe(1);
    });

    it('fails calls by probability and slows calls, set at run time through POST /sandbox/v1/faults', async () => {
      const sandbox = await startTestSandbox();
      running.push(sandbox);
      const auth = await login(sandbox);
      const set = await request(sandbox.url)
        .post('/sandbox/v1/faults')
        .send({ api: { fail: 1, routes: ['getOrder'] } })
        .expect(200);
      expect(set.body.data.api).toMatchObject({ fail: 1, routes: ['getOrder'], failStatus: 503 });
      await request(sandbox.url).get('/core-conversions/private/v1/orders/any').set(auth.headers).expect(503);
      await request(sandbox.url).get('/wallets/private/v1/transactions/any').set(auth.headers).expect(404);
      await request(sandbox.url)
        .post('/sandbox/v1/faults')
        .send({ api: { slowMs: 120 } })
        .expect(200);
      const started = Date.now();
      await request(sandbox.url)
        .get('/api/wallets/private/v1/current-vault-networks')
        .set(auth.headers)
        .expect(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(110);
      const current = await request(sandbox.url).get('/sandbox/v1/faults').expect(200);
      expect(current.body.data.api.slowMs).toBe(120);
      await request(sandbox.url)
        .post('/sandbox/v1/faults')
        .send({ api: { fail: 2 } })
        .expect(400);
    });
  });
});
