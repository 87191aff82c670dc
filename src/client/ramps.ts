/**
 * The ramps: on-ramps started (or attributed) by the client's backend, off-ramps started by deposits, both read
 * by their workflow ID and listed from Temporal visibility.
 */
import { createHash } from 'node:crypto';
import { isGrpcServiceError, WorkflowNotFoundError } from '@temporalio/client';
import { decodeTypedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
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
import type { onRampWorkflow } from '../../workflows/ramps/onramp/workflow';
import type { QuoteRequestInput, QuoteResult } from '../../workflows/quote/types';
import { offRampStateQuery } from '../../workflows/ramps/offramp/messages';
import { OFF_RAMP_STATUSES, type OffRampState } from '../../workflows/ramps/offramp/types';
import { onRampAttributionSignal, onRampStateQuery } from '../../workflows/ramps/onramp/messages';
import {
  ON_RAMP_STATUSES,
  type OnRampAttribution,
  type OnRampQuoteShown,
  type OnRampState,
} from '../../workflows/ramps/onramp/types';
import { type ClientContext, searchValueField } from './context';
import { ConflictError, InvalidInputError, NotFoundError } from './errors';
import { quote } from './quote';
import { parseQuoteRequest } from './quote-input';

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

/** What startOnRamp answers: the process, the quote it shows, and its state right after the call. */
export interface OnRampStart {
  workflowId: string;
  quote?: OnRampQuoteShown;
  /** True when this call started the on-ramp or attributed it to the end user; false when it already was theirs. */
  created: boolean;
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
  const existing = await getOnRamp(context, orderReference).catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  });
  if (existing) {
    assertSameEndUser(existing, id);
    // Already this user's: the same call again answers the process as it is (no new quote, no signal), unless
    // it still lacks the quote this call brings.
    const bringsQuote = !!(options.quote || options.quoteRequest);
    if (existing.endUserId === id && (existing.quote || !bringsQuote || existing.endedAt))
      return answer(workflowId, existing, false);
  }
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
  // Read after the signal (a query sees every signal accepted before it): the first end user wins, so another
  // caller may have attributed the process in between.
  const state = await queryNewOnRamp(context, orderReference);
  if (!outcome.delivered) {
    // An on-ramp runs once: a repeated call for the same end user answers the process as it ended.
    assertSameEndUser(state, id, true);
    return answer(workflowId, state, false);
  }
  assertSameEndUser(state, id);
  return answer(workflowId, state, existing?.endUserId !== id);
}

function answer(workflowId: string, state: OnRampState, created: boolean): OnRampStart {
  return { workflowId, ...(state.quote ? { quote: state.quote } : {}), created, state };
}

