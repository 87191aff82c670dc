/**
 * The rules of one idempotency key, Stripe's: the first request runs; a repeat with the same request gets the first
 * answer again; the same key with another request is refused; a repeat while the first still runs is refused too.
 * An answer that says "try again" (released) keeps nothing, so a retry runs afresh. Pure: `now` is passed in.
 */
import type {
  ClaimAnswer,
  ClaimRequest,
  IdempotencyKeyState,
  RecordAnswerRequest,
  ReleaseRequest,
} from './types';

export function claimKey(state: IdempotencyKeyState, request: ClaimRequest, now: Date): ClaimAnswer {
  if (state.fingerprint !== undefined && state.fingerprint !== request.fingerprint)
    return { outcome: 'mismatch' };
  if (state.answer) return { outcome: 'replay', answer: state.answer };
  const claim = state.claim;
  if (claim && now.getTime() - Date.parse(claim.claimedAt) < claim.leaseMs) return { outcome: 'in-progress' };
  // Unclaimed, or its claimant went silent past the lease (the API died mid-request): this request runs.
  state.fingerprint = request.fingerprint;
  state.claim = { requestId: request.requestId, claimedAt: now.toISOString(), leaseMs: request.leaseMs };
  return { outcome: 'execute' };
}

/** Keeps the first answer of the key's request (a later one, from a claimant that lost its lease, changes nothing). */
export function recordAnswer(state: IdempotencyKeyState, request: RecordAnswerRequest, now: Date): boolean {
  if (state.answer || state.fingerprint === undefined) return false;
  state.answer = { status: request.status, body: request.body, recordedAt: now.toISOString() };
  delete state.claim;
  return true;
}

/** The claimant ran nothing worth keeping (invalid input, or a failure to retry): the key is fresh again. */
export function releaseKey(state: IdempotencyKeyState, request: ReleaseRequest): boolean {
  if (state.answer || state.claim?.requestId !== request.requestId) return false;
  delete state.claim;
  delete state.fingerprint;
  return true;
}
