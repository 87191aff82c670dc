/** Waiting for a ramp of either direction to end, and its final state. */
import { offRampWorkflowId, onRampWorkflowId } from '../domain/ids';
import { parseIdentifier, parseOrderReference } from '../validation/identifiers';
import type { OffRampState } from '../../workflows/ramps/offramp/types';
import type { OnRampState } from '../../workflows/ramps/onramp/types';
import type { ClientContext } from './context';
import { getOffRamp } from './off-ramp';
import { getOnRamp } from './on-ramp';

export type RampTarget = { orderReference: string } | { depositTransactionId: string };

/** Raised by waitForOutcome when the ramp has not ended in time; `state` is how it stood. */
export class OutcomeTimeoutError extends Error {
  override readonly name = 'OutcomeTimeoutError';
  constructor(
    message: string,
    readonly workflowId: string,
    readonly state: OnRampState | OffRampState | undefined,
  ) {
    super(message);
  }
}

/**
 * Waits until the ramp has ended (settled, failed, expired, timed out) and answers its final state; after
 * `timeoutMs` (default 60 s) it throws OutcomeTimeoutError. NotFoundError for an unknown ramp.
 */
export async function waitForOutcome(
  context: ClientContext,
  target: RampTarget,
  options: { timeoutMs?: number } = {},
): Promise<OnRampState | OffRampState> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const read = () =>
    'orderReference' in target
      ? getOnRamp(context, target.orderReference)
      : getOffRamp(context, target.depositTransactionId);
  // Validates the target and answers NotFoundError before waiting.
  const first = await read();
  const workflowId =
    'orderReference' in target
      ? onRampWorkflowId(parseOrderReference(target.orderReference))
      : offRampWorkflowId(parseIdentifier(target.depositTransactionId, 'deposit transaction ID'));
  if (first.endedAt) return first;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    await context.temporal.withAbortSignal(controller.signal, () =>
      context.temporal.workflow.getHandle(workflowId).result(),
    );
  } catch {
    if (controller.signal.aborted) {
      const last = await read().catch(() => undefined);
      if (last?.endedAt) return last;
      throw new OutcomeTimeoutError(`${workflowId} had not ended after ${timeoutMs} ms`, workflowId, last);
    }
    // Closed without a result (terminated, cancelled): its last state is still its outcome.
  } finally {
    clearTimeout(timer);
  }
  return read();
}
