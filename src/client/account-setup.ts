/** The account setup: one long-lived workflow (processIds.accountSetupWorkflowId) run by update-with-start. */
import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
} from '@temporalio/client';
import { WORKFLOW_TYPES } from '../domain/ids';
import { describeProcess, ONE_RUN_PER_PROCESS } from '../temporal/process-start';
import type { accountSetupWorkflow } from '../../workflows/account-setup/workflow';
import { accountStateQuery, setupAccountUpdate } from '../../workflows/account-setup/messages';
import type { AccountSetupResult, AccountSetupState } from '../../workflows/account-setup/types';
import type { ClientContext } from './context';
import { NotFoundError, ProcessEndedError } from './errors';

export async function setupAccount(context: ClientContext): Promise<AccountSetupResult> {
  const workflowId = context.processIds.accountSetupWorkflowId;
  const startWorkflowOperation = new WithStartWorkflowOperation<typeof accountSetupWorkflow>(
    WORKFLOW_TYPES.accountSetup,
    {
      workflowId,
      taskQueue: context.taskQueue,
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: ONE_RUN_PER_PROCESS,
      args: [{ timings: context.timings }],
    },
  );
  try {
    return await context.temporal.workflow.executeUpdateWithStart(setupAccountUpdate, {
      startWorkflowOperation,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    // Closed by hand: a new run would create a second master and gas wallet.
    const { status, executionStatus } = await describeProcess(context.temporal, workflowId);
    throw new ProcessEndedError(
      `The account setup (${workflowId}) has ended (${status ?? executionStatus}); it is not started again`,
      workflowId,
      status,
    );
  }
}

export async function getAccount(context: ClientContext): Promise<AccountSetupState> {
  try {
    return await context.temporal.workflow
      .getHandle(context.processIds.accountSetupWorkflowId)
      .query(accountStateQuery);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) throw new NotFoundError('The account setup has not run yet');
    throw error;
  }
}
