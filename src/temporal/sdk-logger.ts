/**
 * The Temporal SDK's own log lines (worker state, core, and workflow code's `log` calls, which reach the Runtime
 * logger through the SDK's sink) go through the product's pino logger, so they are JSON like every other line and
 * pass through the same redaction (secret keys, registered secret values) instead of going to stderr as plain text.
 */
import type { LogLevel, LogMetadata, Logger as TemporalLogger } from '@temporalio/common';
import type { Level, Logger } from 'pino';

const PINO_LEVEL: Record<LogLevel, Level> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};
const SDK_LEVEL: Record<string, LogLevel> = {
  trace: 'TRACE',
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARN',
  error: 'ERROR',
  fatal: 'ERROR',
};

/** The SDK level that lets through what the pino logger would print (pino filters again; this spares the work). */
export function sdkLevelOf(logger: Logger): LogLevel {
  return SDK_LEVEL[logger.level] ?? 'ERROR';
}

export class PinoSdkLogger implements TemporalLogger {
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger.child({ sdk: true });
  }

  log(level: LogLevel, message: string, meta?: LogMetadata): void {
    this.#logger[PINO_LEVEL[level]]({ ...meta }, message);
  }

  trace(message: string, meta?: LogMetadata): void {
    this.log('TRACE', message, meta);
  }

  debug(message: string, meta?: LogMetadata): void {
    this.log('DEBUG', message, meta);
  }

  info(message: string, meta?: LogMetadata): void {
    this.log('INFO', message, meta);
  }

  warn(message: string, meta?: LogMetadata): void {
    this.log('WARN', message, meta);
  }

  error(message: string, meta?: LogMetadata): void {
    this.log('ERROR', message, meta);
  }
}
