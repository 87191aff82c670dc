/**
 * The product's logger: pino with two layers of secret protection.
 *
 * 1. Structural: every key that can carry a credential (authorization, token, csrfToken, the CSRF headers,
 *    passcode, password, cookie) is censored by pino's redact paths, at the top level and nested a few levels.
 * 2. By value: secrets the process knows about (the passcode, the current and recent tokens) are registered
 *    with `registerSecret` and scrubbed from every line a logger of this module writes, whatever key or
 *    message text they hide in.
 */
import pino, { type DestinationStream, type Level, type Logger } from 'pino';

export type { Logger } from 'pino';

export const REDACTED = '[REDACTED]';

/** Keys whose values are credentials wherever they appear. */
export const SECRET_KEYS = [
  'authorization',
  'Authorization',
  'token',
  'accessToken',
  'csrfToken',
  'x-csrf-token',
  'x-irs-csrf-token',
  'passcode',
  'password',
  'cookie',
  'Cookie',
  'set-cookie',
] as const;

/** How deep below the top level the key-based redaction reaches (`*.*.*.token`). */
const REDACT_DEPTH = 4;

function keyAccessor(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `["${key}"]`;
}

/** Builds pino redact paths: `token`, `*.token`, `*.*.token`, ... and `["x-csrf-token"]`, `*["x-csrf-token"]`, ... */
export function secretRedactPaths(keys: readonly string[] = SECRET_KEYS, depth = REDACT_DEPTH): string[] {
  const paths: string[] = [];
  for (const key of keys) {
    const accessor = keyAccessor(key);
    paths.push(accessor.startsWith('.') ? accessor.slice(1) : accessor);
    for (let level = 1; level <= depth; level += 1) {
      paths.push(Array.from({ length: level }, () => '*').join('.') + accessor);
    }
  }
  return paths;
}

// ---------------------------------------------------------------------------------------------- known secret values

/** Bounded so that a long-running worker that re-logs in every day does not grow without limit. */
const MAX_KNOWN_SECRETS = 64;
/** Shorter values would scrub ordinary words out of log lines. */
const MIN_SECRET_LENGTH = 4;
const knownSecrets = new Set<string>();

/** Remembers a secret value so that every logger and `redactKnownSecrets` scrub it from text. */
export function registerSecret(value: string | undefined | null): void {
  if (!value || value.length < MIN_SECRET_LENGTH) return;
  knownSecrets.delete(value);
  knownSecrets.add(value);
  while (knownSecrets.size > MAX_KNOWN_SECRETS) {
    const oldest = knownSecrets.values().next().value;
    if (oldest === undefined) break;
    knownSecrets.delete(oldest);
  }
}

/** Replaces every occurrence of each secret (also in its JSON-escaped form) with `[REDACTED]`. */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let result = text;
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET_LENGTH) continue;
    result = result.split(secret).join(REDACTED);
    const jsonEscaped = JSON.stringify(secret).slice(1, -1);
    if (jsonEscaped !== secret) result = result.split(jsonEscaped).join(REDACTED);
  }
  return result;
}

/** `redactSecrets` with every value registered through `registerSecret`. */
export function redactKnownSecrets(text: string): string {
  return knownSecrets.size === 0 ? text : redactSecrets(text, knownSecrets);
}

// ---------------------------------------------------------------------------------------------- logger

export interface LoggerOptions {
  /** Defaults to LOG_LEVEL from the environment, then `info`. */
  level?: Level | 'silent';
  /** Where lines go (tests pass a stream to capture them); stdout by default. */
  destination?: DestinationStream;
  name?: string;
  /** Bindings added to every line. */
  base?: Record<string, unknown>;
  env?: Record<string, string | undefined>;
}

const LEVELS: readonly string[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function levelFromEnv(env: Record<string, string | undefined>): Level | 'silent' {
  const fromEnv = env.LOG_LEVEL?.trim().toLowerCase();
  if (fromEnv && LEVELS.includes(fromEnv)) return fromEnv as Level | 'silent';
  return 'info';
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? levelFromEnv(options.env ?? process.env);
  const pinoOptions: pino.LoggerOptions = {
    level,
    redact: { paths: secretRedactPaths(), censor: REDACTED },
    hooks: { streamWrite: redactKnownSecrets },
    ...(options.name ? { name: options.name } : {}),
    ...(options.base ? { base: options.base } : {}),
  };
  return options.destination ? pino(pinoOptions, options.destination) : pino(pinoOptions);
}
