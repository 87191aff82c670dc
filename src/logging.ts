/**
 * The product's logger: pino with two layers of secret protection.
 *
 * 1. Structural: every key that can carry a credential (authorization, token, csrfToken, the CSRF headers,
 *    passcode, password, cookie) is censored by pino's redact paths, at the top level and nested a few levels.
 * 2. By value: secrets the process knows about (the passcode, the current and recent tokens) are registered
 *    with `registerSecret` (src/secrets/known-secrets.ts) and scrubbed from every line a logger of this module
 *    writes, whatever key or message text they hide in.
 *
 * A line written while a traced request or activity runs carries its `trace_id` and `span_id`.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import { loadLogLevel, type LoggerLevel } from './config/logging';
import { DEFAULT_OPERATOR_PROFILE } from './domain/operator-profile';
import { activeTraceIds } from './http/spans';
import { REDACTED, redactKnownSecrets } from './secrets/known-secrets';

export type { Logger } from 'pino';

/**
 * Keys whose values are credentials wherever they appear. The CSRF header names are our assumed ones: a profile's
 * others are still scrubbed by value.
 */
export const SECRET_KEYS: readonly string[] = [
  'authorization',
  'Authorization',
  'token',
  'accessToken',
  'csrfToken',
  ...DEFAULT_OPERATOR_PROFILE.csrfHeaderNames,
  'passcode',
  'password',
  'cookie',
  'Cookie',
  'set-cookie',
];

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

// ---------------------------------------------------------------------------------------------- logger

export type { LoggerLevel };

export interface LoggerOptions {
  /** Entry points pass loadLogLevel(env); `info` when neither this nor `env` is given. */
  level?: LoggerLevel;
  /** Where lines go (tests pass a stream to capture them); stdout by default. */
  destination?: DestinationStream;
  name?: string;
  /** Bindings added to every line. */
  base?: Record<string, unknown>;
  /** An environment to read LOG_LEVEL from when `level` is not given (never process.env by itself). */
  env?: Record<string, string | undefined>;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? loadLogLevel(options.env ?? {});
  const pinoOptions: pino.LoggerOptions = {
    level,
    redact: { paths: secretRedactPaths(), censor: REDACTED },
    hooks: { streamWrite: redactKnownSecrets },
    // The trace and span of the request or activity a line is written in (none without tracing).
    mixin: activeTraceIds,
    ...(options.name ? { name: options.name } : {}),
    ...(options.base ? { base: options.base } : {}),
  };
  return options.destination ? pino(pinoOptions, options.destination) : pino(pinoOptions);
}
