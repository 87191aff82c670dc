/**
 * Operations: the gas wallet the stuck off-ramp and the gas monitor read, the alert webhook, and the intervals of
 * the gas-monitor and reconcile schedules.
 *
 * GAS_WALLET_ID               the gas wallet (default: the account-setup workflow's gas wallet)
 * GAS_MIN_BALANCE_ETH/_TRX    the native balance below which the gas wallet counts as short (defaults 0.002, 30)
 * ALERT_WEBHOOK_URL           Slack-compatible incoming webhook (`{ text }`); a secret: never logged
 * ALERT_WEBHOOK_TIMEOUT       how long one webhook POST may take (default 5s)
 * GAS_MONITOR_INTERVAL        how often the `gas-monitor` schedule runs (default 5m)
 * GAS_MONITOR_AUTOSWAPS_AHEAD the gas wallet must cover this many Autoswaps at their cost (default 3)
 * GAS_AUTOSWAP_COST_ETH/_TRX  what one Autoswap costs the gas wallet in the native asset: the one-time top-up of a
 *                             new deposit wallet plus one sponsored sweep, i.e. the worst case (defaults 0.003 ETH,
 *                             45 TRX, the sandbox's 0.002 + 0.001 and 30 + 15). Set them from the operator's fees.
 * RECONCILE_INTERVAL          how often the `reconcile` schedule runs (default 1h)
 * The incident store's workflow ID (ALERTS_WORKFLOW_ID) is a process ID: src/config/process-ids.ts.
 */
import { z } from 'zod';
import { durationMs } from './duration';
import { decimalText, type Env, parseSection } from './env';

const operationsEnv = z.object({
  /** When unset, the gas wallet is read from the account-setup workflow's state. */
  GAS_WALLET_ID: z.string().min(1).optional(),
  GAS_MIN_BALANCE_ETH: decimalText('0.002'),
  GAS_MIN_BALANCE_TRX: decimalText('30'),
  ALERT_WEBHOOK_URL: z.url({ protocol: /^https?$/ }).optional(),
  ALERT_WEBHOOK_TIMEOUT: durationMs('5s'),
  GAS_MONITOR_INTERVAL: durationMs('5m'),
  GAS_MONITOR_AUTOSWAPS_AHEAD: z.coerce.number().int().min(0).max(10_000).default(3),
  GAS_AUTOSWAP_COST_ETH: decimalText('0.003'),
  GAS_AUTOSWAP_COST_TRX: decimalText('45'),
  RECONCILE_INTERVAL: durationMs('1h'),
});

/** The gas wallet the activities read and the balance each native asset must keep. */
export interface GasConfig {
  walletId?: string;
  /** Native asset -> minimum balance (decimal string). */
  minimums: Record<string, string>;
}

/** Where alerts are posted besides the log line. */
export interface AlertsConfig {
  webhookUrl?: string;
  webhookTimeoutMs: number;
}

/** The two operations schedules. */
export interface SchedulesConfig {
  gasMonitorIntervalMs: number;
  autoswapsAhead: number;
  /** Native asset -> cost of one Autoswap to the gas wallet (decimal string). */
  autoswapCosts: Record<string, string>;
  reconcileIntervalMs: number;
}

export interface OperationsConfig {
  gas: GasConfig;
  alerts: AlertsConfig;
  schedules: SchedulesConfig;
}

export function loadOperationsConfig(env: Env): OperationsConfig {
  const raw = parseSection('operations', operationsEnv, env);
  return {
    gas: {
      ...(raw.GAS_WALLET_ID ? { walletId: raw.GAS_WALLET_ID } : {}),
      minimums: { ETH: raw.GAS_MIN_BALANCE_ETH, TRX: raw.GAS_MIN_BALANCE_TRX },
    },
    alerts: {
      ...(raw.ALERT_WEBHOOK_URL ? { webhookUrl: raw.ALERT_WEBHOOK_URL } : {}),
      webhookTimeoutMs: raw.ALERT_WEBHOOK_TIMEOUT,
    },
    schedules: {
      gasMonitorIntervalMs: raw.GAS_MONITOR_INTERVAL,
      autoswapsAhead: raw.GAS_MONITOR_AUTOSWAPS_AHEAD,
      autoswapCosts: { ETH: raw.GAS_AUTOSWAP_COST_ETH, TRX: raw.GAS_AUTOSWAP_COST_TRX },
      reconcileIntervalMs: raw.RECONCILE_INTERVAL,
    },
  };
}
