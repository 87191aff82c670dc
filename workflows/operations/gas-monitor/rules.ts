/**
 * Pure rules of the gas monitor: whether the gas wallet holds its minimum, and the texts of its alert, its
 * resolution and its summary. Workflow-safe: no I/O, no Temporal calls. The assessment runs inside the
 * assessGasWallet activity; the texts in the workflow.
 */
import { compareDecimals } from '../../../src/domain/decimal';
import type { AlertInput } from '../alerts/types';
import type { GasAssessment, GasCheck, GasMonitorResult } from './types';

/**
 * The check against the minimum (GAS_MIN_BALANCES), which alone decides. Low when the wallet has no address
 * on the network or is below its minimum; never low without a known gas wallet (the check says why).
 */
export function assessGas(check: GasCheck): GasAssessment {
  if (!check.gasWalletId) return { ...check, low: false, reason: null };
  if (check.balance === null) return { ...check, low: true, reason: 'no-address' };
  if (compareDecimals(check.balance, check.minimum) < 0)
    return { ...check, low: true, reason: 'below-minimum' };
  return { ...check, low: false, reason: null };
}

/** What the `gas-low` incident of a network records (its key is kind + network). */
export function gasAlertDetails(network: string, assessment: GasAssessment): AlertInput['details'] {
  return {
    network,
    gasWalletId: assessment.gasWalletId,
    asset: assessment.asset,
    balance: assessment.balance,
    minimum: assessment.minimum,
    reason: assessment.reason,
  };
}

export function gasAlertMessage(network: string, assessment: GasAssessment): string {
  if (assessment.reason === 'no-address') {
    return `The gas wallet ${assessment.gasWalletId} has no address on ${network}: Autoswaps on it will strand`;
  }
  return `Gas wallet ${assessment.gasWalletId} holds ${assessment.balance ?? '?'} ${assessment.asset} on ${network}, below its minimum ${assessment.minimum}: fund it before deposits strand`;
}

export function gasResolution(network: string, assessment: GasAssessment): string {
  return `Gas wallet ${assessment.gasWalletId} holds ${assessment.balance ?? '?'} ${assessment.asset} on ${network} (minimum ${assessment.minimum})`;
}

/** One network's line of the monitor's current details. */
export function summaryLine(entry: GasMonitorResult['networks'][number]): string {
  return `${entry.network}: ${entry.balance ?? '?'} ${entry.asset} (minimum ${entry.minimum}) ${entry.low ? 'LOW' : 'ok'}, alert ${entry.alert}`;
}

export function currentDetails(result: GasMonitorResult): string {
  return result.networks.map(summaryLine).join('\n');
}
