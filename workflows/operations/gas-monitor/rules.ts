/**
 * Pure rules of the gas monitor: whether the gas wallet holds enough for its minimum and for the next Autoswaps,
 * and the texts of its alert, its resolution and its summary. Workflow-safe: no I/O, no Temporal calls. The
 * assessment runs inside the assessGasWallet activity; the texts in the workflow.
 */
import { compareDecimals, multiplyDecimal } from '../../../src/domain/decimal';
import type { AlertInput } from '../alerts/types';
import type { GasAssessment, GasCheck, GasHeadroom, GasMonitorResult } from './types';

/**
 * The check against max(minimum, costPerAutoswap x autoswapsAhead). Low when the wallet has no address on the
 * network, is below its minimum, or cannot cover the Autoswaps ahead (checked in that order); never low without
 * a known gas wallet (the check says why).
 */
export function assessGas(check: GasCheck, headroom: GasHeadroom): GasAssessment {
  const cost = headroom.autoswapCosts[check.asset] ?? null;
  const ahead = cost ? multiplyDecimal(cost, headroom.autoswapsAhead) : '0';
  const required = compareDecimals(ahead, check.minimum) > 0 ? ahead : check.minimum;
  const base = { ...check, costPerAutoswap: cost, autoswapsAhead: headroom.autoswapsAhead, required };
  if (!check.gasWalletId) return { ...base, low: false, reason: null };
  if (check.balance === null) return { ...base, low: true, reason: 'no-address' };
  if (compareDecimals(check.balance, check.minimum) < 0)
    return { ...base, low: true, reason: 'below-minimum' };
  if (compareDecimals(check.balance, required) < 0)
    return { ...base, low: true, reason: 'below-autoswaps-ahead' };
  return { ...base, low: false, reason: null };
}

/** What the `gas-low` incident of a network records (its key is kind + network). */
export function gasAlertDetails(network: string, assessment: GasAssessment): AlertInput['details'] {
  return {
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
}

export function gasAlertMessage(network: string, assessment: GasAssessment): string {
  if (assessment.reason === 'no-address') {
    return `The gas wallet ${assessment.gasWalletId} has no address on ${network}: Autoswaps on it will strand`;
  }
  const below =
    assessment.reason === 'below-minimum'
      ? 'the minimum'
      : `${assessment.autoswapsAhead} Autoswaps at ${assessment.costPerAutoswap ?? '?'}`;
  return `Gas wallet ${assessment.gasWalletId} holds ${assessment.balance ?? '?'} ${assessment.asset} on ${network}, below ${assessment.required} (${below}): fund it before deposits strand`;
}

export function gasResolution(network: string, assessment: GasAssessment): string {
  return `Gas wallet ${assessment.gasWalletId} holds ${assessment.balance ?? '?'} ${assessment.asset} on ${network} (needs ${assessment.required})`;
}

/** One network's line of the monitor's current details. */
export function summaryLine(entry: GasMonitorResult['networks'][number]): string {
  return `${entry.network}: ${entry.balance ?? '?'} ${entry.asset} (needs ${entry.required}) ${entry.low ? 'LOW' : 'ok'}, alert ${entry.alert}`;
}

export function currentDetails(result: GasMonitorResult): string {
  return result.networks.map(summaryLine).join('\n');
}
