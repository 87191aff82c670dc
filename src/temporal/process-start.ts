/**
 * One run per process, for good. The workflow ID of a process is its business key (offramp/<deposit>,
 * onramp/<reference>, end-user/<id>, account-setup), and every start of one refuses an ID that has already run:
 * a late webhook, a poll, a reconciliation or a client retry that reaches a process after it ended gets the closed
 * process back, never a second run. (The webhook routers, routes/<task queue>/<n>, continue as new for good and keep
 * the default policy.)
 *
 * Temporal enforces the policy while it keeps the closed run, i.e. for the namespace's retention period: keep
 * retention longer than the operator's delivery retry window (about 2 hours) plus the longest process.
 */
import {
  type Client,
  WorkflowExecutionAlreadyStartedError,
  type WorkflowSignalWithStartOptions,
} from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { RampStatus } from '../domain/search-attributes';

/** The workflow ID reuse policy of every process start. */
export const ONE_RUN_PER_PROCESS = 'REJECT_DUPLICATE' as const;

/** A process that has ended: its Temporal status and its own last status (the RampStatus search attribute). */
export interface ClosedProcess {
  executionStatus: string;
  status: string | null;
  closedAt: string | null;
}

export type ProcessSignalOutcome =
  { workflowId: string; delivered: true } | { workflowId: string; delivered: false; closed: ClosedProcess };

/** Reads how a process ended from its description (no worker needed, nothing decoded). */
export async function describeProcess(
  client: Client,
  workflowId: string,
): Promise<ClosedProcess & { running: boolean }> {
  const description = await client.workflow.getHandle(workflowId).describe();
  return {
    running: description.status.name === 'RUNNING',
    executionStatus: description.status.name,
    status: description.typedSearchAttributes.get(RampStatus) ?? null,
    closedAt: description.closeTime?.toISOString() ?? null,
  };
}

/**
 * Signal-with-start of a process under the one-run policy: a running process gets the signal, an absent one is
 * started with it, and a closed one is left as it ended (the answer says how, for the caller to record).
 */
export async function signalWithStartProcess<W extends Workflow, SignalArgs extends unknown[]>(
  client: Client,
  workflowType: string,
  options: WorkflowSignalWithStartOptions<SignalArgs> & {
    workflowId: string;
    taskQueue: string;
    args: Parameters<W>;
  },
): Promise<ProcessSignalOutcome> {
  try {
    await client.workflow.signalWithStart<W, SignalArgs>(workflowType, {
      ...options,
      workflowIdReusePolicy: ONE_RUN_PER_PROCESS,
    } as never);
    return { workflowId: options.workflowId, delivered: true };
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    const { executionStatus, status, closedAt } = await describeProcess(client, options.workflowId);
    return {
      workflowId: options.workflowId,
      delivered: false,
      closed: { executionStatus, status, closedAt },
    };
  }
}
