/** Input the typed client refuses before anything reaches Temporal or the operator (defined with its rules). */
export { InvalidInputError } from '../validation/errors';

/** The caller asked about something that does not exist (an unknown end user, process or order reference). */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

/** A quote past its expiresAt (or too close to it to be useful): never shown as valid; request a new one. */
export class QuoteExpiredError extends Error {
  override readonly name = 'QuoteExpiredError';
  constructor(
    message: string,
    readonly expiresAt: string,
  ) {
    super(message);
  }
}

/**
 * The process has already ended and is never run again (one run per process ID): the call cannot change it.
 * `status` is how it ended.
 */
export class ProcessEndedError extends Error {
  override readonly name = 'ProcessEndedError';
  constructor(
    message: string,
    readonly workflowId: string,
    readonly status: string | null,
  ) {
    super(message);
  }
}

/** The call contradicts what the process already holds (e.g. another end user for an order reference). */
export class ConflictError extends Error {
  override readonly name: string = 'ConflictError';
}

/**
 * startOnRamp for an on-ramp that ended without an end user and was not claimed within its claim window: it closed
 * `unclaimed` and `incident` (the key in GET /v1/alerts) holds it for the operations team.
 */
export class ClaimWindowClosedError extends ConflictError {
  override readonly name: string = 'ClaimWindowClosedError';
  constructor(
    message: string,
    readonly incident: string,
  ) {
    super(message);
  }
}
