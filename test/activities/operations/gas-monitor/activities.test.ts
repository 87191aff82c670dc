import { MockActivityEnvironment } from '@temporalio/testing';
import pino from 'pino';
import { createGasMonitorActivities } from '../../../../activities/operations/gas-monitor/activities';
import type { ActivityDeps } from '../../../../activities/deps';
import { testActivityConfig } from '../../../helpers/activities';

const TRON = 'networks/tron-mainnet';
const ETHEREUM = 'networks/ethereum-mainnet';
const PROCESS_IDS = { accountSetupWorkflowId: 'account-setup-test' };

/**
 * The account setup's gas wallet (`gas-from-setup`, or none when `gasWallet` is null), with a TRX address holding
 * `trx` and no Ethereum address.
 */
function activities(trx: string, gasWallet: string | null = 'gas-from-setup') {
  const query = jest.fn(() =>
    Promise.resolve({ wallets: { gas: gasWallet ? { walletId: gasWallet } : undefined } }),
  );
  const getHandle = jest.fn((_workflowId: string) => ({ query }));
  const getWalletAddresses = jest.fn((_walletId: string) =>
    Promise.resolve([
      { id: 'a-1', address: 'T1', network: { name: TRON }, balances: [{ asset: 'TRX', amount: trx }] },
    ]),
  );
  const deps = {
    operator: { getWalletAddresses },
    temporal: {
      workflow: { getHandle },
      withAbortSignal: (_signal: AbortSignal, call: () => Promise<unknown>) => call(),
    },
    logger: pino({ level: 'silent' }),
    config: testActivityConfig({ processIds: PROCESS_IDS, gas: { minimums: { ETH: '0.002', TRX: '30' } } }),
  } as unknown as ActivityDeps;
  const run = <T>(call: () => Promise<T>) => new MockActivityEnvironment().run(call);
  return { activities: createGasMonitorActivities(deps), deps, getHandle, getWalletAddresses, run };
}

describe('the gas monitor activities', () => {
  test("the gas wallet is the account setup's, assessed against its minimum alone", async () => {
    const { activities: gas, getHandle, getWalletAddresses, run } = activities('29');
    const low = await run(() => gas.assessGasWallet({ network: TRON }));
    expect(getHandle).toHaveBeenCalledWith('account-setup-test');
    expect(getWalletAddresses).toHaveBeenCalledWith('gas-from-setup');
    expect(low).toMatchObject({
      gasWalletId: 'gas-from-setup',
      network: TRON,
      asset: 'TRX',
      balance: '29',
      minimum: '30',
      low: true,
      reason: 'below-minimum',
    });
    const enough = activities('30');
    expect(await enough.run(() => enough.activities.assessGasWallet({ network: TRON }))).toMatchObject({
      low: false,
      reason: null,
    });
  });

  test('a network the gas wallet has no address on is low for want of an address', async () => {
    const { activities: gas, run } = activities('100');
    expect(await run(() => gas.assessGasWallet({ network: ETHEREUM }))).toMatchObject({
      asset: 'ETH',
      balance: null,
      low: true,
      reason: 'no-address',
      error: `the gas wallet has no address on ${ETHEREUM}`,
    });
  });

  test('checkGasWallet compares with the minimum', async () => {
    const { activities: gas, run } = activities('29');
    expect(await run(() => gas.checkGasWallet({ network: TRON }))).toMatchObject({
      gasWalletId: 'gas-from-setup',
      balance: '29',
      minimum: '30',
      shortfall: true,
    });
  });

  test('a gas wallet named in code (a stack without the account setup) is read as it is', async () => {
    const { deps, getHandle, getWalletAddresses, run } = activities('50');
    const named = createGasMonitorActivities({
      ...deps,
      config: testActivityConfig({ gas: { walletId: 'gas-1', minimums: { TRX: '30' } } }),
    });
    expect(await run(() => named.checkGasWallet({ network: TRON }))).toMatchObject({
      gasWalletId: 'gas-1',
      shortfall: false,
    });
    expect(getHandle).not.toHaveBeenCalled();
    expect(getWalletAddresses).toHaveBeenCalledWith('gas-1');
  });

  test('before the account setup there is no gas wallet to check, and the answer says so', async () => {
    const { activities: gas, getWalletAddresses, run } = activities('0', null);
    expect(await run(() => gas.assessGasWallet({ network: TRON }))).toMatchObject({
      gasWalletId: null,
      low: false,
      error: 'no gas wallet known (run the account setup)',
    });
    expect(getWalletAddresses).not.toHaveBeenCalled();
  });
});
