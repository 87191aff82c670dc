/**
 * The HTTP API's configuration. API_KEY is required against a real operator; in sandbox mode (no
 * OPERATOR_BASE_URL) it defaults to DEV_API_KEY, a documented development-only key.
 */
import { z } from 'zod';
import { type Env, isSandboxMode, parseSection, port } from './env';
import { durationMs } from './duration';
import { setting } from './setting';
import { SecretString } from '../secrets/secret-string';

/** DEV-ONLY API key, accepted only in sandbox mode. Never use it in production. */
export const DEV_API_KEY = 'dev-only-api-key-4c2f8e1a9b7d3f5e';

export const apiEnv = z.object({
  API_HOST: setting(z.string().min(1).default('127.0.0.1'), {
    group: 'production',
    default: '127.0.0.1',
    meaning:
      'The address the HTTP API binds; 0.0.0.0 in a container. Off loopback, /metrics needs METRICS_TOKEN.',
    readBy: ['npm start', 'api', 'healthcheck'],
    example: '0.0.0.0',
  }),
  API_PORT: setting(port(8080), {
    group: 'production',
    default: '8080',
    meaning: 'The HTTP API port (0: a free one).',
    readBy: ['npm start', 'api', 'healthcheck'],
    example: '8080',
  }),
  API_KEY: setting(z.string().min(16, 'must be at least 16 characters').optional(), {
    group: 'production',
    default: 'a dev key in sandbox mode',
    meaning: "The bearer token the client's backend sends to the HTTP API; at least 16 characters.",
    secret: true,
    readBy: ['npm start', 'api'],
    required: 'yes',
  }),
  IDEMPOTENCY_RETENTION: setting(durationMs('24h'), {
    group: 'tests shorten',
    default: '24h',
    meaning:
      "How long the first answer to a POST's Idempotency-Key is kept (Stripe's 24 h): a repeat within it gets that " +
      'answer again, a key used after it starts afresh.',
    readBy: ['npm start', 'api'],
  }),
});

export interface ApiConfig {
  port: number;
  host: string;
  apiKey: SecretString;
  idempotencyRetentionMs: number;
}

export function loadApiConfig(env: Env): ApiConfig {
  const raw = parseSection('API', apiEnv, env);
  if (!raw.API_KEY && !isSandboxMode(env)) {
    throw new Error(
      'Invalid API configuration:\n  API_KEY: required when OPERATOR_BASE_URL is set (the dev key is for sandbox mode only)',
    );
  }
  return {
    port: raw.API_PORT,
    host: raw.API_HOST,
    apiKey: new SecretString(raw.API_KEY ?? DEV_API_KEY),
    idempotencyRetentionMs: raw.IDEMPOTENCY_RETENTION,
  };
}
