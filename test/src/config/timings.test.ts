import { loadWorkflowTimings } from '../../../src/config/timings';

describe('workflow timings', () => {
  test('every timing has its default, and a setting that is not a duration is refused by name', () => {
    const timings = loadWorkflowTimings({});
    expect(timings.unknownResourceTimeoutMs).toBe(600_000);
    expect(timings.outcomeDelivery.retryForMs).toBe(86_400_000);
    expect(loadWorkflowTimings({ RAMP_UNKNOWN_RESOURCE_TIMEOUT: '30s' }).unknownResourceTimeoutMs).toBe(
      30_000,
    );
    expect(() => loadWorkflowTimings({ RAMP_UNKNOWN_RESOURCE_TIMEOUT: 'soon' })).toThrow(
      /RAMP_UNKNOWN_RESOURCE_TIMEOUT: "soon" is not a duration/,
    );
  });
});
