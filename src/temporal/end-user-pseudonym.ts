/**
 * The value of the RampEndUserId search attribute. Search attributes are never encrypted, so with payload
 * encryption on (PAYLOAD_ENCRYPTION_KEYS) the ramps and the end-user workflow index a pseudonym instead of the
 * end user ID: `u-` + the first 32 hex characters of HMAC-SHA256(pseudonym key, endUserId). The pseudonym key is
 * derived from an encryption key: HMAC-SHA256(key material, 'ramp-orchestrator/end-user-pseudonym'), so there is no
 * extra secret to manage, and the pseudonym cannot be computed without the key (end user IDs are guessable).
 * Without encryption keys the value is the end user ID itself (unchanged behaviour).
 *
 * New processes use the active (first) key. After a rotation, processes started under an older key keep that key's
 * pseudonym: `endUserSearchValues` answers the value under every configured key (and the clear ID, for processes
 * started before encryption was turned on), and the typed client searches for all of them.
 *
 * Node crypto: never import this module from workflow code. Activities and the typed client compute the value and
 * pass it into workflows.
 */
import { createHmac } from 'node:crypto';
import type { EncryptionKey, PayloadEncryptionConfig } from '../config/encryption';

const DERIVATION_LABEL = 'ramp-orchestrator/end-user-pseudonym';
const PSEUDONYM_PATTERN = /^u-[0-9a-f]{32}$/;

export type EndUserPseudonymConfig = Pick<PayloadEncryptionConfig, 'keys'> | undefined;

function pseudonym(endUserId: string, key: EncryptionKey): string {
  const pseudonymKey = createHmac('sha256', key.material()).update(DERIVATION_LABEL).digest();
  return `u-${createHmac('sha256', pseudonymKey).update(endUserId, 'utf8').digest('hex').slice(0, 32)}`;
}

/** The RampEndUserId value for a new process: the end user ID without keys, its pseudonym under the active key with. */
export function endUserSearchValue(endUserId: string, config: EndUserPseudonymConfig): string {
  const active = config?.keys[0];
  return active ? pseudonym(endUserId, active) : endUserId;
}

/** Every RampEndUserId value a process of this user may carry: one per configured key, then the clear ID. */
export function endUserSearchValues(endUserId: string, config: EndUserPseudonymConfig): string[] {
  const values = (config?.keys ?? []).map((key) => pseudonym(endUserId, key));
  return [...new Set([...values, endUserId])];
}

/** True for a value shaped like a pseudonym (`u-` + 32 hex characters). */
export function isEndUserPseudonym(value: string): boolean {
  return PSEUDONYM_PATTERN.test(value);
}
