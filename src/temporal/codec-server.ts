/**
 * The codec server the Temporal Web UI and CLI call to show encrypted payloads in clear
 * (`temporal server start-dev --ui-codec-endpoint <url>`, or the UI's "Codec Server" setting;
 * `temporal workflow show --codec-endpoint <url> [--codec-auth 'Bearer <token>']`).
 *
 * - `POST /codec/encode`, `POST /codec/decode`: body and answer `{ payloads: [{ metadata: { k: base64 }, data: base64 }] }`
 *   (the Web UI's JSON shape); the UI also sends `X-Namespace`, accepted and not needed (one key set for all).
 * - CORS for the configured origins (CODEC_SERVER_CORS_ORIGINS), preflight included; other origins get no CORS
 *   headers (and 403 on preflight).
 * - Optional bearer token (CODEC_SERVER_TOKEN) on the POSTs. Anyone who can call /codec/decode reads every
 *   payload: keep it on a private network and/or behind the token.
 * Neither keys nor payload contents are logged.
 */
import http from 'node:http';
import { listen } from '../app/listen';
import { timingSafeEqual } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { CodecServerConfig, PayloadEncryptionConfig } from '../config/encryption';
import { EncryptionCodec } from './encryption-codec';

export interface JsonPayload {
  metadata?: Record<string, string> | null;
  data?: string | null;
}

export function payloadFromJson(json: JsonPayload): Payload {
  const metadata: Record<string, Uint8Array> = {};
  for (const [key, value] of Object.entries(json.metadata ?? {})) {
    if (typeof value !== 'string') throw new TypeError(`metadata.${key.slice(0, 50)} is not a base64 string`);
    metadata[key] = Buffer.from(value, 'base64');
  }
  if (json.data !== undefined && json.data !== null && typeof json.data !== 'string') throw new TypeError('data is not a base64 string');
  return { metadata, data: Buffer.from(json.data ?? '', 'base64') };
}

export function payloadToJson(payload: Payload): JsonPayload {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(payload.metadata ?? {})) if (value) metadata[key] = Buffer.from(value).toString('base64');
  return { metadata, data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64') };
}

export interface CodecServerOptions {
  codec: PayloadCodec;
  corsOrigins: string[];
  token?: { reveal(): string } | undefined;
  logger?: Logger;
  bodyLimit?: string;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createCodecServer(options: CodecServerOptions): express.Express {
  const allowed = new Set(options.corsOrigins.map((origin) => origin.replace(/\/+$/, '')));
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use((req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin && allowed.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Vary', 'Origin');
    }
    if (req.method === 'OPTIONS') {
      if (!origin || !allowed.has(origin)) {
        res.status(403).json({ error: { code: 'origin_not_allowed', message: 'This origin may not call the codec server' } });
        return;
      }
      res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Namespace, Authorization');
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  });

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  const requireToken = (req: Request, res: Response, next: NextFunction) => {
    const expected = options.token?.reveal();
    if (expected === undefined) return next();
    const header = req.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
    if (!given || !sameToken(given, expected)) {
      res.status(401).json({ error: { code: 'unauthorized', message: 'A valid bearer token is required' } });
      return;
    }
    next();
  };

  const handler = (direction: 'encode' | 'decode') => async (req: Request, res: Response) => {
    const body = req.body as { payloads?: unknown } | undefined;
    if (!body || !Array.isArray(body.payloads)) {
      res.status(400).json({ error: { code: 'invalid_body', message: 'The body must be { payloads: [...] }' } });
      return;
    }
    let payloads: Payload[];
    try {
      payloads = (body.payloads as JsonPayload[]).map((payload) => payloadFromJson(payload ?? {}));
    } catch (error) {
      res.status(400).json({ error: { code: 'invalid_payload', message: (error as Error).message } });
      return;
    }
    try {
      const result = direction === 'encode' ? await options.codec.encode(payloads) : await options.codec.decode(payloads);
      res.json({ payloads: result.map(payloadToJson) });
    } catch (error) {
      // Codec errors name key IDs at most, never key material or payload contents.
      options.logger?.warn({ direction, namespace: String(req.headers['x-namespace'] ?? '').slice(0, 100), err: { message: (error as Error).message } }, 'Codec server could not process payloads');
      res.status(400).json({ error: { code: 'codec_error', message: (error as Error).message } });
    }
  };

  const json = express.json({ limit: options.bodyLimit ?? '8mb', type: () => true });
  app.post('/codec/encode', requireToken, json, handler('encode'));
  app.post('/codec/decode', requireToken, json, handler('decode'));
  // Also answer at /encode and /decode, so the endpoint may be given with or without the /codec prefix.
  app.post('/encode', requireToken, json, handler('encode'));
  app.post('/decode', requireToken, json, handler('decode'));

  app.use((_req: Request, res: Response) => {
    res.status(404).json({ error: { code: 'not_found', message: 'Not found' } });
  });
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const typed = error as { type?: string };
    if (typed.type === 'entity.parse.failed') return res.status(400).json({ error: { code: 'invalid_json', message: 'The body is not valid JSON' } });
    if (typed.type === 'entity.too.large') return res.status(413).json({ error: { code: 'too_large', message: 'The body is too large' } });
    return res.status(500).json({ error: { code: 'internal', message: 'Internal error' } });
  });
  return app;
}

export interface RunningCodecServer {
  /** Base URL actually bound, e.g. http://127.0.0.1:8234 (no path). */
  url: string;
  /** What to give the Web UI / CLI as the codec endpoint: `<public or bound URL>/codec`. */
  endpoint: string;
  port: number;
  close(): Promise<void>;
}

/** Starts the codec server for an encryption config with at least one key. */
export async function startCodecServer(
  config: Pick<PayloadEncryptionConfig, 'keys'> & { codecServer: CodecServerConfig },
  options: { logger?: Logger; corsOrigins?: string[] } = {},
): Promise<RunningCodecServer> {
  if (config.keys.length === 0) throw new Error('The codec server needs PAYLOAD_ENCRYPTION_KEYS');
  const server = http.createServer(
    createCodecServer({
      codec: new EncryptionCodec(config.keys),
      corsOrigins: options.corsOrigins ?? config.codecServer.corsOrigins,
      token: config.codecServer.token,
      ...(options.logger ? { logger: options.logger } : {}),
    }),
  );
  const listening = await listen(server, config.codecServer.port, config.codecServer.host, 'http');
  const { url, port } = listening;
  const base = config.codecServer.publicUrl ?? url;
  options.logger?.info({ url }, 'Codec server listening');
  return {
    url,
    endpoint: `${base}/codec`,
    port,
    close: listening.close,
  };
}

/** The `start-dev` arguments that make the dev server's Web UI use the codec server. */
export function devServerCodecArgs(endpoint: string | undefined): string[] {
  return endpoint ? ['--ui-codec-endpoint', endpoint] : [];
}
