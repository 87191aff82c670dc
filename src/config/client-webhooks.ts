/**
 * Where outcome events go (CLIENT_WEBHOOK_URLS) and what signs them (CLIENT_WEBHOOK_SECRET). Both are secrets: a
 * URL may carry credentials, so each prints redacted and is named in logs only by its position and host.
 *
 * CLIENT_WEBHOOK_URLS        one or more endpoints, comma-separated; https, or http to a loopback host, or http
 *                            anywhere with CLIENT_WEBHOOK_ALLOW_HTTP=true
 * CLIENT_WEBHOOK_SECRET      one or more `whsec_<base64>` secrets, comma- or space-separated: every delivery is signed
 *                            with each (rotation: add the new one, move the client over, drop the old one)
 * CLIENT_WEBHOOK_TIMEOUT     one attempt at one endpoint (default 10s); the retry timings are workflow timings
 */
import { z } from 'zod';
import { SecretString } from '../secrets/secret-string';
import { durationMs } from './duration';
import { booleanFlag, type Env, parseSection } from './env';

export interface ClientWebhookEndpoint {
  url: SecretString;
  /** What logs and errors call it: its position and host, never its path, query or credentials. */
  label: string;
}

export interface ClientWebhookConfig {
  endpoints: ClientWebhookEndpoint[];
  /** The signing keys, decoded from their `whsec_` form. */
  secrets: SecretString[];
  timeoutMs: number;
}

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);
const isLoopback = (hostname: string) =>
  LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);

const SECRET_PREFIX = 'whsec_';
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;

/** The problem with one `whsec_` secret, or undefined (the message never repeats the value). */
export function clientWebhookSecretIssue(text: string): string | undefined {
  if (!text.startsWith(SECRET_PREFIX)) return `must start with ${SECRET_PREFIX}`;
  const encoded = text.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return `must be ${SECRET_PREFIX} followed by base64`;
  const bytes = Buffer.from(encoded, 'base64').length;
  if (bytes < MIN_SECRET_BYTES || bytes > MAX_SECRET_BYTES) {
    return `must hold ${MIN_SECRET_BYTES}-${MAX_SECRET_BYTES} bytes once decoded (it holds ${bytes})`;
  }
  return undefined;
}

const list = (text: string | undefined) => (text ?? '').split(/[\s,]+/).filter((item) => item !== '');

const schema = z
  .object({
    CLIENT_WEBHOOK_URLS: z.string().optional(),
    CLIENT_WEBHOOK_SECRET: z.string().optional(),
    CLIENT_WEBHOOK_ALLOW_HTTP: booleanFlag(false),
    CLIENT_WEBHOOK_TIMEOUT: durationMs('10s'),
  })
  .superRefine((raw, ctx) => {
    const urls = list(raw.CLIENT_WEBHOOK_URLS);
    urls.forEach((text, index) => {
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        ctx.addIssue({
          code: 'custom',
          path: ['CLIENT_WEBHOOK_URLS'],
          message: `entry ${index + 1} is not a URL`,
        });
        return;
      }
      const plainHttpAllowed = raw.CLIENT_WEBHOOK_ALLOW_HTTP || isLoopback(url.hostname);
      if (url.protocol !== 'https:' && !(url.protocol === 'http:' && plainHttpAllowed)) {
        ctx.addIssue({
          code: 'custom',
          path: ['CLIENT_WEBHOOK_URLS'],
          message: `entry ${index + 1} must be https (http only to a loopback host, or with CLIENT_WEBHOOK_ALLOW_HTTP=true)`,
        });
      }
    });
    const secrets = list(raw.CLIENT_WEBHOOK_SECRET);
    secrets.forEach((text, index) => {
      const issue = clientWebhookSecretIssue(text);
      if (issue)
        ctx.addIssue({
          code: 'custom',
          path: ['CLIENT_WEBHOOK_SECRET'],
          message: `entry ${index + 1} ${issue}`,
        });
    });
    if (urls.length > 0 && secrets.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['CLIENT_WEBHOOK_SECRET'],
        message: 'is required when CLIENT_WEBHOOK_URLS is set (outcome events are always signed)',
      });
    }
  });

export function loadClientWebhookConfig(env: Env): ClientWebhookConfig {
  const raw = parseSection('client webhook', schema, env);
  return {
    endpoints: list(raw.CLIENT_WEBHOOK_URLS).map((text, index) => ({
      url: new SecretString(text),
      label: `endpoint ${index + 1} (${new URL(text).host})`,
    })),
    secrets: list(raw.CLIENT_WEBHOOK_SECRET).map((text) => new SecretString(text)),
    timeoutMs: raw.CLIENT_WEBHOOK_TIMEOUT,
  };
}
