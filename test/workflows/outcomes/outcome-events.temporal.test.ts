/**
 * Outcome events to the client's backend, end to end: the sandbox operator (time-scaled), the real receiver and
 * workers on the real dev server, the ledger in the run's PostgreSQL with its dispatcher, and a stand-in for the
 * client's backend that verifies every delivery with the `standardwebhooks` package. Every transition arrives once
 * per webhook-id and in its process's order; a backend answering 500 loses nothing; an event never confirmed is
 * recorded failed and opens its endpoint's incident in the incident store, resolved when the endpoint confirms
 * again; a redelivery sends the same id and body; a backend holding another secret verifies nothing; no URL
 * credential or secret is ever in a history, a log line or the ledger.
 */
import { randomUUID } from 'node:crypto';
import type { Client, Connection } from '@temporalio/client';
import { historyToJSON } from '../../helpers/histories';
import pino from 'pino';
import { createAlertActivities } from '../../../activities/operations/alerts/activities';
import { InvalidInputError, NotFoundError } from '../../../src/client/errors';
import { loadClientWebhookConfig } from '../../../src/config/client-webhooks';
import {
  newWebhookSecret,
  type ReceivedDelivery,
  type RunningOutcomeReceiver,
  startOutcomeReceiver,
} from '../../../src/demo/outcome-receiver';
import { endUserWorkflowId, offRampWorkflowId, onRampWorkflowId } from '../../../src/domain/ids';
import type { OutcomeDeliveryTimings } from '../../../src/domain/timings';
import { type RunningDispatcher, startDispatcher } from '../../../src/outcomes/dispatcher';
import { dispatcherIncidents, dispatcherRequestId } from '../../../src/outcomes/incidents';
import { testActivityConfig } from '../../helpers/activities';
import { eventsOf } from '../../helpers/database';
import { recordHistory } from '../../helpers/histories';
import { findInJson } from '../../helpers/history-scan';
import {
  depositCrypto,
  depositFiat,
  endUserWithWallet,
  offRampEnded,
  onRampEnded,
  type RampStack,
  startRampStack,
  waitFor,
} from '../../helpers/ramp-stack';
import { connectTestClient } from '../../helpers/temporal';

const FAST_DELIVERY: OutcomeDeliveryTimings = {
  attemptTimeoutMs: 3_000,
  retryInitialMs: 200,
  retryMaximumMs: 500,
  retryForMs: 60_000,
};

/** The confirmed deliveries of one process, in arrival order. */
const ofProcess = (receiver: RunningOutcomeReceiver, workflowId: string) =>
  receiver.confirmed().filter((delivery) => delivery.event?.data.workflowId === workflowId);

const types = (deliveries: ReceivedDelivery[]) => deliveries.map((delivery) => delivery.event?.type);
const ids = (deliveries: ReceivedDelivery[]) => deliveries.map((delivery) => delivery.webhookId);
const isConfirmed = (delivery: ReceivedDelivery) =>
  delivery.answered !== undefined && delivery.answered >= 200 && delivery.answered < 300;

async function historyJson(client: Client, workflowId: string): Promise<unknown> {
  return JSON.parse(historyToJSON(await client.workflow.getHandle(workflowId).fetchHistory())) as unknown;
}

