/**
 * The codec server the Temporal Web UI and CLI call to show encrypted payloads in clear
 * (`temporal server start-dev --ui-codec-endpoint <url>`, or the UI's "Codec Server" setting;
 * `temporal workflow show --codec-endpoint <url> [--codec-auth 'Bearer <token>']`).
 *
 * - `POST /codec/encode`, `POST /codec/decode`: body and answer `{ payloads: [{ metadata: { k: base64 }, data: base64 }] }`
 *   (the Web UI's JSON shape), `Content-Type: application/json` only (415 otherwise: a cross-origin text/plain
 *   "simple request" never reaches the codec); the UI also sends `X-Namespace`, accepted and not needed.
 * - Anyone who can call /codec/decode reads every payload, and /codec/encode is an encryption oracle. So:
 *   a bearer token (CODEC_SERVER_TOKEN) is required unless the server is bound to loopback (startCodecServer
 *   refuses to start otherwise); the Host header must name the configured public host, the bound host or localhost
 *   (403 otherwise: a DNS-rebound page cannot use a browser as a proxy to it); CORS only for the Web UI's origins
 *   (CODEC_SERVER_CORS_ORIGINS, by default those of the Web UI in use), preflight included (403 for other origins).
 * - Every error is the JSON envelope of src/http/errors.ts.
 * Neither keys nor payload contents are logged.
 */
import type { Payload, PayloadCodec } from '@temporalio/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { listen } from '../http/listen';
import type { CodecServerConfig, PayloadEncryptionConfig } from '../config/encryption';
import { jsonErrorHandler, sendError } from '../http/errors';
import { hostHeaderName, isLoopbackHost } from '../http/host';
import { createHttpServer, type HttpServerTimeouts } from '../http/server';
import { sameSecret } from '../secrets/compare';
import { EncryptionCodec } from './encryption-codec';

export interface JsonPayload {
  metadata?: Record<string, string> | null;
  data?: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function payloadFromJson(json: JsonPayload): Payload {
  if (!isObject(json)) throw new TypeError('a payload is not an object');
  if (json.metadata !== undefined && json.metadata !== null && !isObject(json.metadata))
    throw new TypeError('metadata is not an object');
  const metadata: Record<string, Uint8Array> = {};
  for (const [key, value] of Object.entries(json.metadata ?? {})) {
    if (typeof value !== 'string') throw new TypeError(`metadata.${key.slice(0, 50)} is not a base64 string`);
    metadata[key] = Buffer.from(value, 'base64');
  }
  if (json.data !== undefined && json.data !== null && typeof json.data !== 'string')
    throw new TypeError('data is not a base64 string');
  return { metadata, data: Buffer.from(json.data ?? '', 'base64') };
}

export function payloadToJson(payload: Payload): JsonPayload {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(payload.metadata ?? {}))
    if (value) metadata[key] = Buffer.from(value).toString('base64');
  return { metadata, data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64') };
}

export interface CodecServerOptions {
  codec: PayloadCodec;
  corsOrigins: string[];
  /** When set, the POSTs need `Authorization: Bearer <token>`. */
  token?: { reveal(): string } | undefined;
  /** Host names the Host header may name besides localhost, 127.0.0.1 and ::1 (the public and bound hosts). */
  allowedHosts?: string[];
  logger?: Logger;
  bodyLimit?: string;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

export function createCodecServer(options: CodecServerOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(allowedHostsOnly(options.allowedHosts ?? []));
  app.use(corsForOrigins(options.corsOrigins));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  const json = express.json({ limit: options.bodyLimit ?? '8mb', type: 'application/json', strict: true });
  const post = [bearerToken(options.token), jsonOnly, json];
  const encode = codecHandler('encode', options);
  const decode = codecHandler('decode', options);
  app.post('/codec/encode', ...post, encode);
  app.post('/codec/decode', ...post, decode);
  // Also answer at /encode and /decode, so the endpoint may be given with or without the /codec prefix.
  app.post('/encode', ...post, encode);
  app.post('/decode', ...post, decode);

  app.use((_req: Request, res: Response) => {
    sendError(res, 404, 'not_found', 'Not found');
  });
  app.use(jsonErrorHandler({ logger: options.logger, component: 'Codec server' }));
  return app;
}

/** 403 unless the Host header names loopback or one of `hosts`: a DNS-rebound page cannot use a browser as a proxy. */
function allowedHostsOnly(hosts: readonly string[]) {
  const allowed = new Set(
    [...LOOPBACK_NAMES, ...hosts].map((host) => host.toLowerCase().replace(/^\[(.*)\]$/, '$1')),
  );
  return (req: Request, res: Response, next: NextFunction) => {
    const host = hostHeaderName(req.headers.host);
    if (!host || !allowed.has(host)) {
      sendError(res, 403, 'host_not_allowed', 'This host name may not be used to reach the codec server');
      return;
    }
    next();
  };
}

/** CORS for the given origins only; a preflight from any other origin is refused (403). */
function corsForOrigins(origins: readonly string[]) {
  const allowed = new Set(origins.map((origin) => origin.replace(/\/+$/, '')));
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin && allowed.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Vary', 'Origin');
    }
    if (req.method !== 'OPTIONS') return next();
    if (!origin || !allowed.has(origin)) {
      sendError(res, 403, 'origin_not_allowed', 'This origin may not call the codec server');
      return;
    }
    res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    // A Web UI served from the network calling a codec server reached on localhost (a port-forward): browsers that
    // guard the private network ask first, and the UI's origin is already the one allowed.
    if (req.headers['access-control-request-private-network'] === 'true')
      res.setHeader('Access-Control-Allow-Private-Network', 'true');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Namespace, Authorization');
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
  };
}

