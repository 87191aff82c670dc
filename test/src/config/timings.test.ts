import { loadWorkflowTimings } from '../../../src/config/timings';

describe('workflow timings', () => {
  test('RAMP_ROUTER_LINGER is a duration in the routers’ input; unset, 0 (a router ends once its inbox is empty)', () => {
    expect(loadWorkflowTimings({ RAMP_ROUTER_LINGER: '30s' }).routerLingerMs).toBe(30_000);
    expect(loadWorkflowTimings({ RAMP_ROUTER_LINGER: '0s' }).routerLingerMs).toBe(0);
    expect(loadWorkflowTimings({}).routerLingerMs).toBe(0);
  });

  test('a linger that is not a duration is refused by name', () => {
    expect(() => loadWorkflowTimings({ RAMP_ROUTER_LINGER: 'soon' })).toThrow(
      /RAMP_ROUTER_LINGER: "soon" is not a duration/,
    );
  });
});
