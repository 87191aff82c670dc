import { MockActivityEnvironment } from '@temporalio/testing';
import pino from 'pino';
import { createGasMonitorActivities } from '../../../../activities/operations/gas-monitor/activities';
import type { ActivityDeps } from '../../../../activities/deps';
import { testActivityConfig } from '../../../helpers/activities';

const TRON = 'networks/tron-mainnet';
const ETHEREUM = 'networks/ethereum-mainnet';
const CONFIG = testActivityConfig({ gas: { walletId: 'gas-1', minimums: { ETH: '0.002', TRX: '30' } } });
const HEADROOM = { autoswapsAhead: 3, autoswapCosts: { ETH: '0.003', TRX: '45' } };

/** A gas wallet with a TRX address holding `trx`, and no Ethereum address. */
function activities(trx: string) {
  const getWalletAddresses = jest.fn((_walletId: string) =>
    Promise.resolve([
      { id: 'a-1', address: 'T1', network: { name: TRON }, balances: [{ asset: 'TRX', amount: trx }] },
    ]),
  );
  const deps = {
    operator: { getWalletAddresses },
    temporal: {},
    logger: pino({ level: 'silent' }),
    config: CONFIG,
  } as unknown as ActivityDeps;
  return { activities: createGasMonitorActivities(deps), getWalletAddresses };
}

describe('the gas monitor activities', () => {
  test('assessGasWallet reads the configured gas wallet and assesses it against the Autoswaps ahead', async () => {
    const { activities: gas, getWalletAddresses } = activities('100');
    const assessment = await gas.assessGasWallet({ network: TRON, ...HEADROOM });
    expect(getWalletAddresses).toHaveBeenCalledWith('gas-1');
    expect(assessment).toMatchObject({
      gasWalletId: 'gas-1',
      network: TRON,
      asset: 'TRX',
      balance: '100',
      minimum: '30',
      required: '135',
      costPerAutoswap: '45',
      autoswapsAhead: 3,
      low: true,
      reason: 'below-autoswaps-ahead',
    });
    expect(await gas.assessGasWallet({ network: TRON, ...HEADROOM, autoswapsAhead: 2 })).toMatchObject({
      required: '90',
      low: false,
      reason: null,
    });
  });

  test('a network the gas wallet has no address on is low for want of an address', async () => {
    const { activities: gas } = activities('100');
    expect(await gas.assessGasWallet({ network: ETHEREUM, ...HEADROOM })).toMatchObject({
      asset: 'ETH',
      balance: null,
      low: true,
      reason: 'no-address',
      error: `the gas wallet has no address on ${ETHEREUM}`,
    });
  });

  test('checkGasWallet compares with the minimum only', async () => {
    const { activities: gas } = activities('29');
    expect(await gas.checkGasWallet({ network: TRON })).toMatchObject({
      balance: '29',
      minimum: '30',
      shortfall: true,
    });
  });
});

describe('the gas wallet without GAS_WALLET_ID', () => {
  test("is the configured account setup's gas wallet", async () => {
    const query = jest.fn(() => Promise.resolve({ wallets: { gas: { walletId: 'gas-from-setup' } } }));
    const getHandle = jest.fn((_workflowId: string) => ({ query }));
    const getWalletAddresses = jest.fn((_walletId: string) =>
      Promise.resolve([
        { id: 'a-1', address: 'T1', network: { name: TRON }, balances: [{ asset: 'TRX', amount: '50' }] },
      ]),
    );
    const deps = {
      operator: { getWalletAddresses },
      temporal: {
        workflow: { getHandle },
        withAbortSignal: (_signal: AbortSignal, call: () => Promise<unknown>) => call(),
      },
      logger: pino({ level: 'silent' }),
      config: testActivityConfig({
        processIds: { accountSetupWorkflowId: 'account-setup-test', alertsWorkflowId: 'ops/alerts' },
      }),
    } as unknown as ActivityDeps;
    const gas = createGasMonitorActivities(deps);
    const check = await new MockActivityEnvironment().run(() => gas.checkGasWallet({ network: TRON }));
    expect(getHandle).toHaveBeenCalledWith('account-setup-test');
    expect(getWalletAddresses).toHaveBeenCalledWith('gas-from-setup');
    expect(check).toMatchObject({ gasWalletId: 'gas-from-setup', balance: '50', shortfall: false });
  });
});