/** 401 without `Authorization: Bearer <token>` when a token is configured. */
function bearerToken(token: CodecServerOptions['token']) {
  return (req: Request, res: Response, next: NextFunction) => {
    const expected = token?.reveal();
    if (expected === undefined) return next();
    const header = req.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
    if (!given || !sameSecret(given, expected)) {
      res.setHeader('www-authenticate', 'Bearer');
      sendError(res, 401, 'unauthorized', 'A valid bearer token is required');
      return;
    }
    next();
  };
}

/** 415 for any body but JSON: a cross-origin text/plain "simple request" never reaches the codec. */
function jsonOnly(req: Request, res: Response, next: NextFunction) {
  if (!req.is('application/json')) {
    sendError(res, 415, 'unsupported_media_type', 'The body must be application/json');
    return;
  }
  next();
}

/** `{ payloads }` through the codec one way; a body or payload it cannot read, or a codec error, is a 400. */
function codecHandler(direction: 'encode' | 'decode', options: Pick<CodecServerOptions, 'codec' | 'logger'>) {
  return async (req: Request, res: Response) => {
    const body = req.body as { payloads?: unknown } | undefined;
    if (!body || !Array.isArray(body.payloads)) {
      sendError(res, 400, 'invalid_body', 'The body must be { payloads: [...] }');
      return;
    }
    let payloads: Payload[];
    try {
      payloads = (body.payloads as JsonPayload[]).map((payload) => payloadFromJson(payload));
    } catch (error) {
      sendError(res, 400, 'invalid_payload', (error as Error).message);
      return;
    }
    try {
      const result =
        direction === 'encode' ? await options.codec.encode(payloads) : await options.codec.decode(payloads);
      res.json({ payloads: result.map(payloadToJson) });
    } catch (error) {
      // Codec errors name key IDs at most, never key material or payload contents.
      options.logger?.warn(
        {
          direction,
          namespace: String(req.headers['x-namespace'] ?? '').slice(0, 100),
          err: { message: (error as Error).message },
        },
        'Codec server could not process payloads',
      );
      sendError(res, 400, 'codec_error', (error as Error).message);
    }
  };
}

/** The browser origins of a Web UI served on ip:port (what the codec server must allow for it). */
export function webUiOrigins(webUi: { ip: string; port: number }): string[] {
  const origins = [`http://127.0.0.1:${webUi.port}`, `http://localhost:${webUi.port}`];
  const wildcard = webUi.ip === '0.0.0.0' || webUi.ip === '::';
  if (!wildcard) origins.push(`http://${webUi.ip.includes(':') ? `[${webUi.ip}]` : webUi.ip}:${webUi.port}`);
  return [...new Set(origins)];
}

export interface RunningCodecServer {
  /** Base URL actually bound, e.g. http://127.0.0.1:8234 (no path). */
  url: string;
  /** What to give the Web UI / CLI as the codec endpoint: `<public or bound URL>/codec`. */
  endpoint: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Starts the codec server for an encryption config with at least one key. Refuses to start without a token on a
 * non-loopback address. CORS origins: `options.corsOrigins`, else CODEC_SERVER_CORS_ORIGINS, else those of
 * `options.webUi` (the Web UI in use), else none (CLI only).
 */
export async function startCodecServer(
  config: Pick<PayloadEncryptionConfig, 'keys'> & { codecServer: CodecServerConfig },
  options: {
    logger?: Logger;
    corsOrigins?: string[];
    webUi?: { ip: string; port: number };
    timeouts?: HttpServerTimeouts;
  } = {},
): Promise<RunningCodecServer> {
  if (config.keys.length === 0) throw new Error('The codec server needs PAYLOAD_ENCRYPTION_KEYS');
  const { host, port, publicUrl, token } = config.codecServer;
  if (!token && !isLoopbackHost(host)) {
    throw new Error(
      `CODEC_SERVER_TOKEN is required when the codec server is not bound to loopback (CODEC_SERVER_HOST=${host}): whoever reaches it can decode every payload`,
    );
  }
  const allowedHosts = [host, ...(publicUrl ? [new URL(publicUrl).hostname] : [])].filter(
    (name) => name !== '0.0.0.0' && name !== '::',
  );
  const corsOrigins =
    options.corsOrigins ??
    config.codecServer.corsOrigins ??
    (options.webUi ? webUiOrigins(options.webUi) : []);
  const server = createHttpServer(
    createCodecServer({
      codec: new EncryptionCodec(config.keys),
      corsOrigins,
      token,
      allowedHosts,
      ...(options.logger ? { logger: options.logger } : {}),
    }),
    options.timeouts,
  );
  const listening = await listen(server, port, host, 'http');
  const { url } = listening;
  const base = publicUrl ?? url;
  options.logger?.info({ url, corsOrigins }, 'Codec server listening');
  return {
    url,
    endpoint: `${base}/codec`,
    port: listening.port,
    close: listening.close,
  };
}

/** The `start-dev` arguments that make the dev server's Web UI use the codec server. */
export function devServerCodecArgs(endpoint: string | undefined): string[] {
  return endpoint ? ['--ui-codec-endpoint', endpoint] : [];
}
