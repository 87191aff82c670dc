/** The sandbox's own pino logger, with the product's redaction paths so it never logs a secret either. */
import pino, { type Logger } from 'pino';
import { REDACTED, secretRedactPaths } from '../logging';

export function createSandboxLogger(level: string): Logger {
  return pino({ name: 'sandbox', level, redact: { paths: secretRedactPaths(), censor: REDACTED } });
}
