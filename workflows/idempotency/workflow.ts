/**
 * idempotency/<route>/<key digest>: one Idempotency-Key of one POST route, kept in Temporal so that it holds across
 * API restarts and replicas. Started by the first request with update-with-start; it keeps the first answer for the
 * retention, then ends (a key used again after that starts afresh). No activities: updates and one timer.
 */
import { allHandlersFinished, condition, setHandler, sleep } from '@temporalio/workflow';
import {
  claimIdempotencyKeyUpdate,
  idempotencyKeyStateQuery,
  recordIdempotentAnswerUpdate,
  releaseIdempotencyKeyUpdate,
} from './messages';
import { claimKey, recordAnswer, releaseKey } from './state';
import type { IdempotencyKeyInput, IdempotencyKeyState } from './types';
import { declareReleaseBehaviour } from '../shared/versioning';

export async function idempotencyKeyWorkflow(input: IdempotencyKeyInput): Promise<void> {
  const state: IdempotencyKeyState = {};
  setHandler(claimIdempotencyKeyUpdate, (request) => claimKey(state, request, new Date()));
  setHandler(recordIdempotentAnswerUpdate, (request) => recordAnswer(state, request, new Date()));
  setHandler(releaseIdempotencyKeyUpdate, (request) => releaseKey(state, request));
  setHandler(idempotencyKeyStateQuery, () => state);

  // Without an answer within the retention (every claim released) there is nothing to keep.
  if (await condition(() => state.answer !== undefined, input.retentionMs)) await sleep(input.retentionMs);
  await condition(allHandlersFinished);
}

declareReleaseBehaviour(idempotencyKeyWorkflow, 'pinned');
