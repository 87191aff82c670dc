/**
 * Outcome events: a recorded event sent again, with its own `webhook-id` and body, by a redelivery workflow of its
 * own (so a closed process can still have its events sent).
 */
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import {
  depositTransactionIdFromWorkflowId,
  endUserIdFromWorkflowId,
  orderReferenceFromWorkflowId,
  outcomeRedeliveryWorkflowId,
  WORKFLOW_TYPES,
} from '../domain/ids';
import { parseOutcomeWebhookId, type OutcomeEventRecord } from '../domain/outcome-events';
import { endUserStateQuery } from '../../workflows/end-user/messages';
import type { Outbox } from '../../workflows/outcomes/outbox';
import type { outcomeRedeliveryWorkflow } from '../../workflows/outcomes/redelivery/workflow';
import { offRampStateQuery } from '../../workflows/ramps/offramp/messages';
import { onRampStateQuery } from '../../workflows/ramps/onramp/messages';
import type { ClientContext } from './context';
import { InvalidInputError, NotFoundError } from './errors';

export interface RedeliveryStarted {
  webhookId: string;
  /** The process that raised the event. */
  workflowId: string;
  redeliveryWorkflowId: string;
}

/** The outbox of the process a workflow ID names, or NotFoundError (the kinds of process that raise events only). */
async function outboxOf(context: ClientContext, workflowId: string): Promise<Outbox | undefined> {
  const handle = context.temporal.workflow.getHandle(workflowId);
  try {
    if (endUserIdFromWorkflowId(workflowId) !== undefined)
      return (await handle.query(endUserStateQuery)).outcomes;
    if (depositTransactionIdFromWorkflowId(workflowId) !== undefined)
      return (await handle.query(offRampStateQuery)).outcomes;
    if (orderReferenceFromWorkflowId(workflowId) !== undefined)
      return (await handle.query(onRampStateQuery)).outcomes;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) throw new NotFoundError(`No process ${workflowId}`);
    throw error;
  }
  throw new NotFoundError(`No process ${workflowId} raises outcome events`);
}

/** Finds the recorded event and starts its redelivery; answers at once (the workflow's result is the delivery's). */
export async function redeliverEvent(context: ClientContext, webhookId: string): Promise<RedeliveryStarted> {
  const parsed = typeof webhookId === 'string' ? parseOutcomeWebhookId(webhookId) : undefined;
  if (!parsed) {
    throw new InvalidInputError('Invalid webhook ID', [
      'expected the webhook-id of an outcome event (evt_<process>~<number>)',
    ]);
  }
  const outbox = await outboxOf(context, parsed.workflowId);
  const record: OutcomeEventRecord | undefined = outbox?.events.find(
    (event) => event.webhookId === webhookId,
  );
  if (!record) throw new NotFoundError(`No outcome event ${webhookId}`);
  const redeliveryWorkflowId = outcomeRedeliveryWorkflowId(webhookId, randomUUID());
  await context.temporal.workflow.start<typeof outcomeRedeliveryWorkflow>(WORKFLOW_TYPES.outcomeRedelivery, {
    workflowId: redeliveryWorkflowId,
    taskQueue: context.taskQueue,
    args: [{ webhookId, event: record.event, timings: context.timings }],
  });
  return { webhookId, workflowId: parsed.workflowId, redeliveryWorkflowId };
}
