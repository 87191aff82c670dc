/**
 * Operations: the gas wallet's minimum balances (the gas monitor and the stuck off-ramp compare with them), the
 * alert webhook, and the intervals of the gas-monitor and reconcile schedules. The gas wallet itself is the
 * account setup's.
 */
import { z } from 'zod';
import { durationMs } from './duration';
import { DECIMAL_PATTERN } from '../domain/decimal';
import { type Env, parseSection } from './env';
import { setting, type SettingMeta } from './setting';

/** The native assets the gas wallet pays with: ETH on Ethereum, TRX on Tron. */
const GAS_ASSETS = ['ETH', 'TRX'] as const;
const DEFAULT_GAS_MINIMUMS = 'ETH:0.002,TRX:30';

/**
 * `<asset>:<decimal>` pairs, comma-separated; an asset left out keeps its default. How to choose a minimum: the gas
 * wallet pays a one-time top-up of each new deposit wallet and every sponsored sweep, so the minimum should cover the
 * Autoswaps expected between two refills, each at the operator's fee for a top-up plus a sweep (the worst case).
 */
function parseGasMinimums(text: string, ctx: z.RefinementCtx): Record<string, string> {
  const minimums: Record<string, string> = Object.fromEntries(
    DEFAULT_GAS_MINIMUMS.split(',').map((pair) => pair.split(':') as [string, string]),
  );
  for (const entry of text.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const [asset = '', amount = '', ...rest] = entry.split(':').map((part) => part.trim());
    if (
      !(GAS_ASSETS as readonly string[]).includes(asset) ||
      rest.length > 0 ||
      !DECIMAL_PATTERN.test(amount)
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is not <asset>:<decimal> with an asset among ${GAS_ASSETS.join(', ')}, e.g. "ETH:0.05"`,
      });
      continue;
    }
    minimums[asset] = amount;
  }
  return minimums;
}

const schedule = (
  defaultText: string,
  meta: Pick<SettingMeta, 'meaning' | 'example'> & Partial<Pick<SettingMeta, 'readBy'>>,
) =>
  setting(durationMs(defaultText), {
    group: 'production',
    default: defaultText,
    readBy: ['npm start', 'worker', 'schedules:apply'],
    ...meta,
  });

export const operationsEnv = z.object({
  GAS_MIN_BALANCES: setting(z.string().default(DEFAULT_GAS_MINIMUMS).transform(parseGasMinimums), {
    group: 'production',
    default: DEFAULT_GAS_MINIMUMS,
    meaning:
      "The gas wallet's balance of each native asset below which it counts as low (gas-low alert; a stranded " +
      'off-ramp says so), `<asset>:<decimal>` pairs; an asset left out keeps its default. Cover the Autoswaps ' +
      "expected between two refills at the operator's fees (top-up + sweep each).",
    readBy: ['npm start', 'worker'],
    example: 'ETH:0.05,TRX:900',
  }),
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
    meaning:
      'How often the reconcile schedule re-reads the operator for open ramps and deposit wallets. A run must end ' +
      'within it; its budget of operator calls is counted per interval, shared with `npm run reconcile`.',
    example: '1h',
    readBy: ['npm start', 'worker', 'schedules:apply', 'reconcile'],
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
    gas: { minimums: raw.GAS_MIN_BALANCES },
    alerts: raw.ALERT_WEBHOOK_URL ? { webhookUrl: raw.ALERT_WEBHOOK_URL } : {},
    schedules: {
      gasMonitorIntervalMs: raw.GAS_MONITOR_INTERVAL,
      reconcileIntervalMs: raw.RECONCILE_INTERVAL,
    },
  };
}
