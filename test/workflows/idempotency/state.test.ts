import { claimKey, recordAnswer, releaseKey } from '../../../workflows/idempotency/state';
import type { IdempotencyKeyState } from '../../../workflows/idempotency/types';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
const claim = (fingerprint: string, requestId: string) => ({ fingerprint, requestId, leaseMs: 60_000 });

describe('idempotency key rules', () => {
  test('the first request runs; a repeat while it runs is in progress; once answered, a repeat gets the answer', () => {
    const state: IdempotencyKeyState = {};
    expect(claimKey(state, claim('f1', 'r1'), at(0))).toEqual({ outcome: 'execute' });
    expect(claimKey(state, claim('f1', 'r2'), at(1))).toEqual({ outcome: 'in-progress' });
    expect(recordAnswer(state, { requestId: 'r1', status: 201, body: { data: 1 } }, at(2))).toBe(true);
    expect(claimKey(state, claim('f1', 'r3'), at(3))).toEqual({
      outcome: 'replay',
      answer: { status: 201, body: { data: 1 }, recordedAt: at(2).toISOString() },
    });
    // The first answer stays: a second one changes nothing.
    expect(recordAnswer(state, { requestId: 'r2', status: 500, body: {} }, at(4))).toBe(false);
    expect(state.answer?.status).toBe(201);
  });

  test('the same key with another request is a mismatch, before and after the answer', () => {
    const state: IdempotencyKeyState = {};
    claimKey(state, claim('f1', 'r1'), at(0));
    expect(claimKey(state, claim('f2', 'r2'), at(1))).toEqual({ outcome: 'mismatch' });
    recordAnswer(state, { requestId: 'r1', status: 200, body: null }, at(2));
    expect(claimKey(state, claim('f2', 'r3'), at(3))).toEqual({ outcome: 'mismatch' });
  });

  test('a released key is fresh again, for any request; only its claimant releases it', () => {
    const state: IdempotencyKeyState = {};
    claimKey(state, claim('f1', 'r1'), at(0));
    expect(releaseKey(state, { requestId: 'other' })).toBe(false);
    expect(releaseKey(state, { requestId: 'r1' })).toBe(true);
    expect(state).toEqual({});
    expect(claimKey(state, claim('f2', 'r2'), at(1))).toEqual({ outcome: 'execute' });
  });

  test('a claim unanswered past its lease is taken over (its API died); the late claimant cannot release it', () => {
    const state: IdempotencyKeyState = {};
    claimKey(state, claim('f1', 'r1'), at(0));
    expect(claimKey(state, claim('f1', 'r2'), at(59))).toEqual({ outcome: 'in-progress' });
    expect(claimKey(state, claim('f1', 'r2'), at(61))).toEqual({ outcome: 'execute' });
    expect(releaseKey(state, { requestId: 'r1' })).toBe(false);
    expect(state.claim?.requestId).toBe('r2');
  });
});
