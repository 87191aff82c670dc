/**
 * Values quoted into Temporal visibility queries (`RampWalletId = '<value>'`, `TaskQueue = '<value>'`). The query
 * language has no parameters, so a value is checked, never escaped: only characters that cannot end the quoted
 * string or start another clause are accepted.
 */
import { ApplicationFailure } from '@temporalio/common';

const VISIBILITY_LITERAL = /^[A-Za-z0-9._:@/-]{1,200}$/;

/** True when `value` may stand between single quotes in a visibility query. */
export function isVisibilityLiteral(value: string): boolean {
  return VISIBILITY_LITERAL.test(value);
}

/**
 * `value`, checked to stand safely between single quotes in a visibility query; otherwise a non-retryable
 * `InvalidInput` failure naming `what` (never the value).
 */
export function visibilityLiteral(value: string, what: string): string {
  if (!isVisibilityLiteral(value)) {
    throw ApplicationFailure.create({
      type: 'InvalidInput',
      message: `${what} has characters a visibility query cannot carry`,
      nonRetryable: true,
    });
  }
  return value;
}
