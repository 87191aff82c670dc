/**
 * The HTTP API's configuration. API_KEY is required against a real operator; in sandbox mode (no
 * OPERATOR_BASE_URL) it defaults to DEV_API_KEY, a documented development-only key.
 */
import { z } from 'zod';
import { type Env, isSandboxMode, parseSection, port } from './env';
import { SecretString } from '../secrets/secret-string';

/** DEV-ONLY API key, accepted only in sandbox mode. Never use it in production. */
export const DEV_API_KEY = 'dev-only-api-key-4c2f8e1a9b7d3f5e';

const apiEnv = z.object({
  API_PORT: port(8080),
  API_HOST: z.string().min(1).default('127.0.0.1'),
  API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
});

export interface ApiConfig {
  port: number;
  host: string;
  apiKey: SecretString;
}

export function loadApiConfig(env: Env): ApiConfig {
  const raw = parseSection('API', apiEnv, env);
  if (!raw.API_KEY && !isSandboxMode(env)) {
    throw new Error(
      'Invalid API configuration:\n  API_KEY: required when OPERATOR_BASE_URL is set (the dev key is for sandbox mode only)',
    );
  }
  return { port: raw.API_PORT, host: raw.API_HOST, apiKey: new SecretString(raw.API_KEY ?? DEV_API_KEY) };
}
