/**
 * Payload encryption and the codec server's settings (docs/architecture.md, "Security").
 *
 * PAYLOAD_ENCRYPTION_KEYS=`<id>:<base64 of 32 bytes>[,<id>:<base64>...]`: the first key encrypts every new payload,
 * the others only decrypt payloads written under them (rotation: put the new key first, keep the old ones until no
 * open process and no retained history needs them). Unset or empty: payloads are stored unencrypted.
 * Key material never appears in errors, logs or JSON: only key IDs do.
 */
import { z } from 'zod';
import { type Env, parseSection, port } from './env';
import { SecretString } from '../secrets/secret-string';

export const KEY_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** One AES-256 key; the material is kept in a private field and never serialized. */
export class EncryptionKey {
  readonly id: string;
  readonly #material: Buffer;

  constructor(id: string, material: Buffer) {
    if (!KEY_ID_PATTERN.test(id))
      throw new Error('An encryption key ID must be 1-64 letters, digits, dots, underscores or dashes');
    if (material.length !== 32) throw new Error(`Encryption key ${id} must be 32 bytes (AES-256)`);
    this.id = id;
    this.#material = Buffer.from(material);
  }

  material(): Buffer {
    return this.#material;
  }

  toJSON(): { id: string } {
    return { id: this.id };
  }
}

export interface CodecServerConfig {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /**
   * Origins allowed to call the codec server from a browser (the Temporal Web UI's); undefined: those of the Web UI
   * actually in use (npm start gives its dev server's, see startCodecServer).
   */
  corsOrigins: string[] | undefined;
  /** POSTs need `Authorization: Bearer <token>`; required unless the server is bound to loopback. */
  token: SecretString | undefined;
  /** The URL the Web UI's browser uses to reach the codec server; default http://host:port. */
  publicUrl: string | undefined;
}

export interface PayloadEncryptionConfig {
  /** Active key first; empty means encryption is off. */
  keys: EncryptionKey[];
  codecServer: CodecServerConfig;
}

const encryptionEnv = z.object({
  PAYLOAD_ENCRYPTION_KEYS: z.string().optional(),
  CODEC_SERVER_HOST: z.string().min(1).default('127.0.0.1'),
  CODEC_SERVER_PORT: port(8234),
  CODEC_SERVER_CORS_ORIGINS: z.string().optional(),
  CODEC_SERVER_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  CODEC_SERVER_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
});

/** Parses `id:base64,id:base64`. Errors name the entry and key ID, never the material. */
export function parseEncryptionKeys(value: string | undefined): EncryptionKey[] {
  if (!value || value.trim() === '') return [];
  const keys: EncryptionKey[] = [];
  value.split(',').forEach((entry, index) => {
    const trimmed = entry.trim();
    const colon = trimmed.indexOf(':');
    if (colon <= 0)
      throw new Error(`Invalid PAYLOAD_ENCRYPTION_KEYS: entry ${index + 1} is not <id>:<base64 key>`);
    const id = trimmed.slice(0, colon);
    const encoded = trimmed.slice(colon + 1);
    if (!KEY_ID_PATTERN.test(id))
      throw new Error(`Invalid PAYLOAD_ENCRYPTION_KEYS: entry ${index + 1} has an invalid key ID`);
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded))
      throw new Error(`Invalid PAYLOAD_ENCRYPTION_KEYS: key ${id} is not base64`);
    const material = Buffer.from(encoded, 'base64');
    if (material.length !== 32)
      throw new Error(
        `Invalid PAYLOAD_ENCRYPTION_KEYS: key ${id} is ${material.length} bytes, not 32 (AES-256)`,
      );
    if (keys.some((key) => key.id === id))
      throw new Error(`Invalid PAYLOAD_ENCRYPTION_KEYS: key ID ${id} appears twice`);
    keys.push(new EncryptionKey(id, material));
  });
  return keys;
}

export function loadEncryptionConfig(env: Env): PayloadEncryptionConfig {
  const raw = parseSection('payload encryption', encryptionEnv, env);
  return {
    keys: parseEncryptionKeys(raw.PAYLOAD_ENCRYPTION_KEYS),
    codecServer: {
      host: raw.CODEC_SERVER_HOST,
      port: raw.CODEC_SERVER_PORT,
      corsOrigins:
        raw.CODEC_SERVER_CORS_ORIGINS === undefined || raw.CODEC_SERVER_CORS_ORIGINS.trim() === ''
          ? undefined
          : raw.CODEC_SERVER_CORS_ORIGINS.split(',')
              .map((origin) => origin.trim().replace(/\/+$/, ''))
              .filter(Boolean),
      token: raw.CODEC_SERVER_TOKEN ? new SecretString(raw.CODEC_SERVER_TOKEN) : undefined,
      publicUrl: raw.CODEC_SERVER_PUBLIC_URL?.replace(/\/+$/, ''),
    },
  };
}
