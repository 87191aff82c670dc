/** Reading a wallet's addresses: the end user's deposit wallet and the account's two wallets alike. */
import type { AddressOnNetwork } from '../../src/domain/vocabulary';
import type { ActivityDeps } from '../deps';
import { callOperator } from './operator-failure';

export interface WalletAddressWithBalances extends AddressOnNetwork {
  balances: { asset: string; amount: string }[];
}

export function createWalletAddressActivities({ operator }: Pick<ActivityDeps, 'operator'>) {
  return {
    /** Every address of a wallet (all pages), with balances. */
    async getWalletAddresses(input: { walletId: string }): Promise<WalletAddressWithBalances[]> {
      const entries = await callOperator(() => operator.getWalletAddresses(input.walletId));
      return entries.map((entry) => ({
        network: entry.network.name,
        address: entry.address,
        balances: entry.balances.map(({ asset, amount }) => ({ asset, amount })),
      }));
    },
  };
}
