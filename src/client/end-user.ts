/** end-user/<id>: the deposit wallet of an end user (update-with-start) and its state. */
import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { endUserWorkflowId, WORKFLOW_TYPES } from '../domain/ids';
import { readEndUserView } from '../ledger/end-users';
import type { EndUserView } from '../ledger/views';
import { describeProcess, ONE_RUN_PER_PROCESS } from '../temporal/process-start';
import { parseEndUserId, parseNewEndUserId } from '../validation/identifiers';
import type { endUserWorkflow } from '../../workflows/end-user/workflow';
import { ensureDepositWalletUpdate } from '../../workflows/end-user/messages';
import type { DepositWallet } from '../../workflows/end-user/types';
import { type ClientContext, searchValueField } from './context';
import { NotFoundError, ProcessEndedError } from './errors';
import { listRamps, type RampProcessSummary } from './ramp-list';

export async function ensureDepositWallet(context: ClientContext, endUserId: string): Promise<DepositWallet> {
  const id = parseNewEndUserId(endUserId);
  const workflowId = endUserWorkflowId(id);
  const startWorkflowOperation = new WithStartWorkflowOperation<typeof endUserWorkflow>(
    WORKFLOW_TYPES.endUser,
    {
      workflowId,
      taskQueue: context.taskQueue,
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: ONE_RUN_PER_PROCESS,
      args: [
        {
          endUserId: id,
          ...searchValueField(context, id),
          timings: context.timings,
        },
      ],
    },
  );
  try {
    return await context.temporal.workflow.executeUpdateWithStart(ensureDepositWalletUpdate, {
      startWorkflowOperation,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    // The user's process was closed by hand (it never ends by itself): a new run would create a second wallet.
    const ended = await getEndUser(context, id).catch(() => undefined);
    if (ended?.wallet) return ended.wallet;
    const { executionStatus } = await describeProcess(context.temporal, workflowId);
    throw new ProcessEndedError(
      `The process of end user ${id} has ended (${executionStatus}) without a deposit wallet; it is not started again`,
      workflowId,
      executionStatus,
    );
  }
}

/** The end user's view from the ledger, or NotFoundError for a user whose workflow has not recorded one. */
export async function getEndUser(context: ClientContext, endUserId: string): Promise<EndUserView> {
  const id = parseEndUserId(endUserId);
  const view = await readEndUserView(context.ledger, id);
  if (!view) throw new NotFoundError(`No end user ${id}`);
  return view;
}

/** An end user as the HTTP API shows it: the end user's view (when there is one) and the ramps of both directions. */
export type EndUserOverview = (EndUserView | { endUserId: string; walletStatus: 'none' }) & {
  /** The newest ramps of this user, on-ramps and off-ramps (at most 100). */
  ramps: RampProcessSummary[];
  /** For the following ramps: GET /v1/ramps?endUserId=...&pageToken=... (listRamps); null when there are no more. */
  nextRampsPageToken: string | null;
};

/**
 * The end user's view and ramps. A user who only has on-ramps (no deposit wallet asked for) has no end-user
 * process: the answer then says `walletStatus: 'none'`. NotFoundError when there is neither.
 */
export async function getEndUserOverview(
  context: ClientContext,
  endUserId: string,
): Promise<EndUserOverview> {
  const id = parseEndUserId(endUserId);
  const [state, ramps] = await Promise.all([
    getEndUser(context, id).catch((error: unknown) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }),
    listRamps(context, { endUserId: id, limit: 100 }),
  ]);
  if (!state && ramps.data.length === 0) throw new NotFoundError(`No end user ${id}`);
  return {
    ...(state ?? { endUserId: id, walletStatus: 'none' as const }),
    ramps: ramps.data,
    nextRampsPageToken: ramps.nextPageToken,
  };
}
