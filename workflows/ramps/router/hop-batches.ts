/**
 * The router's hops in batches. A lane asks for its hop as it would ask a routeEvent activity; the router sends the
 * hops asked for together in one routeEvents activity (up to MAX_HOPS_PER_BATCH each): one activity task, one schedule,
 * start and completion on the server, and one workflow task after it, however many lanes were ready. Each hop
 * fails on its own and is retried here as the operator retry policy would retry an activity of its own, so a lane
 * sees what routeEvent gave it: the answer, or an ActivityFailure once that policy gives up.
 * Workflow code.
 */
import { RetryState } from '@temporalio/common';
import { ActivityFailure, ApplicationFailure, proxyActivities, sleep } from '@temporalio/workflow';
import type { RampActivities } from '../../../activities';
import type { WorkflowTimings } from '../../../src/domain/timings';
import { operatorActivityOptions } from '../../shared/activity-options';
import { hopRetryWaitMs, MAX_HOPS_PER_BATCH } from './state';
import type { HopFailure, HopResult, RoutedEvent, RouteEventInput, RouteHop } from './types';

interface WaitingHop {
  hop: RouteHop;
  answer: (result: HopResult) => void;
  fail: (error: unknown) => void;
}

/** The failure a lane sees when the policy gives up on its hop: an activity's, caused by the operator's failure. */
function givenUp(failure: HopFailure): ActivityFailure {
  const cause = ApplicationFailure.create({
    type: failure.type,
    message: failure.message,
    nonRetryable: failure.nonRetryable,
    details: failure.details,
  });
  const retryState = failure.nonRetryable ? RetryState.NON_RETRYABLE_FAILURE : RetryState.TIMEOUT;
  return new ActivityFailure(failure.message, 'routeEvents', undefined, retryState, undefined, cause);
}

/** An answer a lane can read: a routed event with its status, or a failure. */
function isHopResult(result: unknown): result is HopResult {
  if (typeof result !== 'object' || result === null) return false;
  const { routed, failed } = result as { routed?: { status?: unknown }; failed?: { type?: unknown } };
  return typeof routed?.status === 'string' || typeof failed?.type === 'string';
}

export class HopBatches {
  private readonly waiting: WaitingHop[] = [];

  /** `timings`: the router's current ones, which each batch is scheduled and routed with. */
  constructor(private readonly timings: () => WorkflowTimings) {}

  /** True when lanes have asked for hops that no batch carries yet. */
  get pending(): boolean {
    return this.waiting.length > 0;
  }

  /** A lane's hop: answered once a batch routed it, retried alone while it fails and the policy allows. */
  async routeEvent(input: RouteEventInput): Promise<RoutedEvent> {
    // A batch routes with the router's current timings, not the lane's own.
    const hop: RouteHop = { kind: input.kind, resourceId: input.resourceId, lastStatus: input.lastStatus };
    const firstAttemptMs = Date.now();
    for (let attempt = 1; ; attempt += 1) {
      const result = await new Promise<HopResult>((answer, fail) => this.waiting.push({ hop, answer, fail }));
      if ('routed' in result) return result.routed;
      const waitMs = hopRetryWaitMs(this.timings(), result.failed, attempt, Date.now() - firstAttemptMs);
      if (waitMs === undefined) throw givenUp(result.failed);
      await sleep(waitMs);
    }
  }

  /** Sends every hop asked for so far, in batches; the lanes' promises settle when their batch completes. */
  flush(): void {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_HOPS_PER_BATCH);
      const timings = this.timings();
      const { routeEvents } = proxyActivities<RampActivities>(operatorActivityOptions(timings));
      routeEvents({ timings, hops: batch.map(({ hop }) => hop) }).then(
        (results) =>
          batch.forEach((waiting, index) => {
            const result: unknown = results[index];
            if (isHopResult(result)) waiting.answer(result);
            else
              waiting.fail(
                new Error(`routeEvents gave no answer for ${waiting.hop.kind} ${waiting.hop.resourceId}`),
              );
          }),
        (error: unknown) => batch.forEach((waiting) => waiting.fail(error)),
      );
    }
  }
}
