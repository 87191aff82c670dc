/**
 * The end user's outbox across continue-as-new, on the real dev server with a stubbed operator: an event still
 * pending when the run hands over is sent by the next run, with the same webhook-id, and numbering goes on.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { createActivities, type RampActivities } from '../../../activities';
import { RampClient } from '../../../src/client/ramp-client';
import { endUserWorkflowId } from '../../../src/domain/ids';
import type { OperatorClient } from '../../../src/operator/client';
import { endUserWorkflow } from '../../../workflows/end-user/workflow';
import { testActivityConfig } from '../../helpers/activities';
import { recordHistory } from '../../helpers/histories';
import {
  connectTestClient,
  fastTimings,
  type RunningTestWorker,
  startTestWorker,
  testServer,
} from '../../helpers/temporal';
import { waitFor } from '../../helpers/ramp-stack';

const operator = {
  ensureSession: () => Promise.resolve(),
  createWallet: ({ externalUserId }: { externalUserId: string }) =>
    Promise.resolve({ id: 'wallet-carried', externalUserId, networks: [], balances: [] }),
  getWalletAddresses: (walletId: string) =>
    Promise.resolve([
      {
        id: walletId,
        address: `0x${'b'.repeat(40)}`,
        network: {
          name: 'networks/ethereum-mainnet',
          displayName: 'Ethereum',
          isCustom: false,
          isTestnet: false,
        },
        balances: [],
      },
    ]),
} as unknown as OperatorClient;

describe('end-user outcome events across continue-as-new (real dev server)', () => {
  let client: Client;
  let connection: Connection;
  let running: RunningTestWorker | undefined;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
  });
  afterAll(async () => {
    await running?.stop();
    await connection.close();
  });

  test('a pending event is sent by the next run with its id', async () => {
    let endpointUp = false;
    const attempts: Array<{ webhookId: string; runId: string }> = [];
    const activities: RampActivities = {
      ...createActivities({
        operator,
        temporal: client,
        logger: pino({ level: 'silent' }),
        config: testActivityConfig(),
      }),
      deliverOutcomeEvent: ({ webhookId }) => {
        attempts.push({ webhookId, runId: Context.current().info.workflowExecution?.runId ?? '' });
        if (!endpointUp) throw ApplicationFailure.retryable('endpoint 1 (127.0.0.1:9) answered HTTP 503');
        return Promise.resolve({ endpoints: 1 });
      },
    };
    running = await startTestWorker(activities);
    const timings = fastTimings({
      outcomeDelivery: {
        attemptTimeoutMs: 2_000,
        retryInitialMs: 100,
        retryMaximumMs: 200,
        retryForMs: 60_000,
      },
    });
    const endUserId = `carried-${Date.now()}`;
    const workflowId = endUserWorkflowId(endUserId);
    const handle = await client.workflow.start(endUserWorkflow, {
      workflowId,
      taskQueue: running.taskQueue,
      args: [{ endUserId, endUserSearchValue: endUserId, timings, continueAsNewAfterEvents: 40 }],
    });
    const ramp = new RampClient({
      connection,
      namespace: testServer().namespace,
      taskQueue: running.taskQueue,
      timings,
    });
    const wallet = await ramp.ensureDepositWallet(endUserId);
    await waitFor('a refused attempt', () => (attempts.length > 0 ? true : undefined));
    // Each call adds events (update accepted and completed, workflow tasks) until the run hands over.
    for (let call = 0; call < 15; call += 1) await ramp.ensureDepositWallet(endUserId);
    const handedOver = await ramp.getEndUser(endUserId);
    expect(handedOver.runs).toBeGreaterThan(1);
    expect(handedOver.outcomes).toMatchObject({
      sequence: 1,
      events: [{ webhookId: `evt_end-user~${endUserId}~1`, delivery: 'pending' }],
    });

    endpointUp = true;
    const state = await waitFor('the carried event to be delivered', async () => {
      const current = await ramp.getEndUser(endUserId);
      return current.outcomes?.events[0]?.delivery === 'delivered' ? current : undefined;
    });
    expect(state.outcomes.events).toHaveLength(1);
    expect(state.outcomes.events[0]!.event).toMatchObject({
      type: 'deposit_wallet.created',
      data: { endUserId, walletId: wallet.walletId },
    });
    expect(new Set(attempts.map((attempt) => attempt.webhookId))).toEqual(
      new Set([`evt_end-user~${endUserId}~1`]),
    );
    const confirmedBy = attempts.at(-1)!.runId;
    expect(confirmedBy).not.toBe(handle.firstExecutionRunId);
    // The first run, which continued as new with the event still pending.
    await recordHistory(client, workflowId, 'end-user-outcome-carried-over', {
      runId: handle.firstExecutionRunId,
    });
  }, 90_000);
});
