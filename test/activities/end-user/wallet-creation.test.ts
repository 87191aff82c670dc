import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { loadDataConverter } from '@temporalio/common/lib/internal-non-workflow';
import { MockActivityEnvironment } from '@temporalio/testing';
import pino from 'pino';
import { createEndUserActivities } from '../../../activities/end-user/activities';
import { type CreatedWallet, createWalletJournaled } from '../../../activities/end-user/wallet-creation';
import type { OperatorClient } from '../../../src/operator/client';
import type { WalletCreatedSignal } from '../../../workflows/end-user/wallet-journal';
import { testActivityConfig } from '../../helpers/activities';

const RUN_ID = 'abcdef01-2345-6789-abcd-ef0123456789';
const logger = pino({ level: 'silent' });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A Temporal client whose owner workflow records the signals it is sent and whose history holds `journaled`
 * (walletCreated signals). Reads of the history and signals take the delays given; `Infinity` never answers.
 */
function stubTemporal(
  events: string[],
  journaled: WalletCreatedSignal[] = [],
  delays: { historyMs?: number; signalMs?: number } = {},
) {
  const { historyMs = 0, signalMs = 0 } = delays;
  const signals: { name: string; arg: Record<string, unknown> }[] = [];
  const history = {
    events: journaled.map((answer) => ({
      workflowExecutionSignaledEventAttributes: {
        signalName: 'walletCreated',
        input: { payloads: [defaultPayloadConverter.toPayload(answer)] },
      },
    })),
  };
  const temporal = {
    withAbortSignal: (_signal: AbortSignal, call: () => Promise<unknown>) => call(),
    workflow: {
      options: { loadedDataConverter: loadDataConverter() },
      getHandle: () => ({
        fetchHistory: async () => {
          await sleep(historyMs);
          return history;
        },
        signal: async (definition: { name: string }, arg: Record<string, unknown>) => {
          if (signalMs === Infinity) return new Promise(() => undefined);
          await sleep(signalMs);
          events.push(`signal ${definition.name}`);
          signals.push({ name: definition.name, arg });
        },
      }),
    },
  };
  return { temporal: temporal as unknown as Client, signals };
}

function stubOperator(events: string[]) {
  let created = 0;
  const operator = {
    createWallet: ({ networks, externalUserId }: { networks: string[]; externalUserId: string }) => {
      created += 1;
      events.push(`createWallet ${externalUserId} ${networks.join(',')}`);
      return Promise.resolve({ id: `w-${created}`, externalUserId });
    },
  };
  return operator as unknown as OperatorClient;
}

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const attempt = (n: number, startToCloseTimeoutMs = 10_000) =>
  new MockActivityEnvironment(
    {
      attempt: n,
      activityId: '3',
      startToCloseTimeoutMs,
      workflowExecution: { workflowId: 'end-user/u-1', runId: RUN_ID },
    },
    { logger: quiet },
  );

describe('journaled wallet creation', () => {
  test('the request is journaled before CreateWallet is sent, and the answer right after', async () => {
    const events: string[] = [];
    const { temporal, signals } = stubTemporal(events);
    const activities = createEndUserActivities({
      operator: stubOperator(events),
      temporal,
      logger,
      config: testActivityConfig(),
    });
    const created = await attempt(1).run((input) => activities.createDepositWallet(input), {
      endUserId: 'u-1',
      workflowId: 'end-user/u-1',
    });

    expect(events).toEqual([
      'signal walletCreationRequested',
      'createWallet end-user:u-1 networks/ethereum-mainnet,networks/tron-mainnet',
      'signal walletCreated',
    ]);
    expect(created).toEqual({ walletId: 'w-1', externalUserId: 'end-user:u-1', requestId: 'abcdef01/3#1' });
    expect(signals.map(({ arg }) => arg)).toEqual([
      { requestId: 'abcdef01/3#1', attempt: 1, externalUserId: 'end-user:u-1' },
      { walletId: 'w-1', externalUserId: 'end-user:u-1', attempt: 1, requestId: 'abcdef01/3#1' },
    ]);
  });

  test('a retried attempt returns the answer a previous attempt journaled, creating nothing', async () => {
    const events: string[] = [];
    const journaled = {
      walletId: 'w-0',
      externalUserId: 'end-user:u-1',
      attempt: 1,
      requestId: 'abcdef01/3#1',
    };
    const { temporal } = stubTemporal(events, [journaled]);
    const activities = createEndUserActivities({
      operator: stubOperator(events),
      temporal,
      logger,
      config: testActivityConfig(),
    });
    const created = await attempt(2).run((input) => activities.createDepositWallet(input), {
      endUserId: 'u-1',
      workflowId: 'end-user/u-1',
    });
    expect(created).toEqual({ walletId: 'w-0', externalUserId: 'end-user:u-1', requestId: 'abcdef01/3#1' });
    expect(events).toEqual([]);
  });

  test("an account wallet's retry looks only at answers of its own role", async () => {
    const events: string[] = [];
    const gas = {
      walletId: 'w-gas',
      externalUserId: 'ramp-orchestrator/gas',
      attempt: 1,
      role: 'gas' as const,
    };
    const { temporal, signals } = stubTemporal(events, [gas]);
    const created = await attempt(2).run((): Promise<CreatedWallet> =>
      createWalletJournaled(
        { operator: stubOperator(events), temporal, logger },
        {
          workflowId: 'account-setup',
          externalUserId: 'ramp-orchestrator/master',
          role: 'master',
          logFields: {},
        },
      ),
    );
    expect(created.walletId).toBe('w-1');
    expect(signals.map(({ arg }) => arg.role)).toEqual(['master', 'master']);
  });

  test('a journal that does not answer in time fails the attempt before anything is created', async () => {
    const events: string[] = [];
    const { temporal } = stubTemporal(events, [], { signalMs: Infinity });
    const activities = createEndUserActivities({
      operator: stubOperator(events),
      temporal,
      logger,
      config: testActivityConfig(),
    });
    await expect(
      attempt(1, 100).run((input) => activities.createDepositWallet(input), {
        endUserId: 'u-1',
        workflowId: 'end-user/u-1',
      }),
    ).rejects.toMatchObject({ type: 'JournalUnavailable', nonRetryable: false });
    expect(events).toEqual([]);
  });

  test('journal calls that used up half the attempt leave CreateWallet to the next attempt', async () => {
    const events: string[] = [];
    // Each call stays within its own budget (40% of 200 ms); together they leave less than half the attempt.
    const { temporal } = stubTemporal(events, [], { historyMs: 60, signalMs: 60 });
    const activities = createEndUserActivities({
      operator: stubOperator(events),
      temporal,
      logger,
      config: testActivityConfig(),
    });
    await expect(
      attempt(2, 200).run((input) => activities.createDepositWallet(input), {
        endUserId: 'u-1',
        workflowId: 'end-user/u-1',
      }),
    ).rejects.toMatchObject({ type: 'AttemptTooLate' });
    expect(events).toEqual(['signal walletCreationRequested']);
  });
});
