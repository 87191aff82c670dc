/**
 * events/redeliveries/<task queue>: redelivers every outcome event a filter matches (for instance every failed one since
 * T), as one durable job whose progress can be read. It pages through the events' records (visibility, newest
 * first) and sends each event once more through its own redelivery, `outcome-redelivery/<webhook-id>/job-<job ID>`,
 * with its own webhook-id and body, a page at a time; it continues as new when its history grows. One runs at a time
 * per task queue; the job ID is the ID of its first run.
 */
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  executeChild,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { outcomeRedeliveryWorkflowId } from '../../../src/domain/ids';
import type { createEventIndexActivities } from '../../../activities/outcomes/event-index';
import { operatorActivityOptions } from '../../shared/activity-options';
import { shouldContinueAsNew } from '../../shared/continue-as-new';
import { outcomeRedeliveryWorkflow } from '../redelivery/workflow';
import { redeliveryJobProgressQuery } from './messages';
import type { RedeliveryJobInput, RedeliveryJobProgress } from './types';
import { declareReleaseBehaviour } from '../../shared/versioning';

/** Events redelivered at once: a page of records, each its own child workflow. */
export const REDELIVERY_PAGE_SIZE = 50;

export async function outcomeRedeliveryJobWorkflow(
  input: RedeliveryJobInput,
): Promise<RedeliveryJobProgress> {
  const progress: RedeliveryJobProgress = input.carried?.progress ?? {
    jobId: workflowInfo().firstExecutionRunId,
    status: 'running',
    filter: input.filter,
    matched: 0,
    delivered: 0,
    failed: 0,
    noEndpoint: 0,
    startedAt: input.startedAt,
  };
  setHandler(redeliveryJobProgressQuery, () => progress);
  const { findOutcomeEvents } = proxyActivities<ReturnType<typeof createEventIndexActivities>>(
    operatorActivityOptions(input.timings),
  );

  let pageToken = input.carried?.pageToken;
  for (;;) {
    const page = await findOutcomeEvents({ query: input.query, pageSize: REDELIVERY_PAGE_SIZE, pageToken });
    progress.matched += page.events.length;
    await Promise.all(
      page.events.map(async ({ webhookId, event }) => {
        const result = await executeChild(outcomeRedeliveryWorkflow, {
          workflowId: outcomeRedeliveryWorkflowId(webhookId, `job-${progress.jobId}`),
          args: [{ webhookId, event, timings: input.timings }],
        });
        if (result.delivery === 'delivered') progress.delivered += 1;
        else if (result.delivery === 'no-endpoint') progress.noEndpoint += 1;
        else progress.failed += 1;
      }),
    );
    if (page.nextPageToken === null) break;
    pageToken = page.nextPageToken;
    if (shouldContinueAsNew()) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof outcomeRedeliveryJobWorkflow>({
        ...input,
        carried: { progress, pageToken },
      });
    }
  }
  progress.status = 'completed';
  progress.completedAt = new Date().toISOString();
  await condition(allHandlersFinished);
  return progress;
}

declareReleaseBehaviour(outcomeRedeliveryJobWorkflow, 'pinned');
