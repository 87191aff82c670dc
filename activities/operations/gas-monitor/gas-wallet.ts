/**
 * The gas wallet's native balance on one network: the one read behind both the stuck off-ramp's check
 * (checkGasWallet) and the gas monitor's assessment (assessGasWallet).
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { compareDecimals } from '../../../src/domain/decimal';
import { nativeAssetOfNetwork } from '../../../src/domain/vocabulary';
import { accountStateQuery } from '../../../workflows/account-setup/messages';
import type { GasCheck } from '../../../workflows/operations/gas-monitor/types';
import type { ActivityDeps } from '../../deps';
import { cancellable } from '../../shared/cancellable';
import { callOperator } from '../../shared/operator-failure';

/**
 * The gas wallet's native balance on a network (GetWalletAddresses) against its configured minimum. The gas
 * wallet is the account-setup workflow's (or the one a stack built in code names). Never throws for a missing gas
 * wallet: the answer says so.
 */
export async function readGasWallet(
  { operator, temporal, logger, config }: Pick<ActivityDeps, 'operator' | 'temporal' | 'logger' | 'config'>,
  network: string,
): Promise<GasCheck> {
  const asset = nativeAssetOfNetwork(network) ?? 'unknown';
  const minimum = config.gas.minimums[asset] ?? '0';
  const base = { network, asset, minimum, checkedAt: new Date().toISOString() };
  let gasWalletId = config.gas.walletId ?? null;
  if (!gasWalletId) {
    try {
      const state = await cancellable(temporal, () =>
        temporal.workflow.getHandle(config.processIds.accountSetupWorkflowId).query(accountStateQuery),
      );
      gasWalletId = state.wallets.gas?.walletId ?? null;
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
  }
  if (!gasWalletId) {
    return {
      ...base,
      gasWalletId: null,
      balance: null,
      shortfall: false,
      error: 'no gas wallet known (run the account setup)',
    };
  }
  const walletId = gasWalletId;
  const entries = await callOperator(() => operator.getWalletAddresses(walletId));
  const entry = entries.find((candidate) => candidate.network.name === network);
  if (!entry)
    return {
      ...base,
      gasWalletId,
      balance: null,
      shortfall: true,
      error: `the gas wallet has no address on ${network}`,
    };
  const balance = entry.balances.find((candidate) => candidate.asset === asset)?.amount ?? '0';
  const shortfall = compareDecimals(balance, minimum) < 0;
  logger.info({ gasWalletId, network, asset, balance, minimum, shortfall }, 'Gas wallet checked');
  return { ...base, gasWalletId, balance, shortfall };
}
