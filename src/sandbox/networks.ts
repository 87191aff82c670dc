/** The networks the sandbox supports, as the operator's Network objects. */
import { CHAINS } from '../domain/vocabulary';
import type { Network } from '../operator/schemas';

export const NETWORK_OBJECTS: ReadonlyMap<string, Network> = new Map(
  Object.values(CHAINS).map((chain) => [
    chain.network,
    { name: chain.network, displayName: chain.displayName, isCustom: false, isTestnet: false },
  ]),
);

export function networkObject(name: string): Network {
  return NETWORK_OBJECTS.get(name) ?? { name, displayName: name, isCustom: true, isTestnet: false };
}
