/**
 * Configuration of the sandbox operator: where it listens, its login, its clock and its seed from the environment
 * (zod-validated, every problem listed at once); its simulated schedule, lives, gas costs and faults are the
 * defaults below, which tests and the bench change in code (startSandbox overrides, POST /sandbox/v1/faults).
 *
 * Every simulated delay (steps, chain confirmations, webhook retries) is multiplied by SANDBOX_TIME_SCALE;
 * the lives of quotes, tokens and login session IDs are NOT scaled (they are the operator's rules, and tests
 * move the sandbox clock forward instead of waiting for them).
 */
import { z } from 'zod';
import { durationMs } from './duration';
import { parseSection, port, type Env } from './env';
import { setting } from './setting';
import { DECIMAL_PATTERN } from '../domain/decimal';
import { formatIssues } from '../domain/errors';
import { faultsConfigSchema, type FaultsConfig, NO_FAULTS } from './sandbox-faults';
import type { OperatorProfile } from '../domain/operator-profile';
import { operatorProfileFile } from './operator-profile';

/** The spec's delivery limits: at most 5 attempts in total, and no retry delay over 30 minutes. */
export const MAX_DELIVERY_ATTEMPTS = 5;
export const MAX_RETRY_DELAY_MS = 30 * 60_000;
/** A bound on first attempts in flight to one recipient (each is an open HTTPS request). */
export const MAX_DELIVERY_CONCURRENCY = 64;

/** The spec's rules for the delays before attempts 2 to 5 of a delivery. */
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

/** The sandbox's own address and login, which a process without OPERATOR_BASE_URL uses too. */
export const SANDBOX_DEFAULTS = {
  url: 'http://127.0.0.1:4010',
  email: 'sandbox@example.com',
  passcode: 'sandbox-passcode',
} as const;

const sandbox = (defaultText: string, meaning: string) =>
  ({ group: 'sandbox', default: defaultText, meaning, readBy: ['sandbox', 'npm start'] }) as const;

