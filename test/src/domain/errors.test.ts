import {
  ActivityFailure,
  ApplicationFailure,
  RetryState,
  TimeoutFailure,
  TimeoutType,
} from '@temporalio/common';
import { errorMessage, failureReason, formatIssues } from '../../../src/domain/errors';

describe('error text', () => {
  test('errorMessage: an Error gives its message, anything else its string form', () => {
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
  });

  test('failureReason: the cause chain without the activity wrapper, so a process shows why, not that, it failed', () => {
    const operator = ApplicationFailure.retryable('operator answered HTTP 503', 'OperatorUnavailable');
    const wrapped = new ActivityFailure(
      'Activity task failed',
      'routeEvent',
      '1',
      RetryState.TIMEOUT,
      '',
      operator,
    );
    expect(errorMessage(wrapped)).toBe('Activity task failed');
    expect(failureReason(wrapped)).toBe('operator answered HTTP 503');
    const timeout = new TimeoutFailure(
      'activity ScheduleToClose timeout',
      undefined,
      TimeoutType.SCHEDULE_TO_CLOSE,
    );
    Object.assign(timeout, { cause: new Error('endpoint 1 (127.0.0.1:9) answered HTTP 500') });
    const outOfTime = new ActivityFailure(
      'Activity task failed',
      'deliver',
      '2',
      RetryState.TIMEOUT,
      '',
      timeout,
    );
    expect(failureReason(outOfTime)).toBe(
      'activity ScheduleToClose timeout: endpoint 1 (127.0.0.1:9) answered HTTP 500',
    );
    // A message repeated down the chain is said once.
    expect(
      failureReason(new Error('wrapper', { cause: new Error('same', { cause: new Error('same') }) })),
    ).toBe('same');
    expect(failureReason(new Error('plain'))).toBe('plain');
    expect(failureReason('text')).toBe('text');
  });

  test('formatIssues: path: message per issue, (root) for the value itself, after an optional prefix', () => {
    const issues = [
      { path: [], message: 'must be an object' },
      { path: ['gas', 'ETH'], message: 'must be a decimal string' },
      { path: ['urls', 0], message: 'must begin with https://' },
      { path: [Symbol('key')], message: 'odd key' },
    ];
    expect(formatIssues(issues)).toEqual([
      '(root): must be an object',
      'gas.ETH: must be a decimal string',
      'urls.0: must begin with https://',
      'Symbol(key): odd key',
    ]);
    expect(formatIssues(issues.slice(1, 2), '  ')).toEqual(['  gas.ETH: must be a decimal string']);
    expect(formatIssues([])).toEqual([]);
  });
});
