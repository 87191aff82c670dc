/**
 * The receiver's own hop, with a stand-in for the router's hop: what it answers for each outcome, and that its
 * budget bounds a hop that never ends (a login the read waits for is not bounded by the read's deadline).
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Hop, HopPlace } from '../../../src/routing/hop';
import { fastTimings } from '../../helpers/temporal';
import { captureLines } from '../../helpers/logs';
import { createDirectForward } from '../../../src/webhooks/direct-forward';
import type { RoutedEvent } from '../../../workflows/ramps/router/types';

function forwardWith(routeEvent: (place: HopPlace) => Promise<RoutedEvent>, timeoutMs = 1000) {
  const { logger, lines } = captureLines();
  const places: HopPlace[] = [];
  const hop = {
    routeEvent: (_input: unknown, place: HopPlace) => {
      places.push(place);
      return routeEvent(place);
    },
  } as unknown as Hop;
  const forward = createDirectForward({
    hop,
    taskQueue: 'ramps',
    timings: fastTimings(),
    timeoutMs,
    logger,
  });
  return { forward, lines, places };
}

describe('the receiver forwards a delivery itself', () => {
  test('a process that accepted the forward: its workflow ID, and the hop ran on the workers’ queue within the budget', async () => {
    const { forward, places } = forwardWith(() =>
      Promise.resolve({ status: 'confirmed', outcome: { workflowId: 'offramp/dep-1' } }),
    );
    const before = Date.now();
    expect(await forward('transaction', 'dep-1')).toEqual({ forwardedTo: 'offramp/dep-1' });
    expect(places[0]!.taskQueue).toBe('ramps');
    expect(places[0]!.deadline!.temporalMs).toBeGreaterThanOrEqual(before + 1000);
    expect(places[0]!.deadline!.temporalMs).toBeLessThanOrEqual(Date.now() + 1000);
  });

  test('a process that has ended, a resource of no process, a failed read: each handed to a router, and why', async () => {
    const ended = forwardWith(() =>
      Promise.resolve({
        status: 'confirmed',
        outcome: {
          workflowId: 'offramp/dep-2',
          closed: { executionStatus: 'COMPLETED', status: 'settled', closedAt: null },
        },
      }),
    );
    expect(await ended.forward('transaction', 'dep-2')).toEqual({ notForwarded: 'process-ended' });
    const unroutable = forwardWith(() =>
      Promise.resolve({ status: 'executed', unroutable: 'an off-ramp order' }),
    );
    expect(await unroutable.forward('order', 'ord-1')).toEqual({ notForwarded: 'unroutable' });
    const failed = forwardWith(() =>
      Promise.reject(
        ApplicationFailure.create({
          type: 'OperatorRejected',
          message: 'operator getTransaction failed with HTTP 404',
          details: [{ operation: 'getTransaction', code: 'not_found', status: 404 }],
        }),
      ),
    );
    expect(await failed.forward('transaction', 'tx-9')).toEqual({ notForwarded: 'failed' });
    expect(failed.lines()).toContainEqual(
      expect.objectContaining({
        msg: 'Delivery not forwarded by the receiver: handed to its router',
        kind: 'transaction',
        resourceId: 'tx-9',
        why: 'failed',
        error: 'operator getTransaction failed with HTTP 404',
      }),
    );
  });

  test('a read cut off by its deadline counts as out of time, not as a failure', async () => {
    const { forward } = forwardWith(() =>
      Promise.reject(
        ApplicationFailure.create({
          type: 'OperatorUnavailable',
          message: 'operator getTransaction timed out after 12 ms',
          details: [{ operation: 'getTransaction', code: 'timeout', status: null }],
        }),
      ),
    );
    expect(await forward('transaction', 'tx-1')).toEqual({ notForwarded: 'timed-out' });
  });

  test('a hop that never ends is given up at the budget', async () => {
    const { forward } = forwardWith(() => new Promise<RoutedEvent>(() => undefined), 50);
    const started = performance.now();
    expect(await forward('transaction', 'tx-2')).toEqual({ notForwarded: 'timed-out' });
    const tookMs = performance.now() - started;
    expect(tookMs).toBeGreaterThanOrEqual(45);
    expect(tookMs).toBeLessThan(1000);
  });
});
