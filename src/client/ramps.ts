/**
 * The ramps: on-ramps started (or attributed) by the client's backend, off-ramps started by deposits, both read
 * by their workflow ID and listed from Temporal visibility.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { offRampWorkflowId, onRampWorkflowId, WORKFLOW_TYPES } from '../domain/ids';
import { RAMP_DIRECTIONS, type RampDirection } from '../domain/vocabulary';
import { endUserSearchValues, isEndUserPseudonym } from '../temporal/end-user-pseudonym';
import { signalWithStartProcess } from '../temporal/process-start';
import {
  DepositTransactionId,
  EndUserId,
  OrderReference,
  RampDirection as RampDirectionAttribute,
  RampStatus,
} from '../temporal/search-attributes';
import { parseEndUserId, parseIdentifier, parseOrderReference } from '../validation/identifiers';
import type { onRampWorkflow } from '../../workflows/onramp';
import type { QuoteRequestInput, QuoteResult } from '../../workflows/quote/types';
import { offRampStateQuery } from '../../workflows/ramps/offramp/messages';
import type { OffRampState } from '../../workflows/ramps/offramp/types';
import { onRampAttributionSignal, onRampStateQuery } from '../../workflows/ramps/onramp/messages';
import type { OnRampAttribution, OnRampQuoteShown, OnRampState } from '../../workflows/ramps/onramp/types';
import { type ClientContext, searchValueField } from './context';
import { ConflictError, InvalidInputError, NotFoundError } from './errors';
import { quote } from './quote';

export interface RampProcessSummary {
  workflowId: string;
  direction: RampDirection;
  status: string;
  /** Null when unattributed, or when RampEndUserId holds a pseudonym (encryption on) and no endUserId was searched for. */
  endUserId: string | null;
  orderReference: string | null;
  depositTransactionId: string | null;
  running: boolean;
  startTime: string;
  closeTime: string | null;
}

export interface ProcessFilter {
  endUserId?: string;
  status?: string;
  direction?: RampDirection;
  limit?: number;
}

export interface StartOnRampOptions {
  quote?: QuoteResult | OnRampQuoteShown;
  quoteRequest?: QuoteRequestInput;
}

export async function startOnRamp(
  context: ClientContext,
  endUserId: string,
  reference: string,
  options: StartOnRampOptions = {},
): Promise<{ workflowId: string; quote?: OnRampQuoteShown }> {
  const id = parseEndUserId(endUserId);
  const orderReference = parseOrderReference(reference);
  const fromOptions = options.quoteRequest
    ? await quote(context, { ...options.quoteRequest, direction: 'on-ramp' })
    : options.quote;
  const shown: OnRampQuoteShown | undefined = fromOptions
    ? {
        targetAmount: fromOptions.targetAmount,
        expiresAt: fromOptions.expiresAt,
        ...(fromOptions.amountFrom ? { amountFrom: fromOptions.amountFrom } : {}),
        ...(fromOptions.coinTo ? { coinTo: fromOptions.coinTo } : {}),
        ...(fromOptions.chainTo ? { chainTo: fromOptions.chainTo } : {}),
      }
    : undefined;
  const workflowId = onRampWorkflowId(orderReference);
  const outcome = await signalWithStartProcess<typeof onRampWorkflow, [OnRampAttribution]>(
    context.temporal,
    WORKFLOW_TYPES.onRamp,
    {
      workflowId,
      taskQueue: context.taskQueue,
      args: [
        {
          orderReference,
          endUserId: id,
          ...searchValueField(context, id),
          timings: context.timings,
          ...(shown ? { quote: shown } : {}),
        },
      ],
      signal: onRampAttributionSignal,
      signalArgs: [{ endUserId: id, ...searchValueField(context, id), ...(shown ? { quote: shown } : {}) }],
    },
  );
  if (!outcome.delivered) {
    // An on-ramp runs once: a repeated call for the same end user answers the process as it ended.
    const ended = await getOnRamp(context, orderReference);
    if (ended.endUserId !== id) {
      throw new ConflictError(
        ended.endUserId === null
          ? `The on-ramp of order reference ${orderReference} has already ended (${ended.status}) without an end user; it is not started again`
          : `The on-ramp of order reference ${orderReference} belongs to another end user`,
      );
    }
  }
  return { workflowId, ...(shown ? { quote: shown } : {}) };
}

export async function getOffRamp(
  context: ClientContext,
  depositTransactionId: string,
): Promise<OffRampState> {
  const id = parseIdentifier(depositTransactionId, 'deposit transaction ID');
  try {
    return await context.temporal.workflow.getHandle(offRampWorkflowId(id)).query(offRampStateQuery);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) throw new NotFoundError(`No off-ramp for deposit ${id}`);
    throw error;
  }
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

/** A RampStatus is lower-case words joined by dashes; anything else never reaches the visibility query. */
const STATUS_LITERAL = /^[a-z-]{1,40}$/;

/** The visibility query of a process filter (values are validated or typed before they are quoted). */
export function processQuery(
  context: Pick<ClientContext, 'encryption'>,
  filter: ProcessFilter,
  endUserId: string | undefined,
): string {
  const clauses = [
    filter.direction
      ? `RampDirection = '${filter.direction}'`
      : `RampDirection IN (${RAMP_DIRECTIONS.map((direction) => `'${direction}'`).join(', ')})`,
  ];
  // With encryption keys, RampEndUserId holds the user's pseudonym (one per key, after a rotation) or, for
  // processes started before encryption was on, the ID itself: search for all of them.
  if (endUserId !== undefined)
    clauses.push(
      `RampEndUserId IN (${endUserSearchValues(endUserId, context.encryption)
        .map((value) => `'${value}'`)
        .join(', ')})`,
    );
  if (filter.status !== undefined) {
    if (!STATUS_LITERAL.test(filter.status))
      throw new InvalidInputError('Invalid status', ['status: lower-case letters and dashes only']);
    clauses.push(`RampStatus = '${filter.status}'`);
  }
  return clauses.join(' AND ');
}

export async function listProcesses(
  context: ClientContext,
  filter: ProcessFilter = {},
): Promise<RampProcessSummary[]> {
  const endUserId = filter.endUserId === undefined ? undefined : parseEndUserId(filter.endUserId);
  const query = processQuery(context, filter, endUserId);
  const limit = filter.limit ?? 100;
  const found: RampProcessSummary[] = [];
  const seen = new Set<string>();
  for await (const execution of context.temporal.workflow.list({ query, pageSize: Math.min(limit, 100) })) {
    // One entry per process: a process runs once per ID, and a run left from before that rule is not listed twice.
    if (seen.has(execution.workflowId)) continue;
    seen.add(execution.workflowId);
    const attributes = execution.typedSearchAttributes;
    found.push({
      workflowId: execution.workflowId,
      direction: attributes.get(RampDirectionAttribute) === 'on-ramp' ? 'on-ramp' : 'off-ramp',
      status: attributes.get(RampStatus) ?? 'unknown',
      // A pseudonym is not an end user ID: answer the ID searched for, else null.
      endUserId: endUserId ?? clearEndUserId(attributes.get(EndUserId)),
      orderReference: attributes.get(OrderReference) ?? null,
      depositTransactionId: attributes.get(DepositTransactionId) ?? null,
      running: execution.status.name === 'RUNNING',
      startTime: execution.startTime.toISOString(),
      closeTime: execution.closeTime?.toISOString() ?? null,
    });
    if (found.length >= limit) break;
  }
  return found;
}

function clearEndUserId(value: string | undefined): string | null {
  return value === undefined || isEndUserPseudonym(value) ? null : value;
}
