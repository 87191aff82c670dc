/**
 * Gas wallet activities: the stuck off-ramp's check of the gas wallet (checkGasWallet) and the gas monitor's
 * assessment against its minimum (assessGasWallet).
 */
import { assessGas } from '../../../workflows/operations/gas-monitor/rules';
import type { GasAssessment, GasCheck } from '../../../workflows/operations/gas-monitor/types';
import type { ActivityDeps } from '../../deps';
import { readGasWallet } from './gas-wallet';

export function createGasMonitorActivities(deps: ActivityDeps) {
  return {
    /**
     * The gas wallet's native balance on a network (GetWalletAddresses). The gas wallet is the account-setup
     * workflow's. Never throws for a missing gas wallet: the answer says so.
     */
    async checkGasWallet(input: { network: string }): Promise<GasCheck> {
      return readGasWallet(deps, input.network);
    },

    /** The gas wallet's native balance on a network against its minimum (GAS_MIN_BALANCES). */
    async assessGasWallet(input: { network: string }): Promise<GasAssessment> {
      return assessGas(await readGasWallet(deps, input.network));
    },
  };
}
