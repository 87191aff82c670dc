/**
 * Idempotency keys of the HTTP API, kept in Temporal: one idempotency/<route>/<key digest> workflow per key and
 * route (workflows/idempotency). The API's middleware claims a key before a POST runs and records or releases it
 * after; the rules are the workflow's.
 */
import { createHash } from 'node:crypto';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { idempotencyWorkflowId, WORKFLOW_TYPES } from '../domain/ids';
import {
  claimIdempotencyKeyUpdate,
  recordIdempotentAnswerUpdate,
  releaseIdempotencyKeyUpdate,
} from '../../workflows/idempotency/messages';
import type { ClaimAnswer } from '../../workflows/idempotency/types';
import type { idempotencyKeyWorkflow } from '../../workflows/idempotency/workflow';
import type { ClientContext } from './context';

/**
 * How long a claim may go unanswered before another request may take it over: longer than any request of the API
 * runs (each of its Temporal calls has a 5 s deadline, and a request makes at most a few).
 */
export const IDEMPOTENCY_CLAIM_LEASE_MS = 60_000;

export interface IdempotentRequest {
  /** The operation, e.g. startOnRamp. */
  route: string;
  key: string;
  requestId: string;
}

const workflowIdOf = ({ route, key }: IdempotentRequest) =>
  idempotencyWorkflowId(route, createHash('sha256').update(key, 'utf8').digest('base64url'));

export function claimIdempotencyKey(
  context: ClientContext,
  request: IdempotentRequest & { fingerprint: string; retentionMs: number },
): Promise<ClaimAnswer> {
  return context.temporal.workflow.executeUpdateWithStart(claimIdempotencyKeyUpdate, {
    args: [
      { fingerprint: request.fingerprint, requestId: request.requestId, leaseMs: IDEMPOTENCY_CLAIM_LEASE_MS },
    ],
    startWorkflowOperation: new WithStartWorkflowOperation<typeof idempotencyKeyWorkflow>(
      WORKFLOW_TYPES.idempotencyKey,
      {
        workflowId: workflowIdOf(request),
        taskQueue: context.taskQueue,
        workflowIdConflictPolicy: 'USE_EXISTING',
        args: [{ retentionMs: request.retentionMs }],
      },
    ),
  });
}

export async function recordIdempotentAnswer(
  context: ClientContext,
  request: IdempotentRequest & { status: number; body: unknown },
): Promise<void> {
  await context.temporal.workflow
    .getHandle(workflowIdOf(request))
    .executeUpdate(recordIdempotentAnswerUpdate, {
      args: [{ requestId: request.requestId, status: request.status, body: request.body }],
    });
}

export async function releaseIdempotencyKey(
  context: ClientContext,
  request: IdempotentRequest,
): Promise<void> {
  await context.temporal.workflow
    .getHandle(workflowIdOf(request))
    .executeUpdate(releaseIdempotencyKeyUpdate, { args: [{ requestId: request.requestId }] });
}
