/**
 * The one error envelope of our HTTP servers (API, webhook receiver, codec server): every error is JSON
 * `{ error: { code, message, issues? } }`, and a 4xx means the request was wrong while a 5xx means our side or
 * Temporal failed, never the input.
 *
 * `clientErrorOf` is the one mapping of the failures express, body-parser and Node raise on their own for a bad
 * request (malformed JSON, too large, unknown content encoding or charset, a corrupt compressed body, a malformed
 * percent-encoding in the path, any http-errors 4xx). Messages are fixed texts: they never repeat the request
 * (body-parser's and the router's own messages do).
 */
import { isGrpcServiceError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import type { ErrorRequestHandler, Response } from 'express';
import type { Logger } from 'pino';

export interface ErrorAnswer {
  status: number;
  code: string;
  message: string;
  issues?: string[];
  /** Sent as Retry-After (seconds). */
  retryAfterSeconds?: number;
}

export function sendError(
  res: Response,
  status: number,
  code: string,
  message: string,
  issues?: string[],
): void {
  res.status(status).json({ error: { code, message, ...(issues && issues.length > 0 ? { issues } : {}) } });
}

export function sendAnswer(res: Response, answer: ErrorAnswer): void {
  if (answer.retryAfterSeconds !== undefined) res.setHeader('retry-after', String(answer.retryAfterSeconds));
  sendError(res, answer.status, answer.code, answer.message, answer.issues);
}

const STATUS_ANSWERS: Record<number, Omit<ErrorAnswer, 'status'>> = {
  400: { code: 'bad_request', message: 'The request is malformed' },
  403: { code: 'forbidden', message: 'The request is not allowed' },
  404: { code: 'not_found', message: 'Not found' },
  405: { code: 'method_not_allowed', message: 'Method not allowed' },
  408: { code: 'request_timeout', message: 'The request was not received in time' },
  411: { code: 'length_required', message: 'The request needs a Content-Length' },
  413: { code: 'body_too_large', message: 'The request body is too large' },
  414: { code: 'uri_too_long', message: 'The request URL is too long' },
  415: { code: 'unsupported_media_type', message: 'Unsupported request media type' },
  431: { code: 'headers_too_large', message: 'The request line or headers are too large' },
};

/** The answer to a request failure that is the client's own mistake, or undefined when it is not one. */
export function clientErrorOf(error: unknown): ErrorAnswer | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const fields = error as { type?: unknown; status?: unknown; statusCode?: unknown; code?: unknown };
  switch (fields.type) {
    case 'entity.parse.failed':
      return { status: 400, code: 'malformed_json', message: 'The request body is not valid JSON' };
    case 'entity.too.large':
      return { status: 413, code: 'body_too_large', message: 'The request body is too large' };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return {
        status: 415,
        code: 'unsupported_encoding',
        message: 'Unsupported request content encoding or charset',
      };
    case 'request.aborted':
    case 'request.size.invalid':
      return {
        status: 400,
        code: 'incomplete_body',
        message: 'The request body does not match its Content-Length',
      };
    default:
      break;
  }
  if (error instanceof URIError) {
    return { status: 400, code: 'malformed_uri', message: 'The request path is not valid percent-encoding' };
  }
  const status =
    typeof fields.status === 'number'
      ? fields.status
      : typeof fields.statusCode === 'number'
        ? fields.statusCode
        : NaN;
  if (!(status >= 400 && status < 500)) return undefined;
  // A body that says it is gzip or deflate but does not inflate (zlib's Z_* codes, wrapped in a 400 by body-parser).
  if (typeof fields.code === 'string' && fields.code.startsWith('Z_')) {
    return { status: 400, code: 'malformed_body', message: 'The request body could not be decompressed' };
  }
  return { status, ...(STATUS_ANSWERS[status] ?? STATUS_ANSWERS[400]!) };
}

// ---------------------------------------------------------------------------------------------- Temporal

/**
 * The deadline of the Temporal calls behind the API's routes, /metrics and the alerts: a healthy server answers in
 * milliseconds, and a caller told 503 with Retry-After does better than one left waiting.
 */
export const HTTP_TEMPORAL_TIMEOUT_MS = 5_000;

/** A Temporal call behind an HTTP endpoint that did not finish within its deadline. */
export class TemporalDeadlineError extends Error {
  override readonly name = 'TemporalDeadlineError';
  constructor(readonly timeoutMs: number) {
    super(`Temporal did not answer within ${timeoutMs} ms`);
  }
}

/** gRPC status codes DEADLINE_EXCEEDED and UNAVAILABLE. */
const UNREACHABLE_CODES: ReadonlySet<number> = new Set([4, 14]);

/** True when `error` (or a cause of it) says Temporal could not be reached in time, rather than refusing the call. */
export function isTemporalUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 10; depth += 1) {
    if (
      current instanceof TemporalDeadlineError ||
      current instanceof WorkflowUpdateRPCTimeoutOrCancelledError
    )
      return true;
    if (isGrpcServiceError(current) && UNREACHABLE_CODES.has(Number(current.code))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** 503 with Retry-After: Temporal did not answer in time; the same request may succeed later. */
export function temporalUnavailableAnswer(timeoutMs: number): ErrorAnswer {
  return {
    status: 503,
    code: 'temporarily_unavailable',
    message: 'Temporal did not answer in time; retry later',
    retryAfterSeconds: Math.max(1, Math.ceil(timeoutMs / 1000)),
  };
}

/**
 * Runs `fn` (which calls Temporal) with a deadline: its gRPC calls get it through `withDeadline` when `temporal` is
 * given, and the answer is a TemporalDeadlineError once it passes, whatever the calls do.
 */
export async function withTemporalDeadline<T>(
  timeoutMs: number,
  fn: () => Promise<T>,
  temporal?: { withDeadline<R>(deadline: number | Date, fn: () => Promise<R>): Promise<R> },
): Promise<T> {
  const call = temporal ? temporal.withDeadline(Date.now() + timeoutMs, fn) : fn();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TemporalDeadlineError(timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([call, deadline]);
  } finally {
    clearTimeout(timer);
    // The call may still fail after the deadline answered: that failure has nobody left to tell.
    call.catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------- express

export interface JsonErrorHandlerOptions {
  logger?: Logger | undefined;
  /** Where the log line comes from, e.g. 'API'. */
  component: string;
  /** The app's own answers (its error classes, Temporal unavailable); asked first, then the client errors. */
  classify?: (error: unknown) => ErrorAnswer | undefined;
}

/** The last middleware of an app: the app's own answers, then client errors, then a generic 500 (details logged). */
export function jsonErrorHandler(options: JsonErrorHandlerOptions): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent) {
      // Half an answer is out: the only honest thing left is to cut the connection.
      req.socket.destroy();
      return;
    }
    const answer = options.classify?.(error) ?? clientErrorOf(error);
    if (answer) return sendAnswer(res, answer);
    // Name and message only: never the request, its headers or its URL (the receiver's carries a secret).
    options.logger?.error(
      { method: req.method, err: { name: (error as Error)?.name, message: (error as Error)?.message } },
      `${options.component} request failed unexpectedly`,
    );
    return sendError(res, 500, 'internal_error', 'Internal error');
  };
}
