/**
 * Errors of operator calls, classified for retry policies: a retryable error may succeed if the same call is
 * repeated later (network, timeout, 429, 5xx); a non-retryable one will fail the same way again.
 *
 * Messages never carry request headers; text that comes from the operator passes through the known-secret
 * redaction first, so an operator that echoes a token cannot leak it through us.
 */
import type { OperatorProfile } from '../domain/operator-profile';
import { redactKnownSecrets } from '../secrets/known-secrets';
import { profileSchemas } from './profile-schemas';

export type OperatorErrorCode =
  | 'network_error'
  | 'timeout'
  | 'deadline_passed'
  | 'rate_limited'
  | 'server_error'
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'http_error'
  | 'invalid_request'
  | 'invalid_response'
  | 'too_many_pages';

export interface OperatorErrorOptions {
  operation: string;
  code: string;
  retryable: boolean;
  status?: number;
  /** The operator's own error code, when its body had one. */
  operatorCode?: string;
  cause?: unknown;
}

export class OperatorError extends Error {
  override readonly name: string = 'OperatorError';
  readonly operation: string;
  readonly code: string;
  readonly retryable: boolean;
  readonly status?: number;
  readonly operatorCode?: string;

  constructor(message: string, options: OperatorErrorOptions) {
    super(redactKnownSecrets(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.operation = options.operation;
    this.code = options.code;
    this.retryable = options.retryable;
    if (options.status !== undefined) this.status = options.status;
    if (options.operatorCode !== undefined) this.operatorCode = options.operatorCode;
  }

  /** Plain, secret-free fields for logs and activity failure details. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      operation: this.operation,
      code: this.code,
      retryable: this.retryable,
      status: this.status,
      operatorCode: this.operatorCode,
    };
  }
}

/** A 2xx response whose body does not match the schema we rely on. Not retryable: the same call returns the same body. */
export class OperatorResponseError extends OperatorError {
  override readonly name: string = 'OperatorResponseError';
  /** Where the body differed from the schema (paths and messages only, never values). */
  readonly issues: readonly string[];

  constructor(operation: string, status: number, issues: readonly string[]) {
    super(`operator ${operation} returned an unexpected body (HTTP ${status}): ${issues.join('; ')}`, {
      operation,
      status,
      code: 'invalid_response',
      retryable: false,
    });
    this.issues = issues;
  }
}

/** Our own input failed validation before any HTTP call was made. Never retryable. */
export class OperatorValidationError extends OperatorError {
  override readonly name: string = 'OperatorValidationError';
  readonly issues: readonly string[];

  constructor(operation: string, issues: readonly string[]) {
    super(`invalid ${operation} request: ${issues.join('; ')}`, {
      operation,
      code: 'invalid_request',
      retryable: false,
    });
    this.issues = issues;
  }
}

/** What the other statuses mean in HTTP; a refused token, a refused CSRF value and a 404 are the profile's. */
const STATUS_CODES: Record<number, OperatorErrorCode> = {
  400: 'bad_request',
  409: 'conflict',
  422: 'unprocessable',
  429: 'rate_limited',
};

/** 408 and 429 are the operator asking us to come back later; every 5xx is its own fault. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The profile's statuses first (a refused token, a refused CSRF value, an unknown resource), then HTTP's meaning. */
function codeForStatus(profile: OperatorProfile, status: number): OperatorErrorCode {
  const { statuses } = profile.errors;
  if (status === statuses.unauthenticated) return 'unauthenticated';
  if (status === statuses.csrf) return 'forbidden';
  if (status === statuses.notFound) return 'not_found';
  if (status >= 500) return 'server_error';
  if (status === 408) return 'timeout';
  return STATUS_CODES[status] ?? 'http_error';
}

/** Longest operator message we repeat; a huge HTML error page is not a message. */
const MAX_OPERATOR_MESSAGE = 300;

/**
 * Builds the error for a non-2xx response from whatever body came back (the profile's error body, other JSON, text,
 * nothing).
 */
export function errorFromResponse(
  profile: OperatorProfile,
  operation: string,
  status: number,
  body: unknown,
): OperatorError {
  const parsed = profileSchemas(profile).errorBody.safeParse(body);
  const operatorCode = parsed.success ? parsed.data.code : undefined;
  const operatorMessage = parsed.success ? parsed.data.message.slice(0, MAX_OPERATOR_MESSAGE) : undefined;
  const detail = operatorCode ? `: ${operatorCode}${operatorMessage ? ` - ${operatorMessage}` : ''}` : '';
  return new OperatorError(`operator ${operation} failed with HTTP ${status}${detail}`, {
    operation,
    status,
    code: codeForStatus(profile, status),
    retryable: isRetryableStatus(status),
    ...(operatorCode ? { operatorCode } : {}),
  });
}

/** The calls a session makes to log in on behalf of another. */
const LOGIN_OPERATIONS: ReadonlySet<string> = new Set(['startSession', 'authenticate']);

/**
 * Whether an error of a call of `operation` shows that the operator never carried that call out, and how: refused
 * here (invalid), never sent (its deadline passed, or the login it waited for failed), or its session refused
 * (`unauthenticated`: the session sends such a call again after logging in, which is safe only because a refused
 * call was not carried out). Undefined when it may have been carried out (a timeout, a 5xx, a network error, any
 * other answer).
 */
export function notCarriedOut(error: unknown, operation: string): string | undefined {
  if (!(error instanceof OperatorError)) return undefined;
  if (LOGIN_OPERATIONS.has(error.operation)) return `${error.operation}: ${error.code}`;
  if (error.operation !== operation) return undefined;
  const neverSent = error.code === 'deadline_passed' || error.code === 'invalid_request';
  return neverSent || error.code === 'unauthenticated' ? `${operation}: ${error.code}` : undefined;
}

/** A request not sent because its caller's deadline had passed: nothing reached the operator. */
export function deadlinePassed(operation: string): OperatorError {
  return new OperatorError(`operator ${operation} not sent: its deadline had passed`, {
    operation,
    code: 'deadline_passed',
    retryable: true,
  });
}

/** A fetch that never produced a response: timeout (our AbortSignal.timeout) or network failure. */
export function errorFromFetchFailure(operation: string, failure: unknown, timeoutMs: number): OperatorError {
  // Duck-typed: the DOMException of AbortSignal.timeout may come from another realm (jest, vm), failing instanceof.
  const { name, message, cause } = (typeof failure === 'object' && failure !== null ? failure : {}) as {
    name?: unknown;
    message?: unknown;
    cause?: unknown;
  };
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new OperatorError(`operator ${operation} timed out after ${timeoutMs} ms`, {
      operation,
      code: 'timeout',
      retryable: true,
    });
  }
  // undici puts the useful part (ECONNREFUSED, ENOTFOUND...) in the cause; neither carries request headers.
  const causeMessage =
    typeof cause === 'object' && cause !== null ? (cause as { message?: unknown }).message : undefined;
  const reason =
    typeof causeMessage === 'string'
      ? causeMessage
      : typeof message === 'string'
        ? message
        : 'unknown network failure';
  return new OperatorError(`operator ${operation} network error: ${reason}`, {
    operation,
    code: 'network_error',
    retryable: true,
  });
}

/**
 * Whether repeating the call may help. Unknown errors count as retryable (a bug surfaces after the retry
 * budget), except our own validation and response-shape errors, which are marked non-retryable.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof OperatorError) return error.retryable;
  return true;
}
