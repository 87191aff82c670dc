/**
 * Which database failures mean "away for now" (the server down, restarting, overloaded, or slower than a statement
 * may take): the caller retries or answers 503 with Retry-After. Anything else is a fault of ours.
 */

/** SQLSTATE classes and codes of a server that cannot take the statement now. */
const UNAVAILABLE_STATES = [
  /^08/, // connection exception
  /^53/, // insufficient resources (too many connections, disk full)
  /^57P0[1-4]$/, // admin or crash shutdown, cannot connect now, database dropped
  /^57014$/, // statement timeout or cancel
  /^40001$|^40P01$/, // serialization failure, deadlock: the same statement may pass next time
];
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error/,
];

/** True when `error` (or a cause of it) says the database cannot be reached or cannot take the statement now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 10; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (UNAVAILABLE_ERRNOS.has(code) || UNAVAILABLE_STATES.some((state) => state.test(code)))
    )
      return true;
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message)))
      return true;
    current = (current as { cause?: unknown }).cause ?? (current as { errors?: unknown[] }).errors?.[0];
  }
  return false;
}

/** How long a client told 503 should wait: about what a restarting server takes. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
