/** The sandbox's own pino logger (it runs without the product's logging module). Never logs secrets. */
import pino, { type Logger } from 'pino';

export function createSandboxLogger(level: string): Logger {
  return pino({
    name: 'sandbox',
    level,
    redact: {
      paths: [
        'token',
        'csrfToken',
        'passcode',
        '*.token',
        '*.csrfToken',
        '*.passcode',
        'headers.authorization',
        'headers["x-csrf-token"]',
        'headers["x-irs-csrf-token"]',
      ],
      censor: '[redacted]',
    },
  });
}
