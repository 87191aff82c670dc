import type { Env } from './env';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A pino level, or `silent`. */
export type LoggerLevel = (typeof LEVELS)[number];

/** LOG_LEVEL, case-insensitive; `info` when unset or not a level. */
export function loadLogLevel(env: Env): LoggerLevel {
  const fromEnv = env.LOG_LEVEL?.trim().toLowerCase();
  return LEVELS.find((level) => level === fromEnv) ?? 'info';
}
