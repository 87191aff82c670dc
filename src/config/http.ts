/**
 * Limits shared by our HTTP servers (the receiver, the API, the codec server, the sandbox):
 * - HTTP_HEADERS_TIMEOUT (10s): a connection must send its first request's line and headers within this (also the
 *   TLS handshake's limit, and how long a connection may sit idle before its first request);
 * - HTTP_REQUEST_TIMEOUT (30s): the whole request, body included, must arrive within this;
 * - HTTP_KEEP_ALIVE_TIMEOUT (5s): an idle keep-alive connection is closed after this;
 * - HTTP_TEMPORAL_TIMEOUT (5s): the deadline of every Temporal call behind an API route, /metrics and the alerts
 *   (past it the answer is 503 with Retry-After). The receiver's hand-off has RECEIVER_TEMPORAL_TIMEOUT, /readyz's
 *   checks READINESS_TIMEOUT.
 * Short by default, so that a few hundred connections that never finish a request cannot hold a server.
 */
import { z } from 'zod';
import { durationMs } from './duration';
import { type Env, parseSection } from './env';

const positive = (defaultText: string) =>
  durationMs(defaultText).pipe(z.number().int().min(1, 'must be more than 0'));

const httpEnv = z
  .object({
    HTTP_HEADERS_TIMEOUT: positive('10s'),
    HTTP_REQUEST_TIMEOUT: positive('30s'),
    HTTP_KEEP_ALIVE_TIMEOUT: positive('5s'),
    HTTP_TEMPORAL_TIMEOUT: positive('5s'),
  })
  .refine((raw) => raw.HTTP_HEADERS_TIMEOUT <= raw.HTTP_REQUEST_TIMEOUT, {
    message: 'must not be longer than HTTP_REQUEST_TIMEOUT',
    path: ['HTTP_HEADERS_TIMEOUT'],
  });

export interface HttpServerTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

export interface HttpConfig {
  timeouts: HttpServerTimeouts;
  temporalTimeoutMs: number;
}

export function loadHttpConfig(env: Env): HttpConfig {
  const raw = parseSection('HTTP', httpEnv, env);
  return {
    timeouts: {
      headersTimeoutMs: raw.HTTP_HEADERS_TIMEOUT,
      requestTimeoutMs: raw.HTTP_REQUEST_TIMEOUT,
      keepAliveTimeoutMs: raw.HTTP_KEEP_ALIVE_TIMEOUT,
    },
    temporalTimeoutMs: raw.HTTP_TEMPORAL_TIMEOUT,
  };
}
