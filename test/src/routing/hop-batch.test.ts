import { ApplicationFailure } from '@temporalio/activity';
import { hopFailure, routeEachHop } from '../../../src/routing/hop-batch';
import type { RouteEventInput, RoutedEvent } from '../../../workflows/ramps/router/types';
import type { WorkflowTimings } from '../../../src/domain/timings';

const timings = { activityStartToCloseMs: 1_000 } as WorkflowTimings;

describe('a batch of hops (routeEvents)', () => {
  test('each hop gets its own answer, in the order asked, with the batch timings', async () => {
    const asked: RouteEventInput[] = [];
    const routeEvent = (input: RouteEventInput): Promise<RoutedEvent> => {
      asked.push(input);
      if (input.resourceId === 'client-down') return Promise.reject(new TypeError('fetch failed'));
      if (input.resourceId === 'rejected')
        return Promise.reject(
          ApplicationFailure.nonRetryable('operator said 409', 'OperatorRejected', { status: 409 }),
        );
      return Promise.resolve({ status: 'confirmed', duplicate: true });
    };
    const hops = ['a', 'client-down', 'rejected', 'b'].map((resourceId) => ({
      kind: 'transaction' as const,
      resourceId,
      lastStatus: 'confirmed',
    }));
    expect(await routeEachHop(routeEvent, { timings, hops }, 1_000)).toEqual([
      { routed: { status: 'confirmed', duplicate: true } },
      { failed: { type: 'TypeError', message: 'fetch failed', nonRetryable: false } },
      {
        failed: {
          type: 'OperatorRejected',
          message: 'operator said 409',
          nonRetryable: true,
          details: [{ status: 409 }],
        },
      },
      { routed: { status: 'confirmed', duplicate: true } },
    ]);
    expect(asked.map((input) => input.timings)).toEqual([timings, timings, timings, timings]);
  });

  test('a thrown value that is no error is still a retryable failure with its text', () => {
    expect(hopFailure('socket hang up')).toEqual({
      type: 'Error',
      message: 'socket hang up',
      nonRetryable: false,
    });
  });
});
