/** Waiting for a ramp of either direction to end, and its final view. */
import { offRampWorkflowId, onRampWorkflowId } from '../domain/ids';
import type { OffRampView, OnRampView } from '../ledger/views';
import { parseIdentifier, parseOrderReference } from '../validation/identifiers';
import type { ClientContext } from './context';
import { getOffRamp } from './off-ramp';
import { getOnRamp } from './on-ramp';

export type RampTarget = { orderReference: string } | { depositTransactionId: string };

/** How often the ledger is read while waiting: an end is seen within this, and each read is one indexed lookup. */
const OUTCOME_POLL_MS = 200;

/** Raised by waitForOutcome when the ramp has not ended in time; `state` is how it stood. */
export class OutcomeTimeoutError extends Error {
  override readonly name = 'OutcomeTimeoutError';
  constructor(
    message: string,
    readonly workflowId: string,
    readonly state: OnRampView | OffRampView | undefined,
  ) {
    super(message);
  }
}

/**
 * Waits until the ramp has ended (settled, failed, expired, timed out) and answers its final view; after
 * `timeoutMs` (default 60 s) it throws OutcomeTimeoutError. NotFoundError for an unknown ramp.
 */
export async function waitForOutcome(
  context: ClientContext,
  target: RampTarget,
  options: { timeoutMs?: number } = {},
): Promise<OnRampView | OffRampView> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const read = () =>
    'orderReference' in target
      ? getOnRamp(context, target.orderReference)
      : getOffRamp(context, target.depositTransactionId);
  // Validates the target and answers NotFoundError before waiting.
  let last = await read();
  while (!last.endedAt) {
    if (Date.now() >= deadline) {
      const workflowId =
        'orderReference' in target
          ? onRampWorkflowId(parseOrderReference(target.orderReference))
          : offRampWorkflowId(parseIdentifier(target.depositTransactionId, 'deposit transaction ID'));
      throw new OutcomeTimeoutError(
        `${workflowId} had not ended after ${options.timeoutMs ?? 60_000} ms`,
        workflowId,
        last,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, OUTCOME_POLL_MS));
    last = await read();
  }
  return last;
}
