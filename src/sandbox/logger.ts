/** The sandbox's own pino logger, with the product's redaction paths so it never logs a secret either. */
import pino, { type Logger } from 'pino';
import { secretRedactPaths } from '../logging';
import { REDACTED } from '../secrets/known-secrets';

export function createSandboxLogger(level: string): Logger {
  return pino({ name: 'sandbox', level, redact: { paths: secretRedactPaths(), censor: REDACTED } });
}
