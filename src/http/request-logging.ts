/**
 * Request logs for the receiver and the API, through the product's logger (so the same redaction applies). A line
 * carries method, path, status and duration, never headers or bodies: the API key travels in a header, and the
 * receiver's path segment after /webhooks/<kind>/ is the delivery credential, so it is replaced before the line is
 * written. Health probes (every few seconds from the orchestrator) are not logged.
 *
 * No child logger or serializer runs per request: a line whose level is off (2xx under `npm start`'s warn) costs one
 * level check, which matters on the receiver's hot path (bench/receiver-breakdown.ts).
 */
import { performance } from 'node:perf_hooks';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Level, Logger } from 'pino';

const QUIET_PATHS = new Set(['/healthz', '/readyz']);

/** The request path fit for a log line: no query string, and no secret segment of a webhook recipient URL. */
export function loggablePath(url: string | undefined): string {
  const pathOnly = (url ?? '/').split('?')[0]!;
  return pathOnly.replace(/^(\/webhooks\/(?:transactions|orders))\/[^/]+/, '$1/[REDACTED]');
}

const levelOf = (statusCode: number): Level =>
  statusCode >= 500 ? 'error' : statusCode >= 400 ? 'warn' : 'info';

export function requestLogger(logger: Logger): RequestHandler {
  let requests = 0;
  return (req: Request, res: Response, next: NextFunction) => {
    const id = ++requests;
    const startedAt = performance.now();
    const write = (level: Level, message: string) => {
      if (!logger.isLevelEnabled(level)) return;
      const url = loggablePath(req.originalUrl);
      if (QUIET_PATHS.has(url)) return;
      logger[level](
        {
          req: { id, method: req.method, url },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - startedAt),
        },
        message,
      );
    };
    res.once('finish', () => write(levelOf(res.statusCode), 'request completed'));
    res.once('close', () => {
      if (!res.writableFinished) write('warn', 'request aborted');
    });
    next();
  };
}
