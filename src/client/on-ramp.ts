/**
 * onramp/<reference>: an on-ramp, started (or attributed to its end user) by the client's backend, and read by its
 * order reference.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { onRampWorkflowId, WORKFLOW_TYPES } from '../domain/ids';
import { signalWithStartProcess } from '../temporal/process-start';
import { parseEndUserId, parseOrderReference } from '../validation/identifiers';
import type { QuoteRequestInput, QuoteResult } from '../../workflows/quote/types';
import { onRampAttributionSignal, onRampStateQuery } from '../../workflows/ramps/onramp/messages';
import type { onRampWorkflow } from '../../workflows/ramps/onramp/workflow';
import type { OnRampAttribution, OnRampQuoteShown, OnRampState } from '../../workflows/ramps/onramp/types';
import { type ClientContext, searchValueField } from './context';
import { incidentKey } from '../../workflows/operations/alerts/incidents';
import { ClaimWindowClosedError, ConflictError, NotFoundError } from './errors';
import { quote } from './quote';
import { parseQuoteRequest } from './quote-input';

export interface StartOnRampOptions {
  quote?: QuoteResult | OnRampQuoteShown;
  quoteRequest?: QuoteRequestInput;
}

/** What startOnRamp answers: the process, the quote it shows, and its state right after the call. */
export interface OnRampStart {
  workflowId: string;
  quote?: OnRampQuoteShown;
  /** True when this call started the on-ramp or attributed it to the end user before it ended. */
  created: boolean;
  /** True when this call named the end user of an on-ramp that had ended without one (a late claim). */
  claimed: boolean;
  state: OnRampState;
}

export async function startOnRamp(
  context: ClientContext,
  endUserId: string,
  reference: string,
  options: StartOnRampOptions = {},
): Promise<OnRampStart> {
  const id = parseEndUserId(endUserId);
  const orderReference = parseOrderReference(reference);
  if (options.quoteRequest) parseQuoteRequest({ ...options.quoteRequest, direction: 'on-ramp' });
  const workflowId = onRampWorkflowId(orderReference);
  const existing = await findOnRamp(context, orderReference);
  if (existing) {
    assertSameEndUser(existing, id);
    // Already this user's: the same call again answers the process as it is (no new quote, no signal), unless
    // it still lacks the quote this call brings.
    const bringsQuote = !!(options.quote || options.quoteRequest);
    if (existing.endUserId === id && (existing.quote || !bringsQuote || existing.endedAt))
      return answer(workflowId, existing, { created: false, claimed: false });
  }
  // A claim of an ended on-ramp brings no quote: its order executed (or not) without one.
  const shown = existing?.endedAt ? undefined : await quoteToShow(context, options);
  const delivered = await attribute(context, orderReference, id, shown);
  // Read after the signal (a query sees every signal accepted before it): the first end user wins, so another
  // caller may have attributed the process in between.
  const state = await queryNewOnRamp(context, orderReference);
  if (!delivered) {
    // An on-ramp runs once: a repeated call for the same end user answers the process as it ended.
    assertSameEndUser(state, id, true);
    return answer(workflowId, state, { created: false, claimed: false });
  }
  assertSameEndUser(state, id);
  const named = existing?.endUserId !== id;
  const claimed = named && !!existing?.endedAt;
  return answer(workflowId, state, { created: named && !claimed, claimed });
}

export async function getOnRamp(context: ClientContext, reference: string): Promise<OnRampState> {
  const orderReference = parseOrderReference(reference);
  try {
    return await context.temporal.workflow
      .getHandle(onRampWorkflowId(orderReference))
      .query(onRampStateQuery);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError)
      throw new NotFoundError(`No on-ramp for order reference ${orderReference}`);
    throw error;
  }
}

/** The on-ramp of a checked order reference, or undefined when there is none yet. */
async function findOnRamp(context: ClientContext, orderReference: string): Promise<OnRampState | undefined> {
  return getOnRamp(context, orderReference).catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  });
}

/** The quote the call brings, as the process records it: asked for now (`quoteRequest`) or shown earlier (`quote`). */
async function quoteToShow(
  context: ClientContext,
  options: StartOnRampOptions,
): Promise<OnRampQuoteShown | undefined> {
  const given = options.quoteRequest
    ? await quote(context, { ...options.quoteRequest, direction: 'on-ramp' })
    : options.quote;
  if (!given) return undefined;
  return {
    targetAmount: given.targetAmount,
    expiresAt: given.expiresAt,
    ...(given.amountFrom ? { amountFrom: given.amountFrom } : {}),
    ...(given.coinTo ? { coinTo: given.coinTo } : {}),
    ...(given.chainTo ? { chainTo: given.chainTo } : {}),
  };
}

/**
 * Starts the on-ramp or signals its attribution to the end user (signal-with-start); false when the on-ramp had
 * already ended, so the signal was not delivered.
 */
async function attribute(
  context: ClientContext,
  orderReference: string,
  endUserId: string,
  shown: OnRampQuoteShown | undefined,
): Promise<boolean> {
  const quoteField = shown ? { quote: shown } : {};
  const outcome = await signalWithStartProcess<typeof onRampWorkflow, [OnRampAttribution]>(
    context.temporal,
    WORKFLOW_TYPES.onRamp,
    {
      workflowId: onRampWorkflowId(orderReference),
      taskQueue: context.taskQueue,
      args: [
        {
          orderReference,
          endUserId,
          ...searchValueField(context, endUserId),
          timings: context.timings,
          ...quoteField,
        },
      ],
      signal: onRampAttributionSignal,
      signalArgs: [{ endUserId, ...searchValueField(context, endUserId), ...quoteField }],
    },
  );
  return outcome.delivered;
}

function answer(
  workflowId: string,
  state: OnRampState,
  how: Pick<OnRampStart, 'created' | 'claimed'>,
): OnRampStart {
  return { workflowId, ...(state.quote ? { quote: state.quote } : {}), ...how, state };
}

/**
 * Refuses an on-ramp the end user cannot have: another end user's; one that closed unclaimed (naming its
 * incident); one that ended without an end user and cannot be claimed (`ended`: it has closed).
 */
function assertSameEndUser(state: OnRampState, endUserId: string, ended = !!state.endedAt): void {
  if (state.endUserId === endUserId) return;
  const { orderReference } = state;
  if (state.endUserId !== null)
    throw new ConflictError(`The on-ramp of order reference ${orderReference} belongs to another end user`);
  if (state.status === 'unclaimed') {
    const incident =
      state.unclaimedIncident ??
      incidentKey('unclaimed-on-ramp', { process: onRampWorkflowId(orderReference) });
    throw new ClaimWindowClosedError(
      `The on-ramp of order reference ${orderReference} ended without an end user and was not claimed by ${state.claimableUntil ?? 'the end of its claim window'}; it closed unclaimed and incident ${incident} holds it for the operations team`,
      incident,
    );
  }
  if (!ended || state.claimableUntil) return;
  throw new ConflictError(
    `The on-ramp of order reference ${orderReference} has already ended (${state.status}) without an end user; it is not started again`,
  );
}

/** The state of an on-ramp just started: its first workflow task may still be running, so a refused query is retried. */
async function queryNewOnRamp(context: ClientContext, orderReference: string): Promise<OnRampState> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await getOnRamp(context, orderReference);
    } catch (error) {
      if (error instanceof NotFoundError || attempt >= 8) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
