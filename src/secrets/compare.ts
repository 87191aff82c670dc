/**
 * Comparing a presented secret with the expected one without telling an attacker how much of it matched: both
 * sides are hashed to SHA-256 first (equal lengths whatever was sent, so not even the length leaks) and the
 * digests compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const sha256 = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** The SHA-256 digest of a secret in hex: the form in which a secret is kept (the sandbox's token store). */
export const sha256Hex = (value: string): string => sha256(value).toString('hex');

/** True when `given` is `expected`, compared in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}

/** True when two hex SHA-256 digests are equal, compared in constant time (false for unequal lengths). */
export function sameSha256Hex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
