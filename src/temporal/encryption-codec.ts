/**
 * AES-256-GCM PayloadCodec. Each payload (the whole serialized Payload: metadata and data) is encrypted under the
 * active key; the result carries `encoding: binary/encrypted` and `encryption-key-id: <id>` in clear metadata, so
 * older keys keep decrypting after a rotation. Layout of data: 12-byte IV || ciphertext || 16-byte tag; the key ID
 * is bound as additional authenticated data. Payloads that are not encrypted pass through decode unchanged.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { METADATA_ENCODING_KEY, type Payload, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { EncryptionKey } from '../config/encryption';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const METADATA_KEY_ID = 'encryption-key-id';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const text = (value: string) => Buffer.from(value, 'utf8');

export class EncryptionCodec implements PayloadCodec {
  readonly #active: EncryptionKey;
  readonly #byId: Map<string, EncryptionKey>;

  constructor(keys: readonly EncryptionKey[]) {
    if (keys.length === 0) throw new Error('EncryptionCodec needs at least one key');
    this.#active = keys[0]!;
    this.#byId = new Map(keys.map((key) => [key.id, key]));
  }

  get activeKeyId(): string {
    return this.#active.id;
  }

  encode(payloads: Payload[]): Promise<Payload[]> {
    return new Promise((resolve) => resolve(payloads.map((payload) => this.#encrypt(payload))));
  }

  decode(payloads: Payload[]): Promise<Payload[]> {
    return new Promise((resolve) => resolve(payloads.map((payload) => this.#decrypt(payload))));
  }

  #encrypt(payload: Payload): Payload {
    const key = this.#active;
    const plain = temporal.api.common.v1.Payload.encode(payload).finish();
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key.material(), iv);
    cipher.setAAD(text(key.id));
    const encrypted = Buffer.concat([cipher.update(plain), cipher.final()]);
    return {
      metadata: { [METADATA_ENCODING_KEY]: text(ENCRYPTED_ENCODING), [METADATA_KEY_ID]: text(key.id) },
      data: Buffer.concat([iv, encrypted, cipher.getAuthTag()]),
    };
  }

  #decrypt(payload: Payload): Payload {
    const encoding = payload.metadata?.[METADATA_ENCODING_KEY];
    if (!encoding || Buffer.from(encoding).toString('utf8') !== ENCRYPTED_ENCODING) return payload;
    const rawId = payload.metadata?.[METADATA_KEY_ID];
    const keyId = rawId ? Buffer.from(rawId).toString('utf8') : '';
    const key = this.#byId.get(keyId);
    if (!key)
      throw new Error(
        `Payload encrypted under unknown key ID "${keyId.slice(0, 64)}": add it to PAYLOAD_ENCRYPTION_KEYS`,
      );
    const data = Buffer.from(payload.data ?? new Uint8Array());
    if (data.length < IV_BYTES + TAG_BYTES) throw new Error('Encrypted payload is too short');
    const decipher = createDecipheriv('aes-256-gcm', key.material(), data.subarray(0, IV_BYTES));
    decipher.setAAD(text(key.id));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    let plain: Buffer;
    try {
      plain = Buffer.concat([
        decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)),
        decipher.final(),
      ]);
    } catch {
      throw new Error(
        `Payload under key ID "${key.id}" failed authentication (wrong key material or tampered data)`,
      );
    }
    const decoded = temporal.api.common.v1.Payload.decode(plain);
    return { metadata: decoded.metadata, data: decoded.data };
  }
}
