/**
 * Configuration of the sandbox operator, from the environment (zod-validated, every problem listed at once).
 *
 * Every simulated delay (steps, chain confirmations, webhook retries) is multiplied by SANDBOX_TIME_SCALE;
 * the lives of quotes, tokens and login session IDs are NOT scaled (they are the operator's rules, and tests
 * move the sandbox clock forward instead of waiting for them).
 */
import { z } from 'zod';
import { durationMs, parseDurationMs } from './duration';
import { booleanFlag, decimalText, parseSection, port, type Env } from './env';
import { DECIMAL_PATTERN } from '../domain/decimal';
import { formatIssues } from '../domain/errors';
import { faultsConfigSchema, type FaultsConfig } from './sandbox-faults';

/** The spec's delivery limits: at most 5 attempts in total, and no retry delay over 30 minutes. */
export const MAX_DELIVERY_ATTEMPTS = 5;
export const MAX_RETRY_DELAY_MS = 30 * 60_000;
/** A bound on first attempts in flight to one recipient (each is an open HTTPS request). */
export const MAX_DELIVERY_CONCURRENCY = 64;

const gasCost = (defaultValue: string) => decimalText(defaultValue, '0.002');

/** "1m,5m,15m,30m": the delays before attempts 2, 3, 4 and 5. */
const deliveryDelays = z
  .string()
  .default('1m,5m,15m,30m')
  .transform((text, ctx) => {
    const parts = text
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    const delays: number[] = [];
    for (const part of parts) {
      try {
        delays.push(parseDurationMs(part));
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }
    return delays;
  })
  .pipe(deliveryDelaysSchema());

export function deliveryDelaysSchema() {
  return z
    .array(z.number().int().min(0).max(MAX_RETRY_DELAY_MS, 'a retry delay never exceeds 30 minutes'))
    .max(
      MAX_DELIVERY_ATTEMPTS - 1,
      `at most ${MAX_DELIVERY_ATTEMPTS} attempts in total (so at most ${MAX_DELIVERY_ATTEMPTS - 1} retry delays)`,
    )
    .refine(
      (delays) => delays.every((delay, index) => index === 0 || delay >= delays[index - 1]!),
      'retry delays must not decrease',
    );
}

const faultsJson = z
  .string()
  .optional()
  .transform((text, ctx): unknown => {
    if (text === undefined || text.trim() === '') return {};
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
      return z.NEVER;
    }
  })
  .pipe(faultsConfigSchema);

