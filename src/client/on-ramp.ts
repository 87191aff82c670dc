/**
 * onramp/<reference>: an on-ramp, started (or attributed to its end user) by the client's backend, and read by its
 * order reference.
 */
import { onRampWorkflowId, WORKFLOW_TYPES } from '../domain/ids';
import { readRampView } from '../ledger/ramps';
import type { OnRampView } from '../ledger/views';
import { signalWithStartProcess } from '../temporal/process-start';
import { parseNewEndUserId, parseOrderReference } from '../validation/identifiers';
import type { QuoteRequestInput, QuoteResult } from '../../workflows/quote/types';
import { onRampAttributionSignal } from '../../workflows/ramps/onramp/messages';
import type { onRampWorkflow } from '../../workflows/ramps/onramp/workflow';
import type { OnRampAttribution, OnRampQuoteShown } from '../../workflows/ramps/onramp/types';
import { type ClientContext, searchValueField } from './context';
import { incidentKey } from '../../workflows/operations/alerts/incidents';
import { ClaimWindowClosedError, ConflictError, NotFoundError, ProcessEndedError } from './errors';
import { quote } from './quote';
import { parseQuoteRequest } from './quote-input';

export interface StartOnRampOptions {
  quote?: QuoteResult | OnRampQuoteShown;
  quoteRequest?: QuoteRequestInput;
}

/** What startOnRamp answers: the process, the quote it shows, and its view once it took the call. */
export interface OnRampStart {
  workflowId: string;
  quote?: OnRampQuoteShown;
  /** True when this call started the on-ramp or attributed it to the end user before it ended. */
  created: boolean;
  /** True when this call named the end user of an on-ramp that had ended without one (a late claim). */
  claimed: boolean;
  state: OnRampView;
}

/**
 * How long startOnRamp waits for the on-ramp to record the call: one workflow task and one activity when a worker
 * runs; a worker that just restarted takes the server's sticky timeout (10 s) and a poll more to pick it up.
 */
const RECORDED_WITHIN_MS = 30_000;

export async function startOnRamp(
  context: ClientContext,
  endUserId: string,
  reference: string,
  options: StartOnRampOptions = {},
): Promise<OnRampStart> {
  const id = parseNewEndUserId(endUserId);
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
  // Read once the on-ramp recorded an end user (the first end user wins, so another caller may have attributed it
  // in between): what the call answers, a read right after it answers too.
  const state = await recordedAttribution(context, orderReference, delivered, { endUserId: id, shown });
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

export async function getOnRamp(context: ClientContext, reference: string): Promise<OnRampView> {
  const orderReference = parseOrderReference(reference);
  const view = await findOnRamp(context, orderReference);
  if (!view) throw new NotFoundError(`No on-ramp for order reference ${orderReference}`);
  return view;
}

/** The on-ramp of a checked order reference, or undefined when the ledger has none yet. */
async function findOnRamp(context: ClientContext, orderReference: string): Promise<OnRampView | undefined> {
  return (await readRampView(context.ledger, onRampWorkflowId(orderReference))) as OnRampView | undefined;
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
  state: OnRampView,
  how: Pick<OnRampStart, 'created' | 'claimed'>,
): OnRampStart {
  return { workflowId, ...(state.quote ? { quote: state.quote } : {}), ...how, state };
}

/**
 * Refuses an on-ramp the end user cannot have: another end user's; one that closed unclaimed (naming its
 * incident); one that ended without an end user and cannot be claimed (`ended`: it has closed).
 */
function assertSameEndUser(state: OnRampView, endUserId: string, ended = !!state.endedAt): void {
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

/**
 * The on-ramp's view once it recorded an end user (this call's, or a competitor's). A signal that was not delivered
 * (the on-ramp had closed) changes nothing: its view is read as it is.
 */
async function recordedAttribution(
  context: ClientContext,
  orderReference: string,
  delivered: boolean,
  call: { endUserId: string; shown: OnRampQuoteShown | undefined },
): Promise<OnRampView> {
  const deadline = Date.now() + RECORDED_WITHIN_MS;
  const recorded = (view: OnRampView) =>
    view.endUserId !== null && (view.endUserId !== call.endUserId || !call.shown || view.quote !== null);
  for (;;) {
    const view = await findOnRamp(context, orderReference);
    if (view && (!delivered || recorded(view))) return view;
    if (Date.now() >= deadline) {
      if (!delivered)
        throw new ProcessEndedError(
          `The on-ramp of order reference ${orderReference} has ended and is not started again`,
          onRampWorkflowId(orderReference),
          'CLOSED',
        );
      throw new Error(
        `The on-ramp of order reference ${orderReference} did not record this call within ${RECORDED_WITHIN_MS} ms (is a worker running?)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
