/**
 * Settings of the ramp activities (issue 5): the gas wallet to check when an Autoswap is stuck, the native balance
 * below which it counts as a shortfall, and the optional alert webhook.
 */
import { z } from 'zod';
import { durationMs } from './duration';
import { decimalText, type Env, parseSection } from './env';

const rampsEnv = z.object({
  /** When unset, the gas wallet is read from the account-setup workflow's state. */
  GAS_WALLET_ID: z.string().min(1).optional(),
  GAS_MIN_BALANCE_ETH: decimalText('0.002'),
  GAS_MIN_BALANCE_TRX: decimalText('30'),
  /** Slack-compatible incoming webhook (`{ text }`); a secret: never logged. */
  ALERT_WEBHOOK_URL: z.url({ protocol: /^https?$/ }).optional(),
  ALERT_WEBHOOK_TIMEOUT: durationMs('5s'),
  /** Issue 6: the long-lived workflow that holds the open incidents. */
  ALERTS_WORKFLOW_ID: z.string().regex(/^[A-Za-z0-9._:@/-]{1,200}$/).default('ops/alerts'),
});

export interface RampActivityConfig {
  gasWalletId?: string;
  /** Native asset -> minimum balance (decimal string). */
  gasMinimums: Record<string, string>;
  alertWebhookUrl?: string;
  alertWebhookTimeoutMs: number;
  /** Issue 6: the incident store's workflow ID (default ops/alerts; tests sharing a server pass their own). */
  alertsWorkflowId?: string;
}

export function loadRampActivityConfig(env: Env = process.env): RampActivityConfig {
  const raw = parseSection('ramps', rampsEnv, env);
  return {
    ...(raw.GAS_WALLET_ID ? { gasWalletId: raw.GAS_WALLET_ID } : {}),
    gasMinimums: { ETH: raw.GAS_MIN_BALANCE_ETH, TRX: raw.GAS_MIN_BALANCE_TRX },
    ...(raw.ALERT_WEBHOOK_URL ? { alertWebhookUrl: raw.ALERT_WEBHOOK_URL } : {}),
    alertWebhookTimeoutMs: raw.ALERT_WEBHOOK_TIMEOUT,
    alertsWorkflowId: raw.ALERTS_WORKFLOW_ID,
  };
}
