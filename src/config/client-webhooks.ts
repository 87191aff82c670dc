/**
 * Where outcome events go (CLIENT_WEBHOOK_URLS) and what signs them (CLIENT_WEBHOOK_SECRET). Both are secrets: a
 * URL may carry credentials, so each prints redacted and is named in logs only by its position and host.
 */
import { z } from 'zod';
import { OUTCOME_EVENT_TYPES } from '../domain/outcome-events';
import { SecretString } from '../secrets/secret-string';
import { durationMs } from './duration';
import { booleanFlag, type Env, parseSection } from './env';
import { setting, TEMPORAL_CLIENTS } from './setting';

export interface ClientWebhookEndpoint {
  /** Without its `#types=` fragment. */
  url: SecretString;
  /** What logs and errors call it: its position and host, never its path, query or credentials. */
  label: string;
  /** The event types it receives (a type, or `<subject>.*`); absent: every type. */
  types?: readonly string[];
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

/**
 * An endpoint's event types ride in its URL's fragment, `#types=off_ramp.settled+on_ramp.*`: a fragment is never
 * sent, so the URL is the same one, and a list without it (the plain URL) receives every type.
 */
const TYPES_FRAGMENT = /^#types=(.*)$/;

/** The URL without its types fragment, and the types (undefined: every type); an issue for a wrong fragment. */
function endpointOf(url: URL): { url: string; types?: string[]; issue?: string } {
  if (url.hash === '') return { url: url.toString() };
  const match = TYPES_FRAGMENT.exec(url.hash);
  const bare = new URL(url);
  bare.hash = '';
  if (!match) return { url: bare.toString(), issue: 'may carry only a #types=<type>+<type> fragment' };
  const types = match[1]!.split('+').filter((type) => type !== '');
  const unknown = types.filter(
    (type) =>
      !(OUTCOME_EVENT_TYPES as readonly string[]).includes(type) &&
      !OUTCOME_EVENT_TYPES.some((known) => type.endsWith('.*') && known.startsWith(type.slice(0, -1))),
  );
  if (types.length === 0 || unknown.length > 0)
    return {
      url: bare.toString(),
      issue: `#types= must list outcome event types (or <subject>.*) joined by +; unknown: ${unknown.join(', ') || 'none given'}`,
    };
  return { url: bare.toString(), types };
}

/** One attempt at one endpoint; also sizes the outcome sender's activity, so every workflow starter reads it. */
export const clientWebhookTimeout = setting(durationMs('10s'), {
  group: 'tests shorten',
  default: '10s',
  meaning: "One delivery attempt of an outcome event to one of the client's endpoints.",
  readBy: TEMPORAL_CLIENTS,
});

export const clientWebhooksEnv = z
  .object({
    CLIENT_WEBHOOK_URLS: setting(z.string().optional(), {
      group: 'production',
      default: 'events recorded, sent nowhere',
      meaning:
        "The client's endpoints for outcome events, comma-separated; https (http only to a loopback host). An endpoint " +
        'receives every type, or those its `#types=` fragment lists (`https://h/p#types=off_ramp.settled+on_ramp.*`). ' +
        'A URL may carry credentials, so the list is a secret.',
      secret: true,
      readBy: ['npm start', 'worker'],
    }),
    CLIENT_WEBHOOK_SECRET: setting(z.string().optional(), {
      group: 'production',
      default: 'none',
      meaning:
        'One or more `whsec_<base64>` keys (24-64 bytes), comma- or space-separated; each delivery is signed with ' +
        'each (rotation: add the new one, move the client over, drop the old one).',
      secret: true,
      readBy: ['npm start', 'worker'],
      required: 'with CLIENT_WEBHOOK_URLS',
    }),
    CLIENT_WEBHOOK_ALLOW_HTTP: setting(booleanFlag(false), {
      group: 'local development',
      default: 'false',
      meaning:
        'true lets CLIENT_WEBHOOK_URLS name plain http endpoints on other hosts (a test network, a container).',
      readBy: ['npm start', 'worker'],
    }),
    CLIENT_WEBHOOK_TIMEOUT: clientWebhookTimeout,
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
      const { issue } = endpointOf(url);
      if (issue)
        ctx.addIssue({
          code: 'custom',
          path: ['CLIENT_WEBHOOK_URLS'],
          message: `entry ${index + 1} ${issue}`,
        });
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
  const raw = parseSection('client webhook', clientWebhooksEnv, env);
  return {
    endpoints: list(raw.CLIENT_WEBHOOK_URLS).map((text, index) => {
      const { url, types } = endpointOf(new URL(text));
      return {
        url: new SecretString(url),
        label: `endpoint ${index + 1} (${new URL(text).host})`,
        ...(types ? { types } : {}),
      };
    }),
    secrets: list(raw.CLIENT_WEBHOOK_SECRET).map((text) => new SecretString(text)),
    timeoutMs: raw.CLIENT_WEBHOOK_TIMEOUT,
  };
}
