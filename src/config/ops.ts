/**
 * Operations (issue 6): the gas-wallet monitor and reconciliation schedules, and the alerts incident store.
 *
 * GAS_MONITOR_INTERVAL        how often the `gas-monitor` schedule runs (default 5m)
 * GAS_MONITOR_AUTOSWAPS_AHEAD the gas wallet must cover this many Autoswaps at their cost (default 3)
 * GAS_AUTOSWAP_COST_ETH/_TRX  what one Autoswap costs the gas wallet in the native asset: the one-time top-up of a
 *                             new deposit wallet plus one sponsored sweep, i.e. the worst case (defaults 0.003 ETH,
 *                             45 TRX, the sandbox's 0.002 + 0.001 and 30 + 15). Set them from the operator's fees.
 * RECONCILE_INTERVAL          how often the `reconcile` schedule runs (default 1h)
 * ALERTS_WORKFLOW_ID          the incident store (default ops/alerts), read from src/config/ramps.ts by the activity
 */
import { z } from 'zod';
import { durationMs } from './duration';
import { decimalText, type Env, parseSection } from './env';

const opsEnv = z.object({
  GAS_MONITOR_INTERVAL: durationMs('5m'),
  GAS_MONITOR_AUTOSWAPS_AHEAD: z.coerce.number().int().min(0).max(10_000).default(3),
  GAS_AUTOSWAP_COST_ETH: decimalText('0.003'),
  GAS_AUTOSWAP_COST_TRX: decimalText('45'),
  RECONCILE_INTERVAL: durationMs('1h'),
});

export interface OpsConfig {
  gasMonitorIntervalMs: number;
  autoswapsAhead: number;
  /** Native asset -> cost of one Autoswap to the gas wallet (decimal string). */
  autoswapCosts: Record<string, string>;
  reconcileIntervalMs: number;
}

export function loadOpsConfig(env: Env = process.env): OpsConfig {
  const raw = parseSection('operations', opsEnv, env);
  return {
    gasMonitorIntervalMs: raw.GAS_MONITOR_INTERVAL,
    autoswapsAhead: raw.GAS_MONITOR_AUTOSWAPS_AHEAD,
    autoswapCosts: { ETH: raw.GAS_AUTOSWAP_COST_ETH, TRX: raw.GAS_AUTOSWAP_COST_TRX },
    reconcileIntervalMs: raw.RECONCILE_INTERVAL,
  };
}
