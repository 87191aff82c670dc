/**
 * Gas wallet activities: the stuck off-ramp's check of the gas wallet (checkGasWallet) and the gas monitor's
 * assessment against the Autoswaps it must still cover (assessGasWallet).
 */
import { assessGas } from '../../../workflows/operations/gas-monitor/rules';
import type { GasAssessment, GasCheck, GasHeadroom } from '../../../workflows/operations/gas-monitor/types';
import type { ActivityDeps } from '../../deps';
import { readGasWallet } from './gas-wallet';

export function createGasMonitorActivities(deps: ActivityDeps) {
  return {
    /**
     * The gas wallet's native balance on a network (GetWalletAddresses). The gas wallet is GAS_WALLET_ID or the
     * account-setup workflow's gas wallet. Never throws for a missing gas wallet: the answer says so.
     */
    async checkGasWallet(input: { network: string }): Promise<GasCheck> {
      return readGasWallet(deps, input.network);
    },

    /**
     * The gas wallet's native balance on a network against max(minimum, costPerAutoswap x autoswapsAhead).
     * The cost per Autoswap is configuration (GAS_AUTOSWAP_COST_*: top-up + sweep, the worst case).
     */
    async assessGasWallet(input: { network: string } & GasHeadroom): Promise<GasAssessment> {
      return assessGas(await readGasWallet(deps, input.network), input);
    },
  };
}
