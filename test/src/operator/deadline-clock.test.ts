import type * as DeadlineClock from '../../../src/operator/deadline-clock';

describe('the deadline clock', () => {
  let monotonicMs: number;
  let wallMs: number;
  /** A fresh copy of the clock (it keeps how far the wall clock has jumped ahead), the two clocks agreeing at first. */
  let deadlineClockMs: () => number;
  beforeEach(() => {
    monotonicMs = 1_000;
    wallMs = performance.timeOrigin + monotonicMs;
    jest.spyOn(performance, 'now').mockImplementation(() => monotonicMs);
    jest.spyOn(Date, 'now').mockImplementation(() => wallMs);
    jest.isolateModules(() => {
      ({ deadlineClockMs } = jest.requireActual<typeof DeadlineClock>(
        '../../../src/operator/deadline-clock',
      ));
    });
  });
  afterEach(() => jest.restoreAllMocks());

  /** Real time passes: both clocks advance. */
  const pass = (ms: number) => {
    monotonicMs += ms;
    wallMs += ms;
  };

  test('runs with time and ignores a wall clock set back', () => {
    const start = deadlineClockMs();
    pass(500);
    expect(deadlineClockMs() - start).toBe(500);
    wallMs -= 60_000;
    pass(500);
    expect(deadlineClockMs() - start).toBe(1_000);
  });

  test('follows a wall clock that jumps forward (a suspend: the monotonic count stood still), never back', () => {
    const start = deadlineClockMs();
    pass(500);
    wallMs += 60_000;
    // Deadlines pass sooner, never later.
    expect(deadlineClockMs() - start).toBe(60_500);
    wallMs -= 60_000;
    pass(250);
    expect(deadlineClockMs() - start).toBe(60_750);
  });
});
