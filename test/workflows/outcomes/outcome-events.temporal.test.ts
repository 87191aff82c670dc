/**
 * Outcome events to the client's backend, end to end: the sandbox operator (time-scaled), the real receiver and
 * workers on the real dev server, and a stand-in for the client's backend that verifies every delivery with the
 * `standardwebhooks` package. Every transition arrives once per webhook-id and in order; a backend answering 500
 * loses nothing; an event never confirmed is recorded failed and raised as an incident; a redelivery sends the
 * same id and body; a backend holding another secret verifies nothing; no URL credential or secret is ever in a
 * history or a log line.
 */
import { randomUUID } from 'node:crypto';
import type { Client, Connection } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
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
import type { OutcomeRedeliveryResult } from '../../../workflows/outcomes/redelivery/workflow';
import type { OffRampState } from '../../../workflows/ramps/offramp/types';
import type { OnRampState } from '../../../workflows/ramps/onramp/types';
import { recordHistory } from '../../helpers/histories';
import { connectTestClient } from '../../helpers/temporal';
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

/** The workflow's result once it closed (a ramp closes only once its outbox is drained). */
const closed = <T>(client: Client, workflowId: string): Promise<T> =>
  client.workflow.getHandle(workflowId).result() as Promise<T>;

async function historyJson(client: Client, workflowId: string): Promise<unknown> {
  return JSON.parse(historyToJSON(await client.workflow.getHandle(workflowId).fetchHistory())) as unknown;
}