const envSchema = z.object({
  SANDBOX_PORT: port(4010),
  SANDBOX_HOST: z.string().min(1).default('127.0.0.1'),
  SANDBOX_EMAIL: z.string().min(1).default('sandbox@example.com'),
  SANDBOX_PASSCODE: z.string().min(1).default('sandbox-passcode'),
  SANDBOX_TIME_SCALE: z.coerce.number().positive().max(1000).default(1),
  SANDBOX_TOKEN_LIFETIME: durationMs('24h'),
  SANDBOX_SESSION_ID_LIFETIME: durationMs('10m'),
  SANDBOX_QUOTE_TTL: durationMs('25s'),
  SANDBOX_DELIVERY_DELAYS: deliveryDelays,
  SANDBOX_DELIVERY_TIMEOUT: durationMs('10s'),
  SANDBOX_DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(MAX_DELIVERY_CONCURRENCY).default(1),
  SANDBOX_CONFIRMATION_DELAY: durationMs('30s'),
  SANDBOX_STEP_DELAY: durationMs('2s'),
  SANDBOX_FAULTS_JSON: faultsJson,
  SANDBOX_SEED: z.coerce.number().int().min(0).max(0xffffffff).optional(),
  SANDBOX_GAS_TOPUP_ETH: gasCost('0.002'),
  SANDBOX_GAS_TOPUP_TRX: gasCost('30'),
  SANDBOX_GAS_SWEEP_ETH: gasCost('0.001'),
  SANDBOX_GAS_SWEEP_TRX: gasCost('15'),
  SANDBOX_INSECURE_TLS: booleanFlag(true),
  SANDBOX_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** Native-token cost of the two sponsored operations on one chain, as decimal strings. */
export interface GasCosts {
  /** Sent from the gas wallet to a deposit wallet right after its first deposit (one-time approval). */
  topUp: string;
  /** Paid by the gas wallet for each sponsored sweep of a deposit to the master wallet. */
  sweep: string;
}

export interface SandboxConfig {
  port: number;
  host: string;
  email: string;
  passcode: string;
  /** Factor on every simulated delay: 1 = real durations, 0.001 = 1000 times faster. */
  timeScale: number;
  tokenLifetimeMs: number;
  sessionIdLifetimeMs: number;
  quoteTtlMs: number;
  /** Delays before attempts 2..n of a webhook delivery (n <= 5), each <= 30 min; scaled. */
  deliveryDelaysMs: number[];
  /** Timeout of one delivery attempt (wall clock, not scaled). */
  deliveryTimeoutMs: number;
  /**
   * First attempts in flight at once to one recipient, started in event order (1 = each waits for the one before).
   * The spec does not say how the operator delivers; 1 keeps arrival order closest to event order, more lets a burst
   * of events reach the receiver as fast as it answers.
   */
  deliveryConcurrency: number;
  /** Time for a chain transaction to go from broadcast to confirmed; scaled. */
  confirmationDelayMs: number;
  /** Time between two steps of a flow; scaled. */
  stepDelayMs: number;
  faults: FaultsConfig;
  /** Seed of the PRNG behind identifiers, addresses and fault decisions. */
  seed: number;
  /** Per chain code of the native asset (ETH, TRX). */
  gas: { ETH: GasCosts; TRX: GasCosts };
  /** Accept self-signed certificates of webhook receivers. */
  insecureTls: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

export function loadSandboxConfig(env: Env): SandboxConfig {
  const parsed = parseSection('sandbox', envSchema, env);
  return {
    port: parsed.SANDBOX_PORT,
    host: parsed.SANDBOX_HOST,
    email: parsed.SANDBOX_EMAIL,
    passcode: parsed.SANDBOX_PASSCODE,
    timeScale: parsed.SANDBOX_TIME_SCALE,
    tokenLifetimeMs: parsed.SANDBOX_TOKEN_LIFETIME,
    sessionIdLifetimeMs: parsed.SANDBOX_SESSION_ID_LIFETIME,
    quoteTtlMs: parsed.SANDBOX_QUOTE_TTL,
    deliveryDelaysMs: parsed.SANDBOX_DELIVERY_DELAYS,
    deliveryTimeoutMs: parsed.SANDBOX_DELIVERY_TIMEOUT,
    deliveryConcurrency: parsed.SANDBOX_DELIVERY_CONCURRENCY,
    confirmationDelayMs: parsed.SANDBOX_CONFIRMATION_DELAY,
    stepDelayMs: parsed.SANDBOX_STEP_DELAY,
    faults: parsed.SANDBOX_FAULTS_JSON,
    seed: parsed.SANDBOX_SEED ?? Date.now() >>> 0,
    gas: {
      ETH: { topUp: parsed.SANDBOX_GAS_TOPUP_ETH, sweep: parsed.SANDBOX_GAS_SWEEP_ETH },
      TRX: { topUp: parsed.SANDBOX_GAS_TOPUP_TRX, sweep: parsed.SANDBOX_GAS_SWEEP_TRX },
    },
    insecureTls: parsed.SANDBOX_INSECURE_TLS,
    logLevel: parsed.SANDBOX_LOG_LEVEL,
  };
}

/** Checks a configuration assembled in code (e.g. startSandbox overrides) against the same rules. */
export function validateSandboxConfig(config: SandboxConfig): SandboxConfig {
  const problems: string[] = [];
  const delays = deliveryDelaysSchema().safeParse(config.deliveryDelaysMs);
  if (!delays.success)
    problems.push(...delays.error.issues.map((issue) => `deliveryDelaysMs: ${issue.message}`));
  if (!(config.timeScale > 0) || !Number.isFinite(config.timeScale))
    problems.push('timeScale: must be a positive number');
  if (
    !Number.isInteger(config.deliveryConcurrency) ||
    config.deliveryConcurrency < 1 ||
    config.deliveryConcurrency > MAX_DELIVERY_CONCURRENCY
  )
    problems.push(`deliveryConcurrency: must be a whole number from 1 to ${MAX_DELIVERY_CONCURRENCY}`);
  for (const chain of ['ETH', 'TRX'] as const) {
    for (const kind of ['topUp', 'sweep'] as const) {
      if (!DECIMAL_PATTERN.test(config.gas[chain][kind]))
        problems.push(`gas.${chain}.${kind}: must be a decimal string`);
    }
  }
  const faults = faultsConfigSchema.safeParse(config.faults);
  if (!faults.success) problems.push(...formatIssues(faults.error.issues, 'faults.'));
  if (problems.length > 0) throw new Error(`Invalid sandbox configuration:\n  ${problems.join('\n  ')}`);
  return { ...config, faults: faults.data! };
}
