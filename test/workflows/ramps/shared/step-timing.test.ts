import { failureNote, nextPollDelayMs, nextStepWait } from '../../../../workflows/ramps/shared/step-timing';
import { timings } from '../../../helpers/ramp-fixtures';

const NOW = 1_000_000;

describe('step timing', () => {
  beforeEach(() => jest.useFakeTimers({ now: NOW }));
  afterEach(() => jest.useRealTimers());

  test('before the deadline the process waits until the deadline', () => {
    const wait = nextStepWait(timings, {
      startedAtMs: NOW - 500,
      stepStartedMs: NOW - 500,
      pollDelayMs: 200,
    });
    expect(wait).toEqual({ deadlineMs: NOW + 1_500, late: false, waitMs: 1_500 });
  });

  test('after the deadline the process is late and waits one poll interval', () => {
    const wait = nextStepWait(timings, {
      startedAtMs: NOW - 5_000,
      stepStartedMs: NOW - 3_000,
      pollDelayMs: 400,
    });
    expect(wait).toEqual({ deadlineMs: NOW - 1_000, late: true, waitMs: 400 });
  });

  test('never waits past the process timeout', () => {
    const startedAtMs = NOW - timings.processTimeoutMs + 300;
    const wait = nextStepWait(timings, { startedAtMs, stepStartedMs: NOW, pollDelayMs: 200 });
    expect(wait.waitMs).toBe(300);
  });

  test('with nothing to poll it waits for the rest of the process time', () => {
    const wait = nextStepWait(
      timings,
      { startedAtMs: NOW - 1_000, stepStartedMs: NOW - 3_000, pollDelayMs: 200 },
      { canPoll: false },
    );
    expect(wait.late).toBe(true);
    expect(wait.waitMs).toBe(timings.processTimeoutMs - 1_000);
  });

  test('waits at least 1 ms, even past the process timeout', () => {
    const wait = nextStepWait(timings, {
      startedAtMs: NOW - 2 * timings.processTimeoutMs,
      stepStartedMs: NOW,
      pollDelayMs: 200,
    });
    expect(wait.waitMs).toBe(1);
  });

  test('the poll delay doubles up to the maximum', () => {
    expect(nextPollDelayMs(timings, 200)).toBe(400);
    expect(nextPollDelayMs(timings, 800)).toBe(timings.pollMaximumMs);
  });

  test('a failure note keeps what failed, the message and when', () => {
    expect(failureNote('poll', new Error('boom'))).toEqual({
      what: 'poll',
      message: 'boom',
      at: new Date(NOW).toISOString(),
    });
    expect(failureNote('read', 'plain').message).toBe('plain');
  });
});
