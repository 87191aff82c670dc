/**
 * Operations: the gas wallet's minimum balances (the gas monitor and the stuck off-ramp compare with them), the
 * alert webhook, and the intervals of the gas-monitor and reconcile schedules. The gas wallet itself is the
 * account setup's.
 */
import { z } from 'zod';
import { durationMs } from './duration';
import { decimalText, type Env, parseSection } from './env';
import { setting, type SettingMeta } from './setting';

/**
 * How to choose a minimum: the gas wallet pays a one-time top-up of each new deposit wallet and every sponsored
 * sweep, so the minimum should cover the Autoswaps expected between two refills, each at the operator's fee for a
 * top-up plus a sweep (the worst case).
 */
const minimum = (asset: string, defaultValue: string, example: string) =>
  setting(decimalText(defaultValue, example), {
    group: 'production',
    default: defaultValue,
    meaning:
      `The gas wallet's ${asset} balance below which it counts as low (gas-low alert; a stranded off-ramp says so). ` +
      "Cover the Autoswaps expected between two refills at the operator's fees (top-up + sweep each).",
    readBy: ['npm start', 'worker'],
    example,
  });

const schedule = (defaultText: string, meta: Pick<SettingMeta, 'meaning' | 'example'>) =>
  setting(durationMs(defaultText), {
    group: 'production',
    default: defaultText,
    readBy: ['npm start', 'worker', 'schedules:apply'],
    ...meta,
  });

export const operationsEnv = z.object({
  GAS_MIN_BALANCE_ETH: minimum('ETH', '0.002', '0.05'),
  GAS_MIN_BALANCE_TRX: minimum('TRX', '30', '900'),
  ALERT_WEBHOOK_URL: setting(z.url({ protocol: /^https?$/ }).optional(), {
    group: 'production',
    default: 'alerts to the log only',
    meaning: 'A Slack-compatible incoming webhook (`{ text }`) every alert and resolution is posted to.',
    secret: true,
    readBy: ['npm start', 'worker'],
  }),
  GAS_MONITOR_INTERVAL: schedule('5m', {
    meaning: 'How often the gas-monitor schedule checks the gas wallet.',
    example: '5m',
  }),
  RECONCILE_INTERVAL: schedule('1h', {
    meaning: 'How often the reconcile schedule re-reads the operator for open processes and deposit wallets.',
    example: '1h',
  }),
});

/** The balance each native asset must keep in the gas wallet. */
export interface GasConfig {
  /**
   * The gas wallet, for a stack built in code that made its account without the account setup; absent (always,
   * from the environment): the account-setup workflow's gas wallet.
   */
  walletId?: string;
  /** Native asset -> minimum balance (decimal string). */
  minimums: Record<string, string>;
}

/** Where alerts are posted besides the log line. */
export interface AlertsConfig {
  webhookUrl?: string;
  /** One webhook POST, for tests that shorten it; default ALERT_WEBHOOK_TIMEOUT_MS of the alert activities. */
  webhookTimeoutMs?: number;
}

/** The two operations schedules. */
export interface SchedulesConfig {
  gasMonitorIntervalMs: number;
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
    gas: { minimums: { ETH: raw.GAS_MIN_BALANCE_ETH, TRX: raw.GAS_MIN_BALANCE_TRX } },
    alerts: raw.ALERT_WEBHOOK_URL ? { webhookUrl: raw.ALERT_WEBHOOK_URL } : {},
    schedules: {
      gasMonitorIntervalMs: raw.GAS_MONITOR_INTERVAL,
      reconcileIntervalMs: raw.RECONCILE_INTERVAL,
    },
  };
}