export const sandboxEnv = z.object({
  SANDBOX_PORT: setting(port(4010), sandbox('4010', "The sandbox operator's port (0: a free one).")),
  SANDBOX_HOST: setting(z.string().min(1).default('127.0.0.1'), sandbox('127.0.0.1', 'Where it listens.')),
  SANDBOX_EMAIL: setting(
    z.string().min(1).default(SANDBOX_DEFAULTS.email),
    sandbox(SANDBOX_DEFAULTS.email, 'The login e-mail it accepts.'),
  ),
  SANDBOX_PASSCODE: setting(
    z.string().min(1).default(SANDBOX_DEFAULTS.passcode),
    sandbox(SANDBOX_DEFAULTS.passcode, 'The passcode it accepts.'),
  ),
  SANDBOX_TIME_SCALE: setting(
    z.coerce.number().positive().max(1000).default(1),
    sandbox(
      '1 (npm start: 0.05)',
      'Factor on every simulated delay (steps, confirmations, delivery retries).',
    ),
  ),
  SANDBOX_DELIVERY_TIMEOUT: setting(
    durationMs('10s'),
    sandbox('10s', 'One webhook delivery attempt, wall clock (not scaled).'),
  ),
  SANDBOX_SEED: setting(
    z.coerce.number().int().min(0).max(0xffffffff).optional(),
    sandbox('the clock', 'Seed of the generator behind its IDs, addresses and fault decisions.'),
  ),
  SANDBOX_PROFILE: setting(
    operatorProfileFile(),
    sandbox(
      'our assumptions',
      'A JSON file in the form of OPERATOR_PROFILE: the sandbox serves that operator instead (its routes, names, ' +
        'error body, paging and words). npm start gives the product the same one unless OPERATOR_PROFILE is set.',
    ),
  ),
  SANDBOX_LOG_LEVEL: setting(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    sandbox('info (npm start: error)', 'Its log level.'),
  ),
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
  /** The operator it is: routes, names, error body, paging and words (src/domain/operator-profile.ts). */
  profile: OperatorProfile;
  /**
   * Headers every delivery carries beside the content type (none by default: the spec shows none). Set in code to
   * play an operator that, say, signs its deliveries.
   */
  deliveryHeaders: Record<string, string>;
  /** Seed of the PRNG behind identifiers, addresses and fault decisions. */
  seed: number;
  /** Per chain code of the native asset (ETH, TRX). */
  gas: { ETH: GasCosts; TRX: GasCosts };
  /**
   * The least the simulated operator converts (the spec says minimums exist, not what they are): a deposit of fewer
   * tokens is never swept, an on-ramp order for less MXN fails.
   */
  conversionMinimums: { token: string; fiat: string };
  /** Accept self-signed certificates of webhook receivers. */
  insecureTls: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

/** What the sandbox charges the gas wallet, per chain: a top-up of each new deposit wallet and each sweep. */
export const SANDBOX_GAS_COSTS: SandboxConfig['gas'] = {
  ETH: { topUp: '0.002', sweep: '0.001' },
  TRX: { topUp: '30', sweep: '15' },
};

/** The sandbox's simulated operator, as the spec describes it or as a real chain behaves (before the time scale). */
const SANDBOX_BEHAVIOUR = {
  /** The operator's session life. */
  tokenLifetimeMs: 24 * 3_600_000,
  /** A login session ID is good for one Authentication within this. */
  sessionIdLifetimeMs: 10 * 60_000,
  /** A quote's life (the spec's 25 s). */
  quoteTtlMs: 25_000,
  /** Retry delays of a webhook delivery: 4 retries, none over 30 minutes (the spec's limits). */
  deliveryDelaysMs: [60_000, 5 * 60_000, 15 * 60_000, 30 * 60_000],
  /** One first attempt at a time per recipient: arrival order stays closest to event order. */
  deliveryConcurrency: 1,
  /** A chain transaction from broadcast to confirmed. */
  confirmationDelayMs: 30_000,
  /** Between two steps of a flow. */
  stepDelayMs: 2_000,
  /** Receivers run with self-signed certificates (the product's local certificate). */
  insecureTls: true,
} as const;

/** ASSUMED minimums of the simulated operator: 1 token, 20 MXN. */
export const SANDBOX_CONVERSION_MINIMUMS: SandboxConfig['conversionMinimums'] = { token: '1', fiat: '20' };

export function loadSandboxConfig(env: Env): SandboxConfig {
  const parsed = parseSection('sandbox', sandboxEnv, env);
  return {
    ...SANDBOX_BEHAVIOUR,
    deliveryDelaysMs: [...SANDBOX_BEHAVIOUR.deliveryDelaysMs],
    port: parsed.SANDBOX_PORT,
    host: parsed.SANDBOX_HOST,
    email: parsed.SANDBOX_EMAIL,
    passcode: parsed.SANDBOX_PASSCODE,
    timeScale: parsed.SANDBOX_TIME_SCALE,
    deliveryTimeoutMs: parsed.SANDBOX_DELIVERY_TIMEOUT,
    faults: NO_FAULTS,
    profile: parsed.SANDBOX_PROFILE,
    deliveryHeaders: {},
    seed: parsed.SANDBOX_SEED ?? Date.now() >>> 0,
    gas: SANDBOX_GAS_COSTS,
    conversionMinimums: SANDBOX_CONVERSION_MINIMUMS,
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
  for (const kind of ['token', 'fiat'] as const) {
    if (!DECIMAL_PATTERN.test(config.conversionMinimums[kind]))
      problems.push(`conversionMinimums.${kind}: must be a decimal string`);
  }
  const faults = faultsConfigSchema.safeParse(config.faults);
  if (!faults.success) problems.push(...formatIssues(faults.error.issues, 'faults.'));
  if (problems.length > 0) throw new Error(`Invalid sandbox configuration:\n  ${problems.join('\n  ')}`);
  return { ...config, faults: faults.data! };
}