describe('outcome events to the client backend (sandbox + receiver + dev server)', () => {
  let client: Client;
  let connection: Connection;
  let stack: RampStack | undefined;
  const receivers: RunningOutcomeReceiver[] = [];

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
  });
  afterEach(async () => {
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

    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address, '50');
    const reference = `ref-${randomUUID()}`;
    await stack.ramp.startOnRamp(user.endUserId, reference);
    await depositFiat(stack, reference);
    // The receiver starts the off-ramp (from the deposit's event): wait until it exists and settled.
    await offRampEnded(stack, depositId);
    await onRampEnded(stack, reference);
    const offRamp = await closed<OffRampState>(client, offRampWorkflowId(depositId));
    const onRamp = await closed<OnRampState>(client, onRampWorkflowId(reference));
    const endUser = await waitFor('the end user to deliver its event', async () => {
      const state = await stack!.ramp.getEndUser(user.endUserId);
      return state.outcomes?.events.every((record) => record.delivery === 'delivered') ? state : undefined;
    });

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

    // Each process lists its events with how their delivery stands, and each body is the recorded event.
    for (const state of [offRamp, onRamp, endUser]) {
      expect(state.outcomes?.events.map((record) => record.delivery)).toEqual(
        state.outcomes?.events.map(() => 'delivered'),
      );
      for (const record of state.outcomes.events) {
        const sent = backend.deliveries.find((delivery) => delivery.webhookId === record.webhookId)!;
        expect(JSON.parse(sent.body)).toEqual(record.event);
      }
    }

    // Redelivery, on the closed off-ramp: the same id and the same body, verified again.
    const settledId = `evt_offramp~${depositId}~2`;
    const started = await stack.ramp.redeliverEvent(settledId);
    expect(started).toEqual({
      webhookId: settledId,
      workflowId: offRampWorkflowId(depositId),
      redeliveryWorkflowId: expect.stringMatching(/^outcome-redelivery\/evt_offramp~.+~2\/.+/),
    });
    const result = await closed<OutcomeRedeliveryResult>(client, started.redeliveryWorkflowId);
    expect(result).toEqual({ webhookId: settledId, delivery: 'delivered' });
    const both = backend.deliveries.filter((delivery) => delivery.webhookId === settledId);
    expect(both).toHaveLength(2);
    expect(both[1]!.body).toBe(both[0]!.body);
    expect(both[1]!.verified).toBe(true);
    await expect(stack.ramp.redeliverEvent('not-an-event')).rejects.toBeInstanceOf(InvalidInputError);
    await expect(stack.ramp.redeliverEvent(`evt_offramp~${depositId}~9`)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(stack.ramp.redeliverEvent(`evt_offramp~missing-${randomUUID()}~1`)).rejects.toBeInstanceOf(
      NotFoundError,
    );

    // No URL, credential or secret in any history or log line.
    const secretBytes = backend.secret.slice('whsec_'.length);
    const needles = [urlPassword, urlToken, backend.url, impostor.url, backend.secret, secretBytes];
    for (const workflowId of [
      offRampWorkflowId(depositId),
      onRampWorkflowId(reference),
      endUserWorkflowId(user.endUserId),
      started.redeliveryWorkflowId,
    ]) {
      const history = await historyJson(client, workflowId);
      for (const needle of needles) expect(findInJson(history, needle)).toEqual([]);
    }
    // With RECORD_HISTORIES=1: the shape of processes with outcome events, for the replay test.
    await recordHistory(client, offRampWorkflowId(depositId), 'offramp-outcome-events');
    await recordHistory(client, onRampWorkflowId(reference), 'onramp-outcome-events');
    await recordHistory(client, endUserWorkflowId(user.endUserId), 'end-user-outcome-events', {
      running: true,
    });
    await recordHistory(client, started.redeliveryWorkflowId, 'outcome-redelivery');
    const logs = JSON.stringify(stack.logLines());
    expect(logs).toContain('outcome event delivered');
    for (const needle of needles) expect(logs).not.toContain(needle);
  }, 120_000);

  test('a backend answering 500 for a while loses nothing and keeps the ids; one never confirmed is recorded failed and raised', async () => {
    let failing = true;
    const backend = await receiver({ respond: (delivery) => (failing || !delivery.verified ? 500 : 204) });
    // A second endpoint that always confirms: retries of an event must not go to it again.
    const steady = await receiver({ secret: backend.secret });
    stack = await startRampStack(client, connection, {
      clientWebhooks: loadClientWebhookConfig({
        CLIENT_WEBHOOK_URLS: `${backend.url},${steady.url}`,
        CLIENT_WEBHOOK_SECRET: backend.secret,
        CLIENT_WEBHOOK_TIMEOUT: '2s',
      }),
      timings: { outcomeDelivery: { ...FAST_DELIVERY, retryForMs: 8_000 } },
    });
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address);
    const offRampId = offRampWorkflowId(depositId);
    await waitFor('a few refused attempts', () =>
      backend.deliveries.filter((delivery) => delivery.event?.data.workflowId === offRampId).length >= 3
        ? true
        : undefined,
    );
    failing = false;
    await offRampEnded(stack, depositId);
    const offRamp = await closed<OffRampState>(client, offRampId);
    expect(offRamp.status).toBe('settled');

    const attempts = backend.deliveries.filter((delivery) => delivery.event?.data.workflowId === offRampId);
    const confirmedIds = ids(ofProcess(backend, offRampId));
    expect(confirmedIds).toEqual([`evt_offramp~${depositId}~1`, `evt_offramp~${depositId}~2`]);
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
    expect(offRamp.outcomes?.events.map((record) => record.delivery)).toEqual(['delivered', 'delivered']);
    const steadyIds = ids(
      steady.deliveries.filter((delivery) => delivery.event?.data.workflowId === offRampId),
    );
    expect(steadyIds).toEqual(confirmedIds);

    // A backend down for longer than CLIENT_WEBHOOK_RETRY_FOR: the event is recorded failed and raised.
    failing = true;
    const reference = `ref-${randomUUID()}`;
    await stack.ramp.startOnRamp(user.endUserId, reference);
    const failed = await waitFor(
      'the on-ramp event to be given up',
      async () => {
        const state = await stack!.ramp.getOnRamp(reference);
        return state.outcomes?.events[0]?.delivery === 'failed' ? state.outcomes.events[0] : undefined;
      },
      30_000,
    );
    expect(failed).toMatchObject({ webhookId: `evt_onramp~${reference}~1`, delivery: 'failed' });
    // The last attempt's answer, or only the timeout when the retry time ran out while an attempt was under way.
    expect(failed.error).toMatch(/HTTP 500|ScheduleToClose/);
    expect(failed.error).not.toContain(backend.url);
    const incident = await waitFor('the incident', async () => {
      const alerts = await stack!.ramp.listAlerts({ workflowId: stack!.alertsWorkflowId });
      return alerts.open.find((open) => open.kind === 'outcome-event-undelivered');
    });
    expect(incident).toMatchObject({
      key: `outcome-event-undelivered/event/evt_onramp~${reference}~1`,
      workflowId: onRampWorkflowId(reference),
      details: { webhookId: `evt_onramp~${reference}~1`, type: 'on_ramp.created', endUserId: user.endUserId },
    });
    await recordHistory(client, onRampWorkflowId(reference), 'onramp-outcome-event-given-up', {
      running: true,
    });
    await client.workflow.getHandle(onRampWorkflowId(reference)).terminate('test over');
  }, 120_000);
});
