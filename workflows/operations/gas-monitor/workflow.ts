/**
 * gas-monitor: run by the `gas-monitor` schedule. Reads the gas wallet's native balance on each network (ETH on
 * Ethereum, TRX on Tron) and raises a `gas-low` alert when it is below its minimum (GAS_MIN_BALANCES). The incident store
 * (in the ledger) deduplicates: every run raises while the balance is low, one alert goes out; when the balance is
 * enough again the run resolves the incident and the resolved notice goes out once.
 */
import { proxyActivities, setCurrentDetails, workflowInfo } from '@temporalio/workflow';
import type { RampActivities } from '../../../activities';
import { operatorActivityOptions } from '../../shared/activity-options';
import { currentDetails, gasAlertDetails, gasAlertMessage, gasResolution } from './rules';
import { DEFAULT_GAS_NETWORKS, type GasMonitorInput, type GasMonitorResult } from './types';
import { declareReleaseBehaviour } from '../../shared/versioning';

export async function gasMonitorWorkflow(input: GasMonitorInput): Promise<GasMonitorResult> {
  const activities = proxyActivities<RampActivities>(operatorActivityOptions(input.timings));
  const result: GasMonitorResult = { checkedAt: new Date().toISOString(), networks: [] };
  // One network after the other, in this order: recorded histories hold the activities in it.
  for (const network of input.networks ?? DEFAULT_GAS_NETWORKS) {
    const assessment = await activities.assessGasWallet({ network });
    if (!assessment.gasWalletId) {
      result.networks.push({ ...assessment, alert: 'skipped' });
      continue;
    }
    const details = gasAlertDetails(network, assessment);
    if (assessment.low) {
      const answer = await activities.raiseAlert({
        kind: 'gas-low',
        message: gasAlertMessage(network, assessment),
        workflowId: workflowInfo().workflowId,
        details,
      });
      result.networks.push({ ...assessment, alert: answer.isNew ? 'raised' : 'already-open' });
    } else {
      const answer = await activities.resolveAlert({
        kind: 'gas-low',
        details,
        resolution: gasResolution(network, assessment),
      });
      result.networks.push({ ...assessment, alert: answer.wasOpen ? 'resolved' : 'none' });
    }
  }
  setCurrentDetails(currentDetails(result));
  return result;
}

declareReleaseBehaviour(gasMonitorWorkflow, 'pinned');
