/** On-ramps and off-ramps listed from the ledger by direction, status and end user, newest first, page by page. */
import { RAMP_DIRECTIONS, type RampDirection } from '../domain/vocabulary';
import { listRampSummaries, type RampQuery } from '../ledger/ramps';
import type { RampSummary } from '../ledger/views';
import { parseEndUserId } from '../validation/identifiers';
import { OFF_RAMP_STATUSES } from '../../workflows/ramps/offramp/types';
import { ON_RAMP_STATUSES } from '../../workflows/ramps/onramp/types';
import type { ClientContext } from './context';
import { InvalidInputError } from './errors';
import { openPageToken, PAGE_TOKEN, sealPageToken } from './page-token';

/** One listed ramp (the ledger's summary of it). */
export type RampProcessSummary = RampSummary;

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
  /** Only ramps that ended after this instant (ISO 8601). */
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

const CURSOR_KEYS = ['startedAt', 'workflowId'] as const;

/** Checks every value of a ramp list filter; the query is built only from checked values. */
export function parseRampListFilter(filter: RampListFilter): RampListFilter & { limit: number } {
  const issues: string[] = [];
  if (filter.direction !== undefined && !(RAMP_DIRECTIONS as readonly string[]).includes(filter.direction))
    issues.push(`direction: must be one of ${RAMP_DIRECTIONS.join(', ')}`);
  if (filter.status !== undefined && !RAMP_STATUSES.includes(filter.status))
    issues.push(`status: must be one of ${RAMP_STATUSES.join(', ')}`);
  const closedAfter = parseInstant('closedAfter', filter.closedAfter, issues);
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
 * One page of on-ramps and off-ramps, newest first (by start, then workflow ID): following `nextPageToken` until
 * it is null lists each ramp once, however many start meanwhile.
 */
export async function listRamps(context: ClientContext, filter: RampListFilter = {}): Promise<RampPage> {
  const { pageToken, limit, ...where } = parseRampListFilter(filter);
  const query: RampQuery = { ...where, limit };
  if (pageToken !== undefined) query.after = openPageToken(pageToken, where, CURSOR_KEYS);
  const page = await listRampSummaries(context.ledger, query);
  return { data: page.data, nextPageToken: page.next ? sealPageToken({ ...page.next }, where) : null };
}

/** The newest ramps of a filter, up to `limit` (100 by default). */
export async function listProcesses(
  context: ClientContext,
  filter: ProcessFilter = {},
): Promise<RampProcessSummary[]> {
  const found: RampProcessSummary[] = [];
  const limit = filter.limit ?? 100;
  let pageToken: string | undefined;
  do {
    const page = await listRamps(context, {
      ...filter,
      limit: Math.min(100, limit - found.length),
      ...(pageToken ? { pageToken } : {}),
    });
    found.push(...page.data);
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken && found.length < limit);
  return found;
}

/** An ISO 8601 date-time as a canonical instant, or an issue. */
export function parseInstant(name: string, value: string | undefined, issues: string[]): string | undefined {
  if (value === undefined) return undefined;
  const ms = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  if (Number.isFinite(ms)) return new Date(ms).toISOString();
  issues.push(`${name}: must be an ISO 8601 date-time such as 2026-01-01T00:00:00Z`);
  return undefined;
}

/** The filter's end user ID, checked; its issues when it is not valid. */
export function parseFilterEndUserId(endUserId: string | undefined, issues: string[]): string | undefined {
  if (endUserId === undefined) return undefined;
  try {
    return parseEndUserId(endUserId);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    issues.push(...error.issues);
    return undefined;
  }
}
