/**
 * The end user's outcome events across continue-as-new, on the real dev server with a stubbed operator, the ledger
 * in the run's PostgreSQL and its dispatcher delivering to a real local endpoint:
 * - an event raised before the run hands over waits in the ledger, not in the run, and is delivered after the
 *   hand-over with its webhook-id, the next run carrying only the count;
 * - a run from before the ledger that hands over an event still pending in its outbox: the next run records it
 *   with its webhook-id and body, and the dispatcher delivers it.
 */
import type { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { createActivities } from '../../../activities';
import { RampClient } from '../../../src/client/ramp-client';
import { loadClientWebhookConfig } from '../../../src/config/client-webhooks';
import { type RunningOutcomeReceiver, startOutcomeReceiver } from '../../../src/demo/outcome-receiver';
import { endUserWorkflowId } from '../../../src/domain/ids';
import { type RunningDispatcher, startDispatcher } from '../../../src/outcomes/dispatcher';
import type { OperatorClient } from '../../../src/operator/client';
import { endUserStateQuery } from '../../../workflows/end-user/messages';
import {
  continuedInput,
  depositWallet,
  depositWalletCreated,
  newEndUserState,
} from '../../../workflows/end-user/state';
import type { EndUserInput } from '../../../workflows/end-user/types';
import { endUserWorkflow } from '../../../workflows/end-user/workflow';
import { raiseOutcome } from '../../../workflows/outcomes/outbox';
import { testActivityConfig } from '../../helpers/activities';
import { eventsOf, freshTestDatabase, type TestDatabase } from '../../helpers/database';
import { recordHistory } from '../../helpers/histories';
import { waitFor } from '../../helpers/ramp-stack';
import {
  connectTestClient,
  fastTimings,
  type RunningTestWorker,
  startTestWorker,
  testServer,
} from '../../helpers/temporal';

const ADDRESS = { network: 'networks/ethereum-mainnet', address: `0x${'b'.repeat(40)}` };
const operator = {
  ensureSession: () => Promise.resolve(),
  createWallet: ({ externalUserId }: { externalUserId: string }) =>
    Promise.resolve({ id: 'wallet-carried', externalUserId, networks: [], balances: [] }),
  getWalletAddresses: (walletId: string) =>
    Promise.resolve([
      {
        id: walletId,
        address: ADDRESS.address,
        network: { name: ADDRESS.network, displayName: 'Ethereum', isCustom: false, isTestnet: false },
        balances: [],
      },
    ]),
} as unknown as OperatorClient;

const timings = fastTimings({
  outcomeDelivery: { attemptTimeoutMs: 2_000, retryInitialMs: 100, retryMaximumMs: 200, retryForMs: 60_000 },
});

describe('end-user outcome events across continue-as-new (real dev server, ledger)', () => {
  let client: Client;
  let connection: Connection;
  let database: TestDatabase;
  let running: RunningTestWorker;
  let ramp: RampClient;
  let endpointUp = false;
  let backend: RunningOutcomeReceiver;
  let dispatcher: RunningDispatcher;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
    database = await freshTestDatabase();
    backend = await startOutcomeReceiver({
      respond: (delivery) => (endpointUp && delivery.verified ? 204 : 503),
    });
    const logger = pino({ level: 'silent' });
    const clientWebhooks = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: backend.url,
      CLIENT_WEBHOOK_SECRET: backend.secret,
    });
    running = await startTestWorker(
      createActivities({
        operator,
        temporal: client,
        logger,
        ledger: database.db,
        config: { ...testActivityConfig(), clientWebhooks },
      }),
    );
    dispatcher = startDispatcher({ database, clientWebhooks, timings: timings.outcomeDelivery, logger });
    ramp = new RampClient({
      connection,
      database,
      namespace: testServer().namespace,
      taskQueue: running.taskQueue,
      timings,
    });
  });
  beforeEach(() => {
    endpointUp = false;
  });
  afterAll(async () => {
    await running?.stop();
    await dispatcher?.stop();
    await backend?.close();
    await database?.close();
    await connection.close();
  });

  const stateOf = (workflowId: string) => client.workflow.getHandle(workflowId).query(endUserStateQuery);
  const deliveredEvents = (workflowId: string) =>
    waitFor(`the events of ${workflowId} to be delivered`, async () => {
      const events = await eventsOf(database.db, workflowId);
      return events.length > 0 && events.every((event) => event.delivery === 'delivered')
        ? events
        : undefined;
    });

  test('an event raised before the hand-over waits in the ledger and is delivered after it, with its id', async () => {
    const endUserId = `carried-${Date.now()}`;
    const workflowId = endUserWorkflowId(endUserId);
    const webhookId = `evt_end-user~${endUserId}~1`;
    const handle = await client.workflow.start(endUserWorkflow, {
      workflowId,
      taskQueue: running.taskQueue,
      args: [{ endUserId, endUserSearchValue: endUserId, timings, continueAsNewAfterEvents: 40 }],
    });
    const wallet = await ramp.ensureDepositWallet(endUserId);
    await waitFor('a refused attempt', () =>
      backend.deliveries.some((delivery) => delivery.webhookId === webhookId) ? true : undefined,
    );
    // Each call adds events (update accepted and completed, workflow tasks) until the run hands over.
    for (let call = 0; call < 15; call += 1) await ramp.ensureDepositWallet(endUserId);
    const handedOver = await stateOf(workflowId);
    expect(handedOver.runs).toBeGreaterThan(1);
    expect(handedOver.outcomes).toEqual({ sequence: 1, events: [] });
    expect(await eventsOf(database.db, workflowId)).toMatchObject([{ webhookId, delivery: 'pending' }]);

    endpointUp = true;
    const events = await deliveredEvents(workflowId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      webhookId,
      event: { type: 'deposit_wallet.created', data: { endUserId, walletId: wallet.walletId } },
    });
    const sent = backend.deliveries.filter((delivery) => delivery.webhookId.includes(endUserId));
    expect(new Set(sent.map((delivery) => delivery.webhookId))).toEqual(new Set([webhookId]));
    expect(new Set(sent.map((delivery) => delivery.body)).size).toBe(1);
    expect(sent.filter((delivery) => delivery.answered === 204)).toHaveLength(1);
    // Nothing raised since: the next run's numbering goes on from the carried count.
    expect((await stateOf(workflowId)).outcomes.sequence).toBe(1);
    // The first run, which continued as new after recording its event into the ledger.
    await recordHistory(client, workflowId, 'end-user-ledger-continued-as-new', {
      runId: handle.firstExecutionRunId,
    });
  }, 90_000);

  test('a run from before the ledger hands over a pending event: the next run records it, the dispatcher delivers it', async () => {
    const endUserId = `handed-over-${Date.now()}`;
    const workflowId = endUserWorkflowId(endUserId);
    const input: EndUserInput = { endUserId, endUserSearchValue: endUserId, timings };
    // The state a 1.0 run hands over: its wallet, and the wallet's event still pending in its outbox.
    const at = new Date(Date.now() - 60_000);
    const previous = newEndUserState(input, at.toISOString());
    previous.wallet = depositWallet(
      { walletId: 'wallet-1-0', externalUserId: endUserId },
      [ADDRESS],
      at.toISOString(),
    );
    const walletEvent = depositWalletCreated(previous, workflowId)!;
    const pending = raiseOutcome(previous.outcomes, workflowId, walletEvent.type, walletEvent.data, at);
    endpointUp = true;
    await client.workflow.start(endUserWorkflow, {
      workflowId,
      taskQueue: running.taskQueue,
      args: [continuedInput(input, previous)],
    });

    const events = await deliveredEvents(workflowId);
    expect(events).toEqual([
      { webhookId: pending.webhookId, event: pending.event, delivery: 'delivered', attempts: 1 },
    ]);
    expect(pending.webhookId).toBe(`evt_end-user~${endUserId}~1`);
    const sent = backend.deliveries.filter((delivery) => delivery.webhookId === pending.webhookId);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.verified).toBe(true);
    expect(JSON.parse(sent[0]!.body)).toEqual(pending.event);
    // The run keeps the count, not the event; the ledger shows the carried wallet.
    expect((await stateOf(workflowId)).outcomes).toEqual({ sequence: 1, events: [] });
    expect((await ramp.getEndUser(endUserId)).wallet).toMatchObject({ walletId: 'wallet-1-0' });
    await recordHistory(client, workflowId, 'end-user-ledger-outbox-carried-in', { running: true });
  }, 90_000);
});
