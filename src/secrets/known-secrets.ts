/**
 * The secret values this process knows (the operator passcode, the current and recent tokens, configured keys),
 * so that logs and operator error messages can scrub them wherever they turn up, whatever key or message text
 * they hide in (an operator that echoes a token back, for one).
 */

export const REDACTED = '[REDACTED]';

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
