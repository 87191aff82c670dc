/**
 * HTTP(S) servers with short limits and JSON answers even for what Node refuses on its own:
 * - headersTimeout / requestTimeout / keepAliveTimeout (HTTP_SERVER_TIMEOUTS), checked often enough to matter (Node
 *   checks them only every 30 s by default), the TLS handshake bounded by the headers timeout, and a connection that
 *   sends nothing at all closed after it too (Node's request timeouts start with the first byte);
 * - a request Node cannot parse (oversize request line or headers: 431; malformed: 400; too slow: 408) is answered
 *   with the JSON error envelope instead of Node's bare status line, then the connection is closed.
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { RequestListener } from 'node:http';

/** The limits of our servers (the receiver, the API, the codec server, the sandbox); tests pass shorter ones. */
export interface HttpServerTimeouts {
  /** The first request's line and headers; also the TLS handshake and the silence before a first request. */
  headersTimeoutMs: number;
  /** The whole request, body included. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection. */
  keepAliveTimeoutMs: number;
}

/**
 * Short, so that a few hundred connections that never finish a request cannot hold a server: every client we serve
 * (the operator, a backend, a browser, Prometheus) sends a small request at once.
 */
export const HTTP_SERVER_TIMEOUTS: Readonly<HttpServerTimeouts> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

/** Node's parser error codes that are the client's fault, and what they get. */
const PARSER_ANSWERS: Record<string, { status: number; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'headers_too_large',
    message: 'The request line or headers are too large',
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    code: 'body_too_large',
    message: 'The chunk extensions are too large',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'request_timeout',
    message: 'The request was not received in time',
  },
};
const MALFORMED = { status: 400, code: 'bad_request', message: 'The request is not valid HTTP' };

function rawJsonResponse(status: number, code: string, message: string): string {
  const body = JSON.stringify({ error: { code, message } });
  return [
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * The 'clientError' listener: a JSON answer when nothing of a response went out yet, then the connection ends. Node
 * calls it again for every later chunk of a connection whose parser failed: only the first call answers. An
 * oversize request is still being sent when we answer, so the connection lingers (reading and dropping input) for
 * at most `lingerMs`, long enough for the client to read the answer instead of a reset.
 */
export function clientErrorListener(
  lingerMs: number,
): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  const answered = new WeakSet<Duplex>();
  return (error, socket) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = (error.code && PARSER_ANSWERS[error.code]) || MALFORMED;
    socket.end(rawJsonResponse(answer.status, answer.code, answer.message));
    if (answer.status === 408) {
      // Too slow is the attack we close on: gone as soon as the answer is written.
      const destroySoon = (socket as Partial<Socket>).destroySoon;
      if (destroySoon) destroySoon.call(socket);
      else socket.destroy();
      return;
    }
    socket.resume();
    setTimeout(() => socket.destroy(), lingerMs).unref();
  };
}

function serverOptions(timeouts: HttpServerTimeouts): http.ServerOptions {
  return {
    headersTimeout: timeouts.headersTimeoutMs,
    requestTimeout: timeouts.requestTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    // How often Node looks for connections past those timeouts: four times per headers timeout, at most 1 s apart.
    connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(timeouts.headersTimeoutMs / 4))),
  };
}

function applyLimits<T extends http.Server>(
  server: T,
  timeouts: HttpServerTimeouts,
  connectionEvent: string,
): T {
  server.on('clientError', clientErrorListener(timeouts.keepAliveTimeoutMs));
  // A connection that never starts a request is not covered by Node's request timeouts: close it after the headers
  // timeout of silence. The first request lifts that limit; keep-alive (Node's own) takes over after each answer.
  server.on(connectionEvent, (socket: Duplex & { setTimeout(ms: number): void }) =>
    socket.setTimeout(timeouts.headersTimeoutMs),
  );
  server.on('request', (req: http.IncomingMessage) => req.socket.setTimeout(0));
  return server;
}

export function createHttpServer(
  app: RequestListener,
  timeouts: HttpServerTimeouts = HTTP_SERVER_TIMEOUTS,
): http.Server {
  return applyLimits(http.createServer(serverOptions(timeouts), app), timeouts, 'connection');
}

export function createHttpsServer(
  tls: { key: string; cert: string },
  app: RequestListener,
  timeouts: HttpServerTimeouts = HTTP_SERVER_TIMEOUTS,
): https.Server {
  const server = https.createServer(
    { ...tls, ...serverOptions(timeouts), handshakeTimeout: timeouts.headersTimeoutMs },
    app,
  );
  return applyLimits(server, timeouts, 'secureConnection');
}
