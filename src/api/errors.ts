/**
 * Every error the API answers is JSON: `{ error: { code, message, issues? } }`. Internal failures answer a
 * generic message (details go to the log, never to the caller).
 */
import { QueryRejectedError, ServiceError, WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { ConflictError, InvalidInputError, NotFoundError, ProcessEndedError, QuoteExpiredError } from '../client/errors';
import { zodIssues } from '../client/quote-input';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: string[],
  ) {
    super(message);
  }
}

export function sendError(res: Response, status: number, code: string, message: string, issues?: string[]): void {
  res.status(status).json({ error: { code, message, ...(issues && issues.length > 0 ? { issues } : {}) } });
}

/** Parses input with a zod schema or throws a 400 listing every issue. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiError(400, 'invalid_input', `Invalid ${what}`, zodIssues(result.error));
  return result.data;
}

export const notFoundRoute: RequestHandler = (req, res) => {
  sendError(res, 404, 'not_found', `No route ${req.method} ${req.path}`);
};

/** The failure type a workflow update or workflow raised (ApplicationFailure.type), if any. */
function failureType(error: unknown): string | undefined {
  if (error instanceof WorkflowUpdateFailedError || error instanceof WorkflowFailedError) {
    let cause: unknown = error.cause;
    while (cause) {
      if (cause instanceof ApplicationFailure && cause.type) return cause.type;
      cause = (cause as { cause?: unknown }).cause;
    }
  }
  return undefined;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const bodyParserType = (error as { type?: unknown }).type;
    if (bodyParserType === 'entity.parse.failed') return sendError(res, 400, 'malformed_json', 'The request body is not valid JSON');
    if (bodyParserType === 'entity.too.large') return sendError(res, 413, 'body_too_large', 'The request body is too large');
    if (typeof bodyParserType === 'string' && (bodyParserType.startsWith('encoding.') || bodyParserType === 'charset.unsupported'))
      return sendError(res, 415, 'unsupported_encoding', 'Unsupported request encoding or charset');
    if (error instanceof ApiError) return sendError(res, error.status, error.code, error.message, error.issues);
    if (error instanceof InvalidInputError) return sendError(res, 400, 'invalid_input', error.message, error.issues);
    if (error instanceof NotFoundError) return sendError(res, 404, 'not_found', error.message);
    if (error instanceof QuoteExpiredError) return sendError(res, 409, 'quote_expired', error.message);
    if (error instanceof ProcessEndedError) return sendError(res, 409, 'process_ended', error.message);
    if (error instanceof ConflictError) return sendError(res, 409, 'conflict', error.message);
    const type = failureType(error);
    if (type === 'OperatorRejected' || type === 'InvalidInput') {
      return sendError(res, 422, 'operator_rejected', 'The operator rejected the request');
    }
    if (type) {
      logger.warn({ method: req.method, path: req.route ? String((req.route as { path?: unknown }).path) : req.path, type }, 'API request failed');
      return sendError(res, 502, 'upstream_failed', `The request could not be completed (${type}); it can be retried`);
    }
    if (error instanceof WorkflowFailedError || error instanceof WorkflowUpdateFailedError || error instanceof ServiceError || error instanceof QueryRejectedError) {
      // Temporal or a workflow failed without an operator verdict (timeout, unavailable, rejected query): retryable.
      logger.warn({ method: req.method, err: error }, 'API request failed upstream');
      return sendError(res, 502, 'upstream_failed', 'The request could not be completed; it can be retried');
    }
    logger.error({ method: req.method, err: error }, 'API request failed unexpectedly');
    return sendError(res, 500, 'internal_error', 'Internal error');
  };
}
