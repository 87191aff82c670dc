/** The messages of an idempotency key's workflow. The name strings are part of recorded histories: they never change. */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type {
  ClaimAnswer,
  ClaimRequest,
  IdempotencyKeyState,
  RecordAnswerRequest,
  ReleaseRequest,
} from './types';

/** Sent with start: answers whether this request runs, waits, is refused, or gets the first answer again. */
export const claimIdempotencyKeyUpdate = defineUpdate<ClaimAnswer, [ClaimRequest]>('claimIdempotencyKey');
export const recordIdempotentAnswerUpdate = defineUpdate<boolean, [RecordAnswerRequest]>(
  'recordIdempotentAnswer',
);
export const releaseIdempotencyKeyUpdate = defineUpdate<boolean, [ReleaseRequest]>('releaseIdempotencyKey');
export const idempotencyKeyStateQuery = defineQuery<IdempotencyKeyState>('idempotencyKeyState');
