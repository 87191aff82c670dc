/**
 * The product's own database: PostgreSQL, where the business's records live (ramps' views and booked rows, outcome
 * events and their deliveries, idempotency keys, end users). `DATABASE_URL` names it; without it `npm start` and the
 * tests run an embedded PostgreSQL of their own (src/database/embedded-server.ts), its data under `.data/`.
 */
import { z } from 'zod';
import { registerSecret } from '../secrets/known-secrets';
import { SecretString } from '../secrets/secret-string';
import { type Env, parseSection } from './env';
import { setting } from './setting';

const postgresUrl = z
  .string()
  .refine((value) => {
    try {
      return ['postgres:', 'postgresql:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be a postgres:// or postgresql:// URL such as postgres://ramp:secret@db.internal:5432/ramp')
  .optional();

export const databaseEnv = z.object({
  DATABASE_URL: setting(postgresUrl, {
    group: 'production',
    default: "npm start's embedded PostgreSQL",
    meaning:
      'The PostgreSQL database of the business records (views, booked rows, outcome events, idempotency keys), as ' +
      'a postgres:// URL with its credentials; `?sslmode=require` for TLS. Without it npm start runs an embedded ' +
      'PostgreSQL under .data/.',
    secret: true,
    readBy: [
      'npm start',
      'worker',
      'api',
      'typed client',
      'account:setup',
      'statement',
      'demo',
      'db:migrate',
    ],
    required: 'yes',
  }),
});

export interface DatabaseConfig {
  /** Undefined: npm start runs the embedded server (a stand-alone process refuses to start without it). */
  url: SecretString | undefined;
}

export function loadDatabaseConfig(env: Env): DatabaseConfig {
  const raw = parseSection('database', databaseEnv, env);
  if (raw.DATABASE_URL === undefined) return { url: undefined };
  const url = new URL(raw.DATABASE_URL);
  // The password is what a log must never show; the whole URL is the secret a file may hold.
  if (url.password) registerSecret(decodeURIComponent(url.password));
  registerSecret(raw.DATABASE_URL);
  return { url: new SecretString(raw.DATABASE_URL) };
}

/** The configured database; a process that does not start an embedded one cannot run without it. */
export function requiredDatabaseUrl(config: DatabaseConfig, what: string): SecretString {
  if (!config.url)
    throw new Error(`DATABASE_URL is required for a stand-alone ${what} (npm start runs an embedded one).`);
  return config.url;
}
