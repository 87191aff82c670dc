/**
 * The webhook receiver's configuration, shared by the receiver (src/webhooks) and the account setup, which
 * registers the receiver's URLs with the operator.
 *
 * The spec shows no signature on deliveries, so the credential is a secret path segment in each recipient URL
 * (ASSUMED; the receiver reports the header names deliveries carry, src/webhooks/delivery-headers.ts). The URLs
 * therefore are secrets: they never go into logs, errors or workflow history; only `redactedRecipientUrl` forms do.
 *
 * Sandbox mode (no OPERATOR_BASE_URL: the product runs against its own sandbox operator) has DEV-ONLY default
 * secrets below; against a real operator both secrets must be set.
 */
import { z } from 'zod';
import { type Env, isSandboxMode, parseSection, port } from './env';
import { setting } from './setting';
import { isLoopbackHost } from '../domain/loopback';
import { SecretString } from '../secrets/secret-string';

/** DEV-ONLY defaults, used only in sandbox mode. Never use them against a real operator. */
export const DEV_TRANSACTION_SECRET = 'dev-only-tx-7f3a9c1e5b2d48e6a0c4f8b1d3e5a7c9';
export const DEV_ORDER_SECRET = 'dev-only-order-2b8e4d6f0a1c3e5f7a9b1c3d5e7f9a0b';

const secretSegment = z
  .string()
  .regex(/^[A-Za-z0-9._~-]{24,200}$/, 'must be 24-200 URL-safe characters (letters, digits, . _ ~ -)');

/** Largest delivery body: an operator event is a few hundred bytes, and anything far larger is not one. */
export const RECEIVER_BODY_LIMIT = '16kb';

/**
 * How long a delivery may wait for Temporal before the answer is 503: the operator retries a 503, and a hand-off
 * that takes longer than this means Temporal is not there to take it.
 */
export const RECEIVER_TEMPORAL_TIMEOUT_MS = 10_000;

/**
 * The budget of the receiver's own hop (re-read, then forward to the process) before a delivery goes to a router
 * instead: the operator waits for the answer meanwhile. Never more than half of RECEIVER_TEMPORAL_TIMEOUT_MS
 * (directForwardBudgetMs), so that a hop out of time leaves the router's hand-off room.
 */
export const DIRECT_FORWARD_TIMEOUT_MS = 1_000;

const READ_BY = ['npm start', 'receiver', 'worker'] as const;

/** RECEIVER_TLS's value when TLS ends in front of the receiver (an ingress, a load balancer). */
export const TLS_IN_FRONT = 'in-front';

/** The certificate's files in a RECEIVER_TLS directory: the keys of a Kubernetes TLS Secret (and cert-manager's). */
export const TLS_FILES = { cert: 'tls.crt', key: 'tls.key' } as const;

/**
 * How often the receiver looks at its certificate files for a renewal: a renewed certificate is mounted well before
 * the old one expires, so a minute late is never late.
 */
export const TLS_RELOAD_INTERVAL_MS = 60_000;

/**
 * Where the receiver's TLS ends: its own certificate files (a directory), in front of it (plain HTTP behind an
 * ingress), or the generated localhost certificate (loopback only).
 */
export type ReceiverTls = { files: string } | { inFront: true } | { local: true };
const secretMeaning = (kind: string) =>
  `The secret path segment of the ${kind} recipient URL (24-200 URL-safe characters): the credential of every ` +
  `${kind} delivery, since the operator does not sign them.`;