describe('outcome events to the client backend (sandbox + receiver + dev server + ledger)', () => {
  let client: Client;
  let connection: Connection;
  let stack: RampStack | undefined;
  let dispatcher: RunningDispatcher | undefined;
  const receivers: RunningOutcomeReceiver[] = [];

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
  });
  afterEach(async () => {
    await dispatcher?.stop();
    dispatcher = undefined;
    await stack?.close();
    stack = undefined;
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  });
  afterAll(async () => {
    await connection.close();
  });

  async function receiver(options: Parameters<typeof startOutcomeReceiver>[0] = {}) {
    const started = await startOutcomeReceiver(options);
    receivers.push(started);
    return started;
  }
  /** Waits until every event the process raised is delivered; answers them as the ledger holds them. */
  const allDelivered = (workflowId: string, count: number) =>
    waitFor(`the ${count} events of ${workflowId} to be delivered`, async () => {
      const events = await eventsOf(stack!.database.db, workflowId);
      return events.length === count && events.every((event) => event.delivery === 'delivered')
        ? events
        : undefined;
    });

  test('every transition arrives once per webhook-id, in order, verified; redelivery sends the same id and body; secrets stay out', async () => {
    const backend = await receiver();
    // Holds another secret: it must fail to verify every delivery (it answers 204 so delivery goes on).
    const impostor = await receiver({ secret: newWebhookSecret(), respond: () => 204 });
    const urlPassword = `pw-${randomUUID()}`;
    const urlToken = `token-${randomUUID()}`;
    const backendUrl = `${backend.url.replace('http://', `http://client:${urlPassword}@`)}?token=${urlToken}`;
    stack = await startRampStack(client, connection, {
      clientWebhooks: loadClientWebhookConfig({
        CLIENT_WEBHOOK_URLS: `${backendUrl},${impostor.url}`,
        CLIENT_WEBHOOK_SECRET: backend.secret,
        CLIENT_WEBHOOK_TIMEOUT: '2s',
      }),
      timings: { outcomeDelivery: FAST_DELIVERY },
    });
    const db = stack.database.db;

    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address, '50');
    const reference = `ref-${randomUUID()}`;
    await stack.ramp.startOnRamp(user.endUserId, reference);
    await depositFiat(stack, reference);
    // The receiver starts the off-ramp (from the deposit's event): wait until it exists and settled.
    const offRamp = await offRampEnded(stack, depositId);
    const onRamp = await onRampEnded(stack, reference);
    const recorded = {
      offRamp: await allDelivered(offRampWorkflowId(depositId), 2),
      onRamp: await allDelivered(onRampWorkflowId(reference), 2),
      endUser: await allDelivered(endUserWorkflowId(user.endUserId), 1),
    };

    // Off-ramp: created, then settled, numbered by the process.
    const offRampEvents = ofProcess(backend, offRampWorkflowId(depositId));
    expect(types(offRampEvents)).toEqual(['off_ramp.created', 'off_ramp.settled']);
    expect(ids(offRampEvents)).toEqual([`evt_offramp~${depositId}~1`, `evt_offramp~${depositId}~2`]);
    expect(offRampEvents[0]!.event!.data).toMatchObject({
      workflowId: offRampWorkflowId(depositId),
      endUserId: user.endUserId,
      depositTransactionId: depositId,
      cryptoAmount: expect.any(String),
    });
    expect(offRampEvents[1]!.event!.data).toMatchObject({
      endUserId: user.endUserId,
      status: 'settled',
      depositTransactionId: depositId,
      orderId: offRamp.orderId,
      fiatAmount: '858.18',
      fiatCurrency: 'MXN',
    });
    expect(offRampEvents[1]!.event!.data.step).toContain('Settled: 858.18 MXN');

    // On-ramp: created (the end user named at the start), then settled.
    const onRampEvents = ofProcess(backend, onRampWorkflowId(reference));
    expect(types(onRampEvents)).toEqual(['on_ramp.created', 'on_ramp.settled']);
    expect(ids(onRampEvents)).toEqual([`evt_onramp~${reference}~1`, `evt_onramp~${reference}~2`]);
    expect(onRampEvents[0]!.event!.data).toMatchObject({
      endUserId: user.endUserId,
      orderReference: reference,
      status: 'awaiting-order',
    });
    expect(onRampEvents[1]!.event!.data).toMatchObject({
      endUserId: user.endUserId,
      orderReference: reference,
      status: 'settled',
      orderId: onRamp.order?.id,
      cryptoAmount: onRamp.cryptoAmount,
      asset: 'USDT',
    });
    expect(typeof onRampEvents[1]!.event!.data.cryptoAmount).toBe('string');

    // End user: its deposit wallet, with its addresses.
    const walletEvents = ofProcess(backend, endUserWorkflowId(user.endUserId));
    expect(types(walletEvents)).toEqual(['deposit_wallet.created']);
    expect(walletEvents[0]!.event!.data).toMatchObject({
      endUserId: user.endUserId,
      walletId: user.walletId,
      addresses: expect.arrayContaining([{ network: 'networks/tron-mainnet', address: user.address }]),
    });

    // Each webhook-id confirmed once, every delivery verified, credentials sent as Basic authentication.
    expect(backend.deliveries.every((delivery) => delivery.verified)).toBe(true);
    expect(backend.deliveries.filter(isConfirmed)).toHaveLength(5);
    expect(new Set(ids(backend.deliveries)).size).toBe(5);
    expect(backend.deliveries[0]!.authorization).toBe(
      `Basic ${Buffer.from(`client:${urlPassword}`).toString('base64')}`,
    );
    // A backend with another secret verifies none of them.
    expect(impostor.deliveries.length).toBeGreaterThanOrEqual(5);
    expect(impostor.deliveries.some((delivery) => delivery.verified)).toBe(false);

    // The ledger holds each event delivered at its first attempt, and each body sent is the recorded event; the
    // processes keep only their count.
    for (const events of Object.values(recorded))
      for (const record of events) {
        expect(record.attempts).toBe(1);
        const sent = backend.deliveries.find((delivery) => delivery.webhookId === record.webhookId)!;
        expect(JSON.parse(sent.body)).toEqual(record.event);
      }
    expect([offRamp.outcomes, onRamp.outcomes]).toEqual([
      { sequence: 2, events: [] },
      { sequence: 2, events: [] },
    ]);
    expect((await stack.endUserState(user.endUserId)).outcomes).toEqual({ sequence: 1, events: [] });

    // Redelivery, of the closed off-ramp's event: the same id and the same body, verified again.
    const settledId = `evt_offramp~${depositId}~2`;
    const requeued = await stack.ramp.redeliverEvent(settledId);
    expect(requeued).toMatchObject({ webhookId: settledId, event: recorded.offRamp[1]!.event });
    expect(['pending', 'delivered']).toContain(requeued.delivery);
    const both = await waitFor('the redelivery', () => {
      const sent = backend.deliveries.filter((delivery) => delivery.webhookId === settledId);
      return sent.length === 2 && sent.every(isConfirmed) ? sent : undefined;
    });
    expect(both[1]!.body).toBe(both[0]!.body);
    expect(both[1]!.verified).toBe(true);
    await waitFor('the redelivery recorded', async () => {
      const view = await stack!.ramp.getEvent(settledId);
      return view.delivery === 'delivered' && view.attempts === 2 ? view : undefined;
    });
    await expect(stack.ramp.redeliverEvent('not-an-event')).rejects.toBeInstanceOf(InvalidInputError);
    await expect(stack.ramp.redeliverEvent(`evt_offramp~${depositId}~9`)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(stack.ramp.redeliverEvent(`evt_offramp~missing-${randomUUID()}~1`)).rejects.toBeInstanceOf(
      NotFoundError,
    );

    // No URL, credential or secret in any history, log line or ledger row.
    const secretBytes = backend.secret.slice('whsec_'.length);
    const needles = [urlPassword, urlToken, backend.url, impostor.url, backend.secret, secretBytes];
    for (const workflowId of [
      offRampWorkflowId(depositId),
      onRampWorkflowId(reference),
      endUserWorkflowId(user.endUserId),
    ]) {
      const history = await historyJson(client, workflowId);
      for (const needle of needles) expect(findInJson(history, needle)).toEqual([]);
    }
    const rows = JSON.stringify([
      await db.selectFrom('outcome_events').selectAll().execute(),
      await db.selectFrom('delivery_attempts').selectAll().execute(),
      await db.selectFrom('endpoint_health').selectAll().execute(),
    ]);
    const logs = JSON.stringify(stack.logLines());
    for (const needle of needles) {
      expect(rows).not.toContain(needle);
      expect(logs).not.toContain(needle);
    }
    // With RECORD_HISTORIES=1: the shape of processes that record their events into the ledger, for the replay test.
    await recordHistory(client, offRampWorkflowId(depositId), 'offramp-ledger-outcome-events');
    await recordHistory(client, onRampWorkflowId(reference), 'onramp-ledger-outcome-events');
    await recordHistory(client, endUserWorkflowId(user.endUserId), 'end-user-ledger-outcome-events', {
      running: true,
    });
  }, 120_000);

  test('a backend answering 500 for a while loses nothing and keeps the ids; one never confirmed is failed and opens an incident', async () => {
    let failing = true;
    const backend = await receiver({ respond: (delivery) => (failing || !delivery.verified ? 500 : 204) });
    // A second endpoint that always confirms: retries of an event must not go to it again.
    const steady = await receiver({ secret: backend.secret });
    const clientWebhooks = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: `${backend.url},${steady.url}`,
      CLIENT_WEBHOOK_SECRET: backend.secret,
      CLIENT_WEBHOOK_TIMEOUT: '2s',
    });
    const backendLabel = clientWebhooks.endpoints[0]!.label;
    const outcomeDelivery = { ...FAST_DELIVERY, retryForMs: 8_000 };
    stack = await startRampStack(client, connection, { clientWebhooks, timings: { outcomeDelivery } });
    // The dispatcher as a worker runs it: raising and resolving its incidents in the stack's incident store.
    await stack.dispatcher.stop();
    const logger = pino({ level: 'silent' });
    dispatcher = startDispatcher({
      database: stack.database,
      clientWebhooks,
      timings: outcomeDelivery,
      logger,
      incidents: dispatcherIncidents(
        createAlertActivities(
          { logger, ledger: stack.database.db, config: testActivityConfig() },
          dispatcherRequestId,
        ),
      ),
    });

    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address);
    const offRampId = offRampWorkflowId(depositId);
    await waitFor('a few refused attempts', () =>
      backend.deliveries.filter((delivery) => delivery.event?.data.workflowId === offRampId).length >= 3
        ? true
        : undefined,
    );
    // Listed while it waits, with why.
    const waiting = await stack.ramp.listEvents({ endUserId: user.endUserId, status: 'pending' });
    expect(waiting.data.find((view) => view.webhookId === `evt_offramp~${depositId}~1`)).toMatchObject({
      delivery: 'pending',
      error: `${backendLabel} answered HTTP 500`,
    });
    failing = false;
    const offRamp = await offRampEnded(stack, depositId);
    expect(offRamp.status).toBe('settled');
    const recorded = await allDelivered(offRampId, 2);

    const attempts = backend.deliveries.filter((delivery) => delivery.event?.data.workflowId === offRampId);
    const confirmedIds = ids(ofProcess(backend, offRampId));
    expect(confirmedIds).toEqual([`evt_offramp~${depositId}~1`, `evt_offramp~${depositId}~2`]);
    expect(recorded.map((event) => event.webhookId)).toEqual(confirmedIds);
    expect(recorded[0]!.attempts).toBeGreaterThan(1);
    // Retries carry the ids and bodies of their event, and nothing but these ids ever came.
    expect([...new Set(ids(attempts))]).toEqual(confirmedIds);
    for (const webhookId of confirmedIds) {
      const bodies = new Set(
        attempts.filter((attempt) => attempt.webhookId === webhookId).map((a) => a.body),
      );
      expect(bodies.size).toBe(1);
    }
    expect(attempts.filter(isConfirmed)).toHaveLength(2);
    // The later event waited until the earlier one was confirmed.
    const firstConfirmed = attempts.findIndex(
      (attempt) => attempt.webhookId === confirmedIds[0] && isConfirmed(attempt),
    );
    const secondFirstTried = attempts.findIndex((attempt) => attempt.webhookId === confirmedIds[1]);
    expect(secondFirstTried).toBeGreaterThan(firstConfirmed);
    const steadyIds = ids(
      steady.deliveries.filter((delivery) => delivery.event?.data.workflowId === offRampId),
    );
    expect(steadyIds).toEqual(confirmedIds);

    // A backend down for longer than CLIENT_WEBHOOK_RETRY_FOR: the event is recorded failed and its endpoint's
    // incident opens.
    failing = true;
    const reference = `ref-${randomUUID()}`;
    await stack.ramp.startOnRamp(user.endUserId, reference);
    const failed = await waitFor(
      'the on-ramp event to be given up',
      async () => {
        const view = await stack!.ramp.getEvent(`evt_onramp~${reference}~1`).catch(() => undefined);
        return view?.delivery === 'failed' ? view : undefined;
      },
      30_000,
    );
    expect(failed.error).toBe(`${backendLabel} answered HTTP 500`);
    const incidentKey = `outcome-event-undelivered/endpoint/${backendLabel}`;
    const incident = await waitFor('the incident', async () => {
      const alerts = await stack!.ramp.listAlerts({ kind: 'outcome-event-undelivered' });
      return alerts.data.find(
        (open) => open.key === incidentKey && open.workflowId === onRampWorkflowId(reference),
      );
    });
    expect(incident).toMatchObject({
      kind: 'outcome-event-undelivered',
      details: { endpoint: backendLabel },
    });
    expect(incident.message).toContain(`evt_onramp~${reference}~1`);
    expect(incident.message).not.toContain(backend.url);
    const alerts = await stack.ramp.listAlerts({ kind: 'outcome-event-undelivered' });
    expect(alerts.data).toHaveLength(1);

    // The endpoint answers again: a test event it confirms resolves the incident.
    failing = false;
    const ping = await stack.ramp.sendTestEvent();
    await waitFor('the incident to be resolved', async () => {
      const state = await stack!.ramp.listAlerts({ kind: 'outcome-event-undelivered' });
      return state.data.some((open) => open.key === incidentKey) ? undefined : state;
    });
    expect((await stack.ramp.getEvent(ping.webhookId)).delivery).toBe('delivered');
    await client.workflow.getHandle(onRampWorkflowId(reference)).terminate('test over');
  }, 120_000);
});
