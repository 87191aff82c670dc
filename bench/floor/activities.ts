/** The floor's one operator call: what every deposit wallet needs from the operator, and nothing more. */
import { NETWORKS } from '../../src/domain/vocabulary';
import type { OperatorClient } from '../../src/operator/client';

export interface FloorWallet {
  walletId: string;
  addresses: number;
}

export function walletFloorActivities(operator: OperatorClient) {
  return {
    /** CreateWallet, then the new wallet's addresses, as the product's creating activity reads them. */
    async floorCreateWallet(label: string): Promise<FloorWallet> {
      const wallet = await operator.createWallet({
        networks: [NETWORKS.ethereum, NETWORKS.tron],
        externalUserId: label,
      });
      const addresses = await operator.getWalletAddresses(wallet.id);
      return { walletId: wallet.id, addresses: addresses.length };
    },
  };
}

export type FloorActivities = ReturnType<typeof walletFloorActivities>;
