import type { Client } from '@temporalio/client';
import type { Ledger } from '../../../src/database/connection';
import { MockActivityEnvironment } from '@temporalio/testing';
import pino from 'pino';
import { createAccountSetupActivities } from '../../../activities/account-setup/activities';
import type { OperatorClient } from '../../../src/operator/client';
import { testActivityConfig } from '../../helpers/activities';

const logger = pino({ level: 'silent' });
const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

describe('account setup activities', () => {
  test('the account setup registers its wallet creation and the three recipient activities', () => {
    const deps = { operator: {}, temporal: {}, logger } as unknown as Parameters<
      typeof createAccountSetupActivities
    >[0];
    expect(Object.keys(createAccountSetupActivities(deps)).sort()).toEqual([
      'createAccountWallet',
      'deleteWebhookRecipient',
      'ensureWebhookRecipient',
      'listWebhookRecipients',
    ]);
  });

  test.each([
    ['master', 'ramp-orchestrator/master'],
    ['gas', 'ramp-orchestrator/gas'],
  ] as const)('the %s wallet is created under its label and journaled with its role', async (role, label) => {
    const signals: Record<string, unknown>[] = [];
    const created: string[] = [];
    const temporal = {
      workflow: {
        getHandle: () => ({
          signal: (_definition: unknown, arg: Record<string, unknown>) => {
            signals.push(arg);
            return Promise.resolve();
          },
        }),
      },
      withAbortSignal: (_signal: AbortSignal, call: () => Promise<unknown>) => call(),
    } as unknown as Client;
    const operator = {
      ensureSession: () => Promise.resolve(),
      createWallet: ({ externalUserId }: { externalUserId: string }) => {
        created.push(externalUserId);
        return Promise.resolve({ id: `w-${role}`, externalUserId });
      },
      getWalletAddresses: () =>
        Promise.resolve([{ address: '0xabc', network: { name: 'networks/ethereum-mainnet' }, balances: [] }]),
    } as unknown as OperatorClient;
    const activities = createAccountSetupActivities({
      operator,
      temporal,
      logger,
      config: testActivityConfig(),
      ledger: {} as Ledger,
    });
    const env = new MockActivityEnvironment({ attempt: 1, startToCloseTimeoutMs: 10_000 }, { logger: quiet });
    const wallet = await env.run((input) => activities.createAccountWallet(input), {
      role,
      workflowId: 'account-setup',
    });
    expect(wallet).toMatchObject({
      walletId: `w-${role}`,
      externalUserId: label,
      addresses: [{ network: 'networks/ethereum-mainnet', address: '0xabc', balances: [] }],
    });
    expect(created).toEqual([label]);
    expect(signals.map((signal) => [signal.externalUserId, signal.role])).toEqual([
      [label, role],
      [label, role],
    ]);
  });
});
