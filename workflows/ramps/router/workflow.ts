/**
 * routes/<task queue>/<n>: the durable fallback for the webhook deliveries the receiver cannot forward itself
 * (docs/architecture.md, "A delivery's way to its process"). One long-lived router per shard of the operator's
 * resources: the receiver signals-with-start the one its resource hashes to and answers 200 once the signal is in
 * Temporal, a signal to a running workflow rather than a new execution per delivery.
 *
 * Inside, each resource with deliveries is a lane (lane.ts: re-read, forward, retry, give up only on a resource the
 * operator does not know), lanes side by side, one hop each at most; the hops ready together go in one routeEvents
 * activity (hop-batches.ts). A lane whose deliveries are all routed is dropped (kept among the recent ones for
 * people looking in). When the history grows long the router stops starting hops, lets the running ones finish,
 * and continues as new with the lanes that still have deliveries or a retry to make.
 */
import { condition, setHandler } from '@temporalio/workflow';
import { shouldContinueAsNew } from '../../shared/continue-as-new';
import { routerStateQuery, webhookDeliveriesSignal } from './messages';
import { ROUTER_HISTORY_EVENTS } from './state';
import { RouterRun } from './steps';
import type { RouterInput } from './types';
import { continueOnCurrentVersion, declareReleaseBehaviour, watchReleases } from '../../shared/versioning';

export async function webhookRouterWorkflow(input: RouterInput): Promise<void> {
  const maxEvents = input.continueAsNewAfterEvents ?? ROUTER_HISTORY_EVENTS;
  const run = new RouterRun(input);
  run.publishMemo();

  // ---- messages
  setHandler(webhookDeliveriesSignal, ({ deliveries, timings }) => {
    run.timings = timings;
    for (const delivery of deliveries) run.accept(delivery);
    run.publishMemo();
  });
  setHandler(routerStateQuery, () => run.view());
  const newerVersion = watchReleases();
  const handOver = () => shouldContinueAsNew(maxEvents) || newerVersion();

  // ---- the loop
  for (;;) {
    await condition(() => run.hasLaneToStart() || run.hops.pending || handOver());
    if (handOver()) break;
    run.startReadyLanes();
    run.hops.flush();
    run.describe();
  }
  // Hand over: no new hop; running ones finish theirs (a wait to retry is cut short and carried).
  run.handingOver = true;
  for (;;) {
    await condition(() => run.lanesRunning === 0 || run.hops.pending);
    if (run.lanesRunning === 0) break;
    run.hops.flush();
  }
  await continueOnCurrentVersion<typeof webhookRouterWorkflow>()(run.continuedInput());
}

declareReleaseBehaviour(webhookRouterWorkflow, 'pinned, moves at continue-as-new');
