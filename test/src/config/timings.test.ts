import { loadWorkflowTimings } from '../../../src/config/timings';

describe('workflow timings', () => {
  test('an outcome attempt gets CLIENT_WEBHOOK_TIMEOUT and room to sign, connect and report back', () => {
    expect(loadWorkflowTimings({ CLIENT_WEBHOOK_TIMEOUT: '2s' }).outcomeDelivery?.attemptTimeoutMs).toBe(
      7_000,
    );
  });

  test('the durations no setting reads are the fixed ones', () => {
    expect(loadWorkflowTimings({})).toMatchObject({
      quoteTtlMs: 25_000,
      unknownResourceTimeoutMs: 600_000,
      outcomeDelivery: { retryInitialMs: 5_000, retryMaximumMs: 3_600_000, retryForMs: 86_400_000 },
    });
  });

  test('a duration that is not one is refused by name', () => {
    expect(() => loadWorkflowTimings({ RAMP_STEP_DEADLINE: 'soon' })).toThrow(
      /RAMP_STEP_DEADLINE: "soon" is not a duration/,
    );
  });
});
