/**
 * Request logs for the receiver and the API (pino-http through the product's logger, so the same redaction
 * applies). A line carries method, path, status and duration, never headers or bodies: the API key travels in
 * a header, and the receiver's path segment after /webhooks/<kind>/ is the delivery credential, so it is
 * replaced before the line is written. Health probes (every few seconds from the orchestrator) are not logged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';

const QUIET_PATHS = new Set(['/healthz', '/readyz']);

/** The request path fit for a log line: no query string, and no secret segment of a webhook recipient URL. */
export function loggablePath(url: string | undefined): string {
  const pathOnly = (url ?? '/').split('?')[0]!;
  return pathOnly.replace(/^(\/webhooks\/(?:transactions|orders))\/[^/]+/, '$1/[REDACTED]');
}

export function requestLogger(logger: Logger): HttpLogger {
  return pinoHttp({
    logger,
    autoLogging: { ignore: (req) => QUIET_PATHS.has(loggablePath(req.url)) },
    customLogLevel: (_req, res, error) =>
      error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    serializers: {
      req: (req: IncomingMessage & { id?: unknown; originalUrl?: string }) => ({
        id: req.id,
        method: req.method,
        url: loggablePath(req.originalUrl ?? req.url),
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
  });
}
