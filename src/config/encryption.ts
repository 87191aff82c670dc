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
import { setting, TEMPORAL_CLIENTS } from './setting';
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

/**
 * The codec server runs under npm start and as a process of its own (`codec-server`). Deployed, it stays on loopback
 * and is reached through a port-forward, so a deployment sets only the Web UI's origin (CODEC_SERVER_CORS_ORIGINS):
 * its bind, port, token and public URL are for a codec server run elsewhere by hand.
 */
const codecServer = {
  group: 'local development',
  readBy: ['npm start', 'codec-server', 'healthcheck'],
} as const;

export const encryptionEnv = z.object({
  PAYLOAD_ENCRYPTION_KEYS: setting(z.string().optional(), {
    group: 'production',
    default: 'payloads in clear',
    meaning:
      '`<id>:<base64 of 32 bytes>`, comma-separated, active key first: AES-256-GCM encryption of every payload. Keep ' +
      'an old key (second or later) until no open process or retained history needs it.',
    secret: true,
    readBy: [...TEMPORAL_CLIENTS, 'release', 'codec-server'],
  }),
  CODEC_SERVER_HOST: setting(z.string().min(1).default('127.0.0.1'), {
    ...codecServer,
    default: '127.0.0.1',
    meaning:
      'Where the codec server (for the Web UI, with encryption on) listens; off loopback it needs a token.',
  }),
  CODEC_SERVER_PORT: setting(port(8234), {
    ...codecServer,
    default: '8234',
    meaning: "The codec server's port (0: a free one).",
  }),
  CODEC_SERVER_CORS_ORIGINS: setting(z.string().optional(), {
    group: 'production',
    default: "npm start's Web UI",
    meaning:
      "Browser origins allowed to call the codec server, comma-separated: the Temporal Web UI's origin, as the " +
      'on-call person opens it. Required with PAYLOAD_ENCRYPTION_KEYS for the codec server of a deployment.',
    readBy: ['npm start', 'codec-server'],
    example: 'https://temporal.internal.example',
  }),
  CODEC_SERVER_TOKEN: setting(z.string().min(16, 'must be at least 16 characters').optional(), {
    ...codecServer,
    readBy: ['npm start', 'codec-server'],
    default: 'none',
    meaning: 'The bearer token the codec server requires; needed when it is not bound to loopback.',
    secret: true,
  }),
  CODEC_SERVER_PUBLIC_URL: setting(z.url({ protocol: /^https?$/ }).optional(), {
    ...codecServer,
    readBy: ['npm start', 'codec-server'],
    default: 'the bound URL',
    meaning: "The codec server's URL as the browser reaches it; its host is also accepted in Host headers.",
  }),
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
