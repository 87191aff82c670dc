import { z } from 'zod';
import { type Env, parseSection } from './env';
import { setting } from './setting';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A pino level, or `silent`. */
export type LoggerLevel = (typeof LEVELS)[number];

export const loggingEnv = z.object({
  LOG_LEVEL: setting(
    z
      .string()
      .optional()
      // A log level never stops a process: anything but a level is `info`.
      .transform(
        (text): LoggerLevel => LEVELS.find((level) => level === text?.trim().toLowerCase()) ?? 'info',
      ),
    {
      group: 'production',
      default: 'info (npm start: warn)',
      meaning: `The log level (${LEVELS.join(', ')}; case-insensitive, anything else is info); the Temporal SDK's lines follow it.`,
      readBy: ['npm start', 'worker', 'receiver', 'api'],
      example: 'info',
    },
  ),
});

/** LOG_LEVEL, case-insensitive; `info` when unset or not a level. */
export function loadLogLevel(env: Env): LoggerLevel {
  return parseSection('logging', loggingEnv, env).LOG_LEVEL;
}
