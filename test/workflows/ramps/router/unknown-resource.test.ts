import {
  isOperatorNotFound,
  recordGiveUp,
  recordNotFound,
  unknownResourceRetry,
} from '../../../../workflows/ramps/router/unknown-resource';
import type { LaneState } from '../../../../workflows/ramps/router/types';
import { timings } from '../../../helpers/ramp-fixtures';

describe('unknown resource', () => {
  test("the operator's not-found answer is found through the failure's causes, whatever its status", () => {
    const rejected = { type: 'OperatorRejected', details: [{ code: 'not_found', status: 404 }] };
    expect(isOperatorNotFound({ message: 'activity failed', cause: rejected })).toBe(true);
    const gone = { type: 'OperatorRejected', details: [{ code: 'not_found', status: 410 }] };
    expect(isOperatorNotFound({ message: 'activity failed', cause: gone })).toBe(true);
    expect(
      isOperatorNotFound({ type: 'OperatorRejected', details: [{ code: 'http_error', status: 404 }] }),
    ).toBe(false);
    expect(
      isOperatorNotFound({ type: 'OperatorRejected', details: [{ code: 'bad_request', status: 400 }] }),
    ).toBe(false);
    expect(
      isOperatorNotFound({ type: 'OperatorUnavailable', details: [{ code: 'not_found', status: 404 }] }),
    ).toBe(false);
    expect(isOperatorNotFound(new Error('boom'))).toBe(false);
  });

  test('reads double their wait without the poll maximum, never past the give-up time, then give up', () => {
    const t = { ...timings, unknownResourceTimeoutMs: 10_000 };
    expect(unknownResourceRetry(t, { firstNotFoundAtMs: 0, delayMs: 4_000, nowMs: 1_000 })).toEqual({
      giveUp: false,
      waitMs: 4_000,
      nextDelayMs: 8_000,
    });
    expect(unknownResourceRetry(t, { firstNotFoundAtMs: 0, delayMs: 8_000, nowMs: 7_000 }).waitMs).toBe(
      3_000,
    );
    expect(unknownResourceRetry(t, { firstNotFoundAtMs: 0, delayMs: 8_000, nowMs: 10_000 }).giveUp).toBe(
      true,
    );
  });

  test('404 reads are counted from the first one, and giving up records why', () => {
    const state: LaneState = {
      kind: 'order',
      resourceId: 'o-1',
      eventsReceived: 1,
      duplicates: 0,
      forwardedTo: [],
      events: [],
    };
    recordNotFound(state, Date.parse('2026-01-01T00:00:00.000Z'));
    recordNotFound(state, Date.parse('2026-01-01T00:00:09.000Z'));
    expect(state.unknownResource).toEqual({ firstNotFoundAt: '2026-01-01T00:00:00.000Z', reads: 2 });
    const why = recordGiveUp(
      state,
      { ...timings, unknownResourceTimeoutMs: 30_000 },
      3,
      '2026-01-01T00:00:30.000Z',
    );
    expect(why).toBe('the operator answered 404 for order o-1 for 30 s (2 reads): gave up');
    expect(state.unknownResource).toMatchObject({ gaveUpAt: '2026-01-01T00:00:30.000Z', eventsDropped: 3 });
  });
});
