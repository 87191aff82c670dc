/**
 * Every error the API answers is JSON: `{ error: { code, message, issues? } }` (src/http/errors.ts). A 4xx is the
 * caller's mistake, a 5xx ours, the operator's or Temporal's. Internal failures answer a generic message (details
 * go to the log, never to the caller).
 */
import {
  QueryRejectedError,
  ServiceError,
  WorkflowFailedError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../database/errors';
import type { z } from 'zod';
import {
  ClaimWindowClosedError,
  ConflictError,
  InvalidInputError,
  NotFoundError,
  ProcessEndedError,
  QuoteExpiredError,
} from '../client/errors';
import { formatIssues } from '../domain/errors';
import {
  type ErrorAnswer,
  isTemporalUnavailable,
  jsonErrorHandler,
  sendError,
  temporalUnavailableAnswer,
} from '../http/errors';

export { sendError };

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

/** Parses input with a zod schema or throws a 400 listing every issue. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new ApiError(400, 'invalid_input', `Invalid ${what}`, formatIssues(result.error.issues));
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

/** @param temporalTimeoutMs the deadline of the routes' Temporal calls, for Retry-After when it passed. */
export function errorHandler(logger: Logger, temporalTimeoutMs: number): ErrorRequestHandler {
  const classify = (error: unknown): ErrorAnswer | undefined => {
    if (error instanceof ApiError)
      return {
        status: error.status,
        code: error.code,
        message: error.message,
        ...(error.issues ? { issues: error.issues } : {}),
      };
    if (error instanceof InvalidInputError)
      return { status: 400, code: 'invalid_input', message: error.message, issues: error.issues };
    if (error instanceof NotFoundError) return { status: 404, code: 'not_found', message: error.message };
    if (error instanceof QuoteExpiredError)
      return { status: 409, code: 'quote_expired', message: error.message };
    if (error instanceof ProcessEndedError)
      return { status: 409, code: 'process_ended', message: error.message };
    if (error instanceof ClaimWindowClosedError)
      return { status: 409, code: 'claim_window_closed', message: error.message };
    if (error instanceof ConflictError) return { status: 409, code: 'conflict', message: error.message };
    const type = failureType(error);
    if (type === 'OperatorRejected' || type === 'InvalidInput') {
      return { status: 422, code: 'operator_rejected', message: 'The operator rejected the request' };
    }
    if (type) {
      logger.warn({ type }, 'API request failed');
      return {
        status: 502,
        code: 'upstream_failed',
        message: `The request could not be completed (${type}); it can be retried`,
      };
    }
    if (isTemporalUnavailable(error)) {
      logger.warn({ err: { name: (error as Error).name } }, 'Temporal did not answer an API request in time');
      return temporalUnavailableAnswer(temporalTimeoutMs);
    }
    if (isDatabaseUnavailable(error)) {
      logger.warn({ err: { name: (error as Error).name } }, 'The database did not answer an API request');
      return {
        status: 503,
        code: 'temporarily_unavailable',
        message: 'The database did not answer; retry later',
        retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
      };
    }
    if (
      error instanceof WorkflowFailedError ||
      error instanceof WorkflowUpdateFailedError ||
      error instanceof ServiceError ||
      error instanceof QueryRejectedError
    ) {
      // Temporal or a workflow failed without an operator verdict (timeout, rejected query): retryable.
      logger.warn({ err: { name: error.name, message: error.message } }, 'API request failed upstream');
      return {
        status: 502,
        code: 'upstream_failed',
        message: 'The request could not be completed; it can be retried',
      };
    }
    return undefined;
  };
  return jsonErrorHandler({ logger, component: 'API', classify });
}
