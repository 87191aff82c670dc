/**
 * On-ramps and off-ramps listed from Temporal visibility by direction, status and end user: `listProcesses` for a
 * first batch, `listRamps` page by page.
 */
import { isGrpcServiceError } from '@temporalio/client';
import type { TypedSearchAttributes } from '@temporalio/common';
import { decodeTypedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { RAMP_DIRECTIONS, type RampDirection } from '../domain/vocabulary';
import { endUserSearchValues, isEndUserPseudonym } from '../temporal/end-user-pseudonym';
import {
  DepositTransactionId,
  EndUserId,
  OrderReference,
  RampDirection as RampDirectionAttribute,
  RampStatus,
} from '../domain/search-attributes';
import { parseEndUserId } from '../validation/identifiers';
import { OFF_RAMP_STATUSES } from '../../workflows/ramps/offramp/types';
import { ON_RAMP_STATUSES } from '../../workflows/ramps/onramp/types';
import type { ClientContext } from './context';
import { InvalidInputError, NotFoundError } from './errors';
import { openPageToken, PAGE_NOT_FOUND, PAGE_TOKEN, sealPageToken } from './page-token';

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

/** Every RampStatus of either direction. */
export const RAMP_STATUSES: readonly string[] = [...new Set([...ON_RAMP_STATUSES, ...OFF_RAMP_STATUSES])];

/** A RampStatus is lower-case words joined by dashes; anything else never reaches the visibility query. */
const STATUS_LITERAL = /^[a-z-]{1,40}$/;
/** gRPC INVALID_ARGUMENT: the server refused the query or the page token. */
const INVALID_ARGUMENT = 3;

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
    found.push(
      rampSummary(execution.workflowId, execution.typedSearchAttributes, endUserId, {
        running: execution.status.name === 'RUNNING',
        startTime: execution.startTime.toISOString(),
        closeTime: execution.closeTime?.toISOString() ?? null,
      }),
    );
    if (found.length >= limit) break;
  }
  return found;
}

/** Checks every value of a ramp list filter; the visibility query is built only from checked values. */
export function parseRampListFilter(filter: RampListFilter): RampListFilter & { limit: number } {
  const issues: string[] = [];
  if (filter.direction !== undefined && !(RAMP_DIRECTIONS as readonly string[]).includes(filter.direction))
    issues.push(`direction: must be one of ${RAMP_DIRECTIONS.join(', ')}`);
  if (filter.status !== undefined && !RAMP_STATUSES.includes(filter.status))
    issues.push(`status: must be one of ${RAMP_STATUSES.join(', ')}`);
  const closedAfter = parseClosedAfter(filter.closedAfter, issues);
  const limit = filter.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    issues.push('limit: must be an integer from 1 to 100');
  if (filter.pageToken !== undefined && !PAGE_TOKEN.test(filter.pageToken))
    issues.push('pageToken: must be a nextPageToken this API answered');
  const endUserId = parseFilterEndUserId(filter.endUserId, issues);
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
      throw new NotFoundError(PAGE_NOT_FOUND);
    throw error;
  }
  const data = (response.executions ?? []).map((execution) => {
    const closeMs = optionalTsToMs(execution.closeTime);
    return rampSummary(
      execution.execution?.workflowId ?? '',
      decodeTypedSearchAttributes(execution.searchAttributes?.indexedFields),
      parsed.endUserId,
      {
        running:
          execution.status ===
          temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING,
        startTime: new Date(optionalTsToMs(execution.startTime) ?? 0).toISOString(),
        closeTime: closeMs === undefined ? null : new Date(closeMs).toISOString(),
      },
    );
  });
  const token = response.nextPageToken;
  return { data, nextPageToken: token && token.length > 0 ? sealPageToken(token, query) : null };
}

/** A listed process from its search attributes and run. */
function rampSummary(
  workflowId: string,
  attributes: TypedSearchAttributes,
  searchedEndUserId: string | undefined,
  run: Pick<RampProcessSummary, 'running' | 'startTime' | 'closeTime'>,
): RampProcessSummary {
  return {
    workflowId,
    direction: attributes.get(RampDirectionAttribute) === 'on-ramp' ? 'on-ramp' : 'off-ramp',
    status: attributes.get(RampStatus) ?? 'unknown',
    // A pseudonym is not an end user ID: answer the ID searched for, else null.
    endUserId: searchedEndUserId ?? clearEndUserId(attributes.get(EndUserId)),
    orderReference: attributes.get(OrderReference) ?? null,
    depositTransactionId: attributes.get(DepositTransactionId) ?? null,
    running: run.running,
    startTime: run.startTime,
    closeTime: run.closeTime,
  };
}

function clearEndUserId(value: string | undefined): string | null {
  return value === undefined || isEndUserPseudonym(value) ? null : value;
}

/** closedAfter as a canonical ISO 8601 instant; an issue when it is not one. */
function parseClosedAfter(closedAfter: string | undefined, issues: string[]): string | undefined {
  if (closedAfter === undefined) return undefined;
  const ms =
    typeof closedAfter === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(closedAfter)
      ? Date.parse(closedAfter)
      : NaN;
  if (Number.isFinite(ms)) return new Date(ms).toISOString();
  issues.push('closedAfter: must be an ISO 8601 date-time such as 2026-01-01T00:00:00Z');
  return undefined;
}

/** The filter's end user ID, checked; its issues when it is not valid. */
function parseFilterEndUserId(endUserId: string | undefined, issues: string[]): string | undefined {
  if (endUserId === undefined) return undefined;
  try {
    return parseEndUserId(endUserId);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    issues.push(...error.issues);
    return undefined;
  }
}