export const receiverEnv = z.object({
  RECEIVER_PUBLIC_URL: setting(
    z
      .url({ protocol: /^https$/ })
      .refine(
        (value) => value.startsWith('https://'),
        'must begin with https:// (the operator accepts only https recipients)',
      )
      .optional(),
    {
      group: 'production',
      default: 'https://127.0.0.1:RECEIVER_PORT',
      meaning:
        'The https URL the operator reaches the receiver at (a path prefix allowed); the account setup registers the ' +
        'recipient URLs under it.',
      readBy: READ_BY,
      required: 'yes',
      example: 'https://hooks.client.example',
    },
  ),
  RECEIVER_TRANSACTION_SECRET: setting(secretSegment.optional(), {
    group: 'production',
    default: 'a dev secret in sandbox mode',
    meaning: secretMeaning('transaction'),
    secret: true,
    readBy: READ_BY,
    required: 'yes',
  }),
  RECEIVER_ORDER_SECRET: setting(secretSegment.optional(), {
    group: 'production',
    default: 'a dev secret in sandbox mode',
    meaning: secretMeaning('order'),
    secret: true,
    readBy: READ_BY,
    required: 'yes',
  }),
  RECEIVER_HOST: setting(z.string().min(1).default('127.0.0.1'), {
    group: 'production',
    default: '127.0.0.1',
    meaning:
      'The address the receiver binds; 0.0.0.0 in a container. Off loopback, /metrics needs METRICS_TOKEN.',
    readBy: ['npm start', 'receiver', 'healthcheck', 'operator:probe'],
    example: '0.0.0.0',
  }),
  RECEIVER_PORT: setting(port(8443), {
    group: 'production',
    default: '8443',
    meaning: "The receiver's HTTPS port (0: a free one); RECEIVER_PUBLIC_URL follows it unless set.",
    readBy: [...READ_BY, 'healthcheck', 'operator:probe'],
    example: '8443',
  }),
  RECEIVER_TLS: setting(z.string().min(1).optional(), {
    group: 'production',
    default: 'a generated localhost certificate (loopback only)',
    meaning:
      'Where TLS ends: a directory holding `tls.crt` and `tls.key` (the layout of a Kubernetes TLS Secret), reloaded ' +
      `when they change; or \`${TLS_IN_FRONT}\` when an ingress or load balancer ends it and the receiver serves plain ` +
      'HTTP. Unset, the receiver serves a generated localhost certificate, on a loopback address only.',
    readBy: ['npm start', 'receiver', 'healthcheck'],
    example: '/run/secrets/receiver-tls',
  }),
});

export interface ReceiverConfig {
  /** https://host[:port][/prefix], no trailing slash. */
  publicUrl: string;
  transactionSecret: SecretString;
  orderSecret: SecretString;
  port: number;
  host: string;
  tls: ReceiverTls;
  /**
   * True when RECEIVER_PUBLIC_URL was not set and publicUrl was derived from RECEIVER_PORT: an entry point that binds
   * port 0 replaces it with the bound URL before anything registers it.
   */
  publicUrlFollowsPort?: boolean;
  // The fields below are set in code only, by tests and the bench; the constants above are the product's.
  /** How often the certificate files are looked at for a renewal (default TLS_RELOAD_INTERVAL_MS). */
  tlsReloadIntervalMs?: number;
  /** Largest accepted body (default RECEIVER_BODY_LIMIT). */
  bodyLimit?: string;
  /** Milliseconds a delivery may wait for Temporal before a 503 (default RECEIVER_TEMPORAL_TIMEOUT_MS). */
  temporalTimeoutMs?: number;
  /**
   * Milliseconds the receiver may spend forwarding a delivery itself, when it is given the operator (default
   * DIRECT_FORWARD_TIMEOUT_MS); 0: every delivery goes to its router.
   */
  directForwardTimeoutMs?: number;
}

