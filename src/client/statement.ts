/**
 * The settlement statement: one row per ramp whose process closed in a period, read page by page from Temporal
 * visibility (each ramp's final state from its run's result), reconciled against a fresh read of the operator (a
 * statement-read/<uuid> workflow per page, on the worker), then the totals per status and asset. A generator: the
 * caller writes each row out as it comes, so memory holds one page, whatever the period.
 */
import { randomUUID } from 'node:crypto';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import { decodeTypedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import { temporal } from '@temporalio/proto';
import { statementReadWorkflowId, WORKFLOW_TYPES } from '../domain/ids';
import { errorMessage } from '../domain/errors';
import { RampStatus } from '../domain/search-attributes';
import type { statementReadWorkflow } from '../../workflows/statement/workflow';
import type { ResourceRead } from '../../workflows/statement/types';
import { offRampStateQuery } from '../../workflows/ramps/offramp/messages';
import { onRampStateQuery } from '../../workflows/ramps/onramp/messages';
import type { OffRampState } from '../../workflows/ramps/offramp/types';
import type { OnRampState } from '../../workflows/ramps/onramp/types';
import type { ClientContext } from './context';
import { InvalidInputError } from './errors';
import {
  type ClosedRamp,
  readKey,
  reconcile,
  resourcesToRead,
  type StatementRow,
  type StatementTotal,
  StatementTotals,
  statementRow,
} from './statement-rows';

export type { StatementRow, StatementTotal } from './statement-rows';

export interface StatementPeriod {
  /** ISO 8601; ramps whose process closed at or after this instant. */
  from: string;
  /** ISO 8601; and before this one. */
  to: string;
}

export type StatementItem =
  { kind: 'row'; row: StatementRow } | { kind: 'totals'; totals: StatementTotal[]; rows: number };

export interface StatementOptions {
  /** Runs each Temporal call (the HTTP API gives each its deadline). */
  call?: <T>(fn: () => Promise<T>) => Promise<T>;
}

/** Ramps per page: one page's final states and operator reads are what the statement holds at a time. */
export const STATEMENT_PAGE_SIZE = 50;
/** Final states read at once: closed runs' results are single history reads on the server. */
const RESULT_CONCURRENCY = 10;

const COMPLETED = temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED;

/** The period as canonical ISO instants; InvalidInputError naming each problem. */
export function parseStatementPeriod(period: Partial<StatementPeriod>): StatementPeriod {
  const issues: string[] = [];
  const instant = (name: 'from' | 'to'): string | undefined => {
    const text = period[name];
    const ms = typeof text === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : NaN;
    if (Number.isFinite(ms)) return new Date(ms).toISOString();
    issues.push(`${name}: must be an ISO 8601 date-time such as 2026-01-01T00:00:00Z`);
    return undefined;
  };
  const from = instant('from');
  const to = instant('to');
  if (from && to && from >= to) issues.push('to: must be after from');
  if (issues.length > 0) throw new InvalidInputError('Invalid statement period', issues);
  return { from: from!, to: to! };
}

export async function* statement(
  context: ClientContext,
  period: Partial<StatementPeriod>,
  options: StatementOptions = {},
): AsyncGenerator<StatementItem> {
  const { from, to } = parseStatementPeriod(period);
  const call = options.call ?? (<T>(fn: () => Promise<T>) => fn());
  // Ramp processes only: a quote/<uuid> workflow carries RampDirection too.
  const query =
    `WorkflowType IN ('${WORKFLOW_TYPES.onRamp}', '${WORKFLOW_TYPES.offRamp}') AND ExecutionStatus != 'Running' AND ` +
    `CloseTime >= '${from}' AND CloseTime < '${to}'`;
  const totals = new StatementTotals();
  let rows = 0;
  let pageToken: Uint8Array | undefined;
  do {
    const response = await call(() =>
      context.temporal.workflowService.listWorkflowExecutions({
        namespace: context.temporal.options.namespace,
        query,
        pageSize: STATEMENT_PAGE_SIZE,
        ...(pageToken ? { nextPageToken: pageToken } : {}),
      }),
    );
    const executions = response.executions ?? [];
    const ramps = await eachLimited(executions, RESULT_CONCURRENCY, (execution) =>
      call(() => closedRamp(context, execution)),
    );
    const reads = await readAfresh(context, ramps, call);
    for (const ramp of ramps) {
      const row: StatementRow = { ...statementRow(ramp), ...reconcile(ramp, reads) };
      totals.add(row);
      rows += 1;
      yield { kind: 'row', row };
    }
    pageToken = response.nextPageToken?.length ? response.nextPageToken : undefined;
  } while (pageToken);
  yield { kind: 'totals', totals: totals.entries(), rows };
}

/** A closed ramp and its final state: the run's result, or (a run closed otherwise) a query of it. */
async function closedRamp(
  context: ClientContext,
  execution: temporal.api.workflow.v1.IWorkflowExecutionInfo,
): Promise<ClosedRamp> {
  const workflowId = execution.execution?.workflowId ?? '';
  const runId = execution.execution?.runId ?? undefined;
  const attributes = decodeTypedSearchAttributes(execution.searchAttributes?.indexedFields);
  const direction = execution.type?.name === WORKFLOW_TYPES.onRamp ? 'on-ramp' : 'off-ramp';
  const handle = context.temporal.workflow.getHandle(workflowId, runId, { followRuns: false });
  const run = {
    workflowId,
    status: attributes.get(RampStatus) ?? 'unknown',
    startedAt: isoOf(execution.startTime),
    closedAt: isoOf(execution.closeTime),
  };
  const closed = execution.status === COMPLETED;
  if (direction === 'on-ramp') {
    const state: OnRampState | undefined = closed
      ? ((await handle.result()) as OnRampState)
      : await handle.query(onRampStateQuery).catch(() => undefined);
    return { ...run, direction, state };
  }
  const state: OffRampState | undefined = closed
    ? ((await handle.result()) as OffRampState)
    : await handle.query(offRampStateQuery).catch(() => undefined);
  return { ...run, direction, state };
}

/** One page's operator resources read afresh, by `kind/id`; a page that cannot be read is every resource's reason. */
async function readAfresh(
  context: ClientContext,
  ramps: readonly ClosedRamp[],
  call: NonNullable<StatementOptions['call']>,
): Promise<Map<string, ResourceRead>> {
  const resources = ramps.flatMap(resourcesToRead);
  if (resources.length === 0) return new Map();
  let reads: ResourceRead[];
  try {
    reads = await call(() =>
      context.temporal.workflow.execute<typeof statementReadWorkflow>(WORKFLOW_TYPES.statementRead, {
        workflowId: statementReadWorkflowId(randomUUID()),
        taskQueue: context.taskQueue,
        args: [{ resources, timings: context.timings }],
        workflowExecutionTimeout: context.timings.activityScheduleToCloseMs,
      }),
    );
  } catch (error) {
    const reason = `the operator could not be read (${errorMessage(error)})`;
    reads = resources.map((resource) => ({ ...resource, error: reason }));
  }
  return new Map(reads.map((read) => [readKey(read), read]));
}

/** `work` over every item, at most `limit` at once, answers in the items' order. */
async function eachLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const answers = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      answers[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return answers;
}

function isoOf(timestamp: Parameters<typeof optionalTsToMs>[0]): string {
  return new Date(optionalTsToMs(timestamp) ?? 0).toISOString();
}