function assertSameEndUser(state: OnRampState, endUserId: string, ended = !!state.endedAt): void {
  if (state.endUserId === endUserId) return;
  if (state.endUserId === null && !ended) return;
  throw new ConflictError(
    state.endUserId === null
      ? `The on-ramp of order reference ${state.orderReference} has already ended (${state.status}) without an end user; it is not started again`
      : `The on-ramp of order reference ${state.orderReference} belongs to another end user`,
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

/** Every RampStatus of either direction. */
export const RAMP_STATUSES: readonly string[] = [...new Set([...ON_RAMP_STATUSES, ...OFF_RAMP_STATUSES])];

export interface RampListFilter {
  endUserId?: string;
  direction?: RampDirection;
  status?: string;
  /** Only processes that ended after this instant (ISO 8601). */
  closedAfter?: string;
  /** Page size, 1 to 100 (default 20). */
  limit?: number;
  /** The `nextPageToken` of the previous page, with the same filter. */
  pageToken?: string;
}

export interface RampPage {
  data: RampProcessSummary[];
  /** Null on the last page. */
  nextPageToken: string | null;
}

const PAGE_TOKEN = /^[A-Za-z0-9_-]{1,8192}$/;
/** gRPC INVALID_ARGUMENT: the server refused the query or the page token. */
const INVALID_ARGUMENT = 3;

/** Checks every value of a ramp list filter; the visibility query is built only from checked values. */
export function parseRampListFilter(filter: RampListFilter): RampListFilter & { limit: number } {
  const issues: string[] = [];
  if (filter.direction !== undefined && !(RAMP_DIRECTIONS as readonly string[]).includes(filter.direction))
    issues.push(`direction: must be one of ${RAMP_DIRECTIONS.join(', ')}`);
  if (filter.status !== undefined && !RAMP_STATUSES.includes(filter.status))
    issues.push(`status: must be one of ${RAMP_STATUSES.join(', ')}`);
  let closedAfter: string | undefined;
  if (filter.closedAfter !== undefined) {
    const ms =
      typeof filter.closedAfter === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(filter.closedAfter)
        ? Date.parse(filter.closedAfter)
        : NaN;
    if (Number.isFinite(ms)) closedAfter = new Date(ms).toISOString();
    else issues.push('closedAfter: must be an ISO 8601 date-time such as 2026-01-01T00:00:00Z');
  }
  const limit = filter.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    issues.push('limit: must be an integer from 1 to 100');
  if (filter.pageToken !== undefined && !PAGE_TOKEN.test(filter.pageToken))
    issues.push('pageToken: must be a nextPageToken this API answered');
  let endUserId: string | undefined;
  if (filter.endUserId !== undefined) {
    try {
      endUserId = parseEndUserId(filter.endUserId);
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      issues.push(...error.issues);
    }
  }
  if (issues.length > 0) throw new InvalidInputError('Invalid ramp filter', issues);
  return {
    ...(endUserId !== undefined ? { endUserId } : {}),
    ...(filter.direction !== undefined ? { direction: filter.direction } : {}),
    ...(filter.status !== undefined ? { status: filter.status } : {}),
    ...(closedAfter !== undefined ? { closedAfter } : {}),
    ...(filter.pageToken !== undefined ? { pageToken: filter.pageToken } : {}),
    limit,
  };
}

/**
 * One page of on-ramps and off-ramps, newest first (visibility's order: running ones by start, then closed ones by
 * when they ended), from Temporal visibility with its own page token: following
 * `nextPageToken` until it is null lists each process once.
 */
export async function listRamps(context: ClientContext, filter: RampListFilter = {}): Promise<RampPage> {
  const parsed = parseRampListFilter(filter);
  let query = processQuery(context, parsed, parsed.endUserId);
  if (parsed.closedAfter !== undefined) query += ` AND CloseTime > '${parsed.closedAfter}'`;
  const visibilityToken = parsed.pageToken === undefined ? undefined : openPageToken(parsed.pageToken, query);
  let response;
  try {
    response = await context.temporal.workflowService.listWorkflowExecutions({
      namespace: context.temporal.options.namespace,
      query,
      pageSize: parsed.limit,
      ...(visibilityToken ? { nextPageToken: visibilityToken } : {}),
    });
  } catch (error) {
    if (isGrpcServiceError(error) && Number(error.code) === INVALID_ARGUMENT && visibilityToken)
      throw new InvalidInputError('Invalid ramp filter', [PAGE_TOKEN_ISSUE]);
    throw error;
  }
  const data = (response.executions ?? []).map((execution) => {
    const attributes = decodeTypedSearchAttributes(execution.searchAttributes?.indexedFields);
    const closeMs = optionalTsToMs(execution.closeTime);
    return {
      workflowId: execution.execution?.workflowId ?? '',
      direction: attributes.get(RampDirectionAttribute) === 'on-ramp' ? 'on-ramp' : 'off-ramp',
      status: attributes.get(RampStatus) ?? 'unknown',
      endUserId: parsed.endUserId ?? clearEndUserId(attributes.get(EndUserId)),
      orderReference: attributes.get(OrderReference) ?? null,
      depositTransactionId: attributes.get(DepositTransactionId) ?? null,
      running:
        execution.status === temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING,
      startTime: new Date(optionalTsToMs(execution.startTime) ?? 0).toISOString(),
      closeTime: closeMs === undefined ? null : new Date(closeMs).toISOString(),
    } satisfies RampProcessSummary;
  });
  const token = response.nextPageToken;
  return { data, nextPageToken: token && token.length > 0 ? sealPageToken(token, query) : null };
}

const PAGE_TOKEN_ISSUE = 'pageToken: not a nextPageToken of this filter';
const QUERY_DIGEST_BYTES = 8;

const queryDigest = (query: string) =>
  createHash('sha256').update(query).digest().subarray(0, QUERY_DIGEST_BYTES);

/**
 * Our page token: a digest of the visibility query, then Temporal's own token. A token of another filter, or no
 * token of ours at all, is refused here instead of reaching Temporal.
 */
function sealPageToken(visibilityToken: Uint8Array, query: string): string {
  return Buffer.concat([queryDigest(query), visibilityToken]).toString('base64url');
}

function openPageToken(pageToken: string, query: string): Buffer {
  const bytes = Buffer.from(pageToken, 'base64url');
  if (bytes.length <= QUERY_DIGEST_BYTES || !bytes.subarray(0, QUERY_DIGEST_BYTES).equals(queryDigest(query)))
    throw new InvalidInputError('Invalid ramp filter', [PAGE_TOKEN_ISSUE]);
  return bytes.subarray(QUERY_DIGEST_BYTES);
}

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