export function loadReceiverConfig(env: Env): ReceiverConfig {
  const raw = parseSection('receiver', receiverEnv, env);
  const sandbox = isSandboxMode(env);
  const missing = [
    raw.RECEIVER_TRANSACTION_SECRET || sandbox ? null : 'RECEIVER_TRANSACTION_SECRET',
    raw.RECEIVER_ORDER_SECRET || sandbox ? null : 'RECEIVER_ORDER_SECRET',
  ].filter((name): name is string => name !== null);
  if (missing.length > 0) {
    throw new Error(
      `Invalid receiver configuration:\n${missing.map((name) => `  ${name}: required when OPERATOR_BASE_URL is set (no dev default against a real operator)`).join('\n')}`,
    );
  }
  // A generated localhost certificate is trusted by nobody beyond this machine, and plain HTTP only behind TLS.
  if (raw.RECEIVER_TLS === undefined && !isLoopbackHost(raw.RECEIVER_HOST)) {
    throw new Error(
      `Invalid receiver configuration:\n  RECEIVER_TLS: required when RECEIVER_HOST (${raw.RECEIVER_HOST}) is not loopback: ` +
        `a directory holding ${TLS_FILES.cert} and ${TLS_FILES.key}, or ${TLS_IN_FRONT} when TLS ends in front of the receiver`,
    );
  }
  // Against the local sandbox nothing stands between the operator and the receiver, so a loopback public URL on
  // another port than the bound one can only mean every delivery fails.
  const publicPort = raw.RECEIVER_PUBLIC_URL ? loopbackPort(raw.RECEIVER_PUBLIC_URL) : undefined;
  if (sandbox && publicPort !== undefined && raw.RECEIVER_PORT !== 0 && publicPort !== raw.RECEIVER_PORT) {
    throw new Error(
      `Invalid receiver configuration:\n  RECEIVER_PUBLIC_URL (${raw.RECEIVER_PUBLIC_URL}) names port ${publicPort} on this machine, but ` +
        `RECEIVER_PORT is ${raw.RECEIVER_PORT}: the sandbox would deliver every webhook to a port nobody serves (leave RECEIVER_PUBLIC_URL unset to follow RECEIVER_PORT)`,
    );
  }
  return {
    // Unless set, the public URL follows the bound port, so changing RECEIVER_PORT alone keeps deliveries working.
    publicUrl: (raw.RECEIVER_PUBLIC_URL ?? `https://127.0.0.1:${raw.RECEIVER_PORT}`).replace(/\/+$/, ''),
    publicUrlFollowsPort: raw.RECEIVER_PUBLIC_URL === undefined,
    transactionSecret: new SecretString(raw.RECEIVER_TRANSACTION_SECRET ?? DEV_TRANSACTION_SECRET),
    orderSecret: new SecretString(raw.RECEIVER_ORDER_SECRET ?? DEV_ORDER_SECRET),
    port: raw.RECEIVER_PORT,
    host: raw.RECEIVER_HOST,
    tls:
      raw.RECEIVER_TLS === undefined
        ? { local: true }
        : raw.RECEIVER_TLS === TLS_IN_FRONT
          ? { inFront: true }
          : { files: raw.RECEIVER_TLS },
  };
}

/** The port of a loopback URL (127.0.0.0/8, localhost, [::1]); undefined for any other host. */
function loopbackPort(url: string): number | undefined {
  const parsed = new URL(url);
  const host = parsed.hostname;
  if (!(host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host))) return undefined;
  return parsed.port === '' ? 443 : Number(parsed.port);
}

type UrlConfig = Pick<ReceiverConfig, 'publicUrl' | 'transactionSecret' | 'orderSecret'>;

/** The transaction recipient URL to register with the operator. A secret: never log it. */
export function transactionRecipientUrl(config: UrlConfig): string {
  return `${config.publicUrl}/webhooks/transactions/${config.transactionSecret.reveal()}`;
}

/** The order recipient URL to register with the operator. A secret: never log it. */
export function orderRecipientUrl(config: UrlConfig): string {
  return `${config.publicUrl}/webhooks/orders/${config.orderSecret.reveal()}`;
}

/**
 * A recipient URL fit for logs, history and the Web UI: ours keep their path up to the hidden secret segment;
 * anyone else's (another system's recipient on the same account) keep only their origin, since we cannot know
 * where their credential sits. Query strings and fragments are always dropped.
 */
export function redactedRecipientUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '[REDACTED URL]';
  }
  const ours = /^(.*\/webhooks\/(?:transactions|orders))\/[^/]+\/?$/.exec(parsed.pathname);
  return `${parsed.origin}${ours ? ours[1] : ''}/[REDACTED]`;
}
