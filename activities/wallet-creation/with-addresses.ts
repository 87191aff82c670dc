/** A journaled wallet with its addresses: what both owners' creation activities answer. */
import type { CreatedWallet } from '../../workflows/wallet-creation/owner';
import type { ActivityDeps } from '../deps';
import { createWalletAddressActivities } from '../shared/wallets';
import { createWalletJournaled, type JournaledCreation } from './create-wallet';

/**
 * Creates the wallet once per journal, then reads its addresses: a failed read retries the attempt, which finds the
 * journaled wallet and creates nothing.
 */
export async function createWalletWithAddresses(
  deps: ActivityDeps,
  spec: JournaledCreation,
): Promise<CreatedWallet> {
  const created = await createWalletJournaled(deps, spec);
  const addresses = await createWalletAddressActivities(deps).getWalletAddresses({
    walletId: created.walletId,
  });
  return { ...created, addresses };
}
