import {
  ACCOUNT_WALLET_ROLES,
  CHAINS,
  nativeAssetOfNetwork,
  NETWORKS,
  networkOfChain,
  RESOURCE_KIND_OF_PATH,
  RESOURCE_KINDS,
  TRANSACTION_KINDS,
} from '../../../src/domain/vocabulary';

describe('vocabulary', () => {
  test('chain codes name their network and native asset', () => {
    expect(networkOfChain('ETH')).toBe('networks/ethereum-mainnet');
    expect(networkOfChain('TRX')).toBe('networks/tron-mainnet');
    expect(networkOfChain('BTC')).toBeUndefined();
    expect(networkOfChain('toString')).toBeUndefined();
    expect(nativeAssetOfNetwork(NETWORKS.ethereum)).toBe('ETH');
    expect(nativeAssetOfNetwork(NETWORKS.tron)).toBe('TRX');
    expect(nativeAssetOfNetwork('networks/solana-mainnet')).toBeUndefined();
    expect(Object.keys(CHAINS)).toEqual(['ETH', 'TRX']);
  });

  // Workflows loop over these to schedule activities: recorded histories hold the commands in this order.
  test('the account wallet roles and the resource kinds keep their order', () => {
    expect(ACCOUNT_WALLET_ROLES).toEqual(['master', 'gas']);
    expect(RESOURCE_KINDS).toEqual(['transaction', 'order']);
  });

  test('transaction kinds are the types and subtypes the processes route on', () => {
    expect(Object.values(TRANSACTION_KINDS).map((kind) => kind.type)).toEqual([
      'Deposit',
      'Internal Transfer',
      'AutoSweep',
      'AutoSwap',
    ]);
    expect(TRANSACTION_KINDS.sweep.subtype).toBe('sponsored-sweep');
  });

  test('the recipient URL path names the resource kind', () => {
    expect(RESOURCE_KIND_OF_PATH).toEqual({ transactions: 'transaction', orders: 'order' });
  });
});
