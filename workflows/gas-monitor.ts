/**
 * gas-monitor: run by the `gas-monitor` schedule (issue 6). Reads the gas wallet's native balance on each network
 * (ETH on Ethereum, TRX on Tron) and raises a `gas-low` alert when it is below its minimum (GAS_MIN_BALANCE_*) or
 * below what the next N Autoswaps cost (GAS_MONITOR_AUTOSWAPS_AHEAD x GAS_AUTOSWAP_COST_*). The incident store
 * (ops/alerts) deduplicates: every run raises while the balance is low, one alert goes out; when the balance is
 * enough again the run resolves the incident and the resolved notice goes out once.
 */
import { proxyActivities, setCurrentDetails, workflowInfo } from '@temporalio/workflow';
import type { RampActivities } from '../activities';
import { operatorActivityOptions } from './activity-options';
import { DEFAULT_GAS_NETWORKS, type GasMonitorInput, type GasMonitorResult } from './ops-types';

export async function gasMonitorWorkflow(input: GasMonitorInput): Promise<GasMonitorResult> {
  const activities = proxyActivities<RampActivities>(operatorActivityOptions(input.timings));
  const result: GasMonitorResult = { checkedAt: new Date().toISOString(), networks: [] };
  for (const network of input.networks ?? DEFAULT_GAS_NETWORKS) {
    const assessment = await activities.assessGasWallet({ network, autoswapsAhead: input.autoswapsAhead, autoswapCosts: input.autoswapCosts });
    if (!assessment.gasWalletId) {
      result.networks.push({ ...assessment, alert: 'skipped' });
      continue;
    }
    const details = {
      network,
      gasWalletId: assessment.gasWalletId,
      asset: assessment.asset,
      balance: assessment.balance,
      minimum: assessment.minimum,
      required: assessment.required,
      autoswapsAhead: assessment.autoswapsAhead,
      costPerAutoswap: assessment.costPerAutoswap,
      reason: assessment.reason,
    };
    if (assessment.low) {
      const answer = await activities.raiseAlert({
        kind: 'gas-low',
        message:
          assessment.reason === 'no-address'
            ? `The gas wallet ${assessment.gasWalletId} has no address on ${network}: Autoswaps on it will strand`
            : `Gas wallet ${assessment.gasWalletId} holds ${assessment.balance ?? '?'} ${assessment.asset} on ${network}, below ${assessment.required} (${assessment.reason === 'below-minimum' ? 'the minimum' : `${assessment.autoswapsAhead} Autoswaps at ${assessment.costPerAutoswap ?? '?'}`}): fund it before deposits strand`,
        workflowId: workflowInfo().workflowId,
        details,
      });
      result.networks.push({ ...assessment, alert: answer.isNew ? 'raised' : 'already-open' });
    } else {
      const answer = await activities.resolveAlert({
        kind: 'gas-low',
        details,
        resolution: `Gas wallet ${assessment.gasWalletId} holds ${assessment.balance ?? '?'} ${assessment.asset} on ${network} (needs ${assessment.required})`,
      });
      result.networks.push({ ...assessment, alert: answer.wasOpen ? 'resolved' : 'none' });
    }
  }
  setCurrentDetails(result.networks.map((entry) => `${entry.network}: ${entry.balance ?? '?'} ${entry.asset} (needs ${entry.required}) ${entry.low ? 'LOW' : 'ok'}, alert ${entry.alert}`).join('\n'));
  return result;
}
