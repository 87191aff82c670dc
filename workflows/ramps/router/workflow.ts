/**
 * transaction/<id> and order/<id>: the receiver's durable inbox for one operator resource.
 *
 * The receiver signal-with-starts this workflow and answers 200 once the signal is in Temporal. The workflow then
 * re-reads the resource by ID (the payload is only a hint), works out which process owns it and forwards the
 * fresh snapshot there (signal-with-start, so an event that arrives before its process exists still lands).
 * Several deliveries that arrive together are coalesced into one read. It ends once its inbox is empty (after
 * RAMP_ROUTER_LINGER, when set, with no new delivery); a later delivery for the same resource starts a new run
 * under the same ID (its history stays small).
 */
import {
  condition,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { RampActivities } from '../../../activities';
import { RampStatus } from '../../../src/temporal/search-attributes';
import { operatorActivityOptions, operatorLocalActivityOptions } from '../../shared/activity-options';
import { hasPatch } from '../../shared/patches';
import { extendLane, newLane, routeLane } from './lane';
import { routerStateQuery, webhookEventSignal } from './messages';
import { forwardedDetails, lingerMs, lingeringDetails, recordEvent } from './state';
import { type RouteEventInput, type RouterInput, type RouterState, UNKNOWN_RESOURCE_STATUS } from './types';

export async function webhookRouterWorkflow(input: RouterInput): Promise<RouterState> {
  const { timings } = input;
  const activities = proxyActivities<RampActivities>(operatorActivityOptions(timings));
  // A hop is one scheduled activity (routeEvent, in the lane). Runs recorded before take the separate ones, and
  // those started while routers used local activities keep them on replay (docs/architecture.md, "A router's hop
  // stays in scheduled activities").
  const hop =
    !hasPatch(input, 'router-activities-restored') && patched('router-local-activities')
      ? proxyLocalActivities<RampActivities>(operatorLocalActivityOptions(timings))
      : activities;
  const lane = newLane(input, Date.now());
  const { state, inbox } = lane;

  // ---- messages
  setHandler(webhookEventSignal, (event) => {
    inbox.push(event);
    recordEvent(state, event);
  });
  setHandler(routerStateQuery, () => state);

  // ---- the loop
  // Started by signal-with-start: the first event is in the inbox before this line runs.
  await condition(() => inbox.length > 0, timings.activityStartToCloseMs);
  extendLane(lane, Date.now());
  const host = {
    activities,
    hop,
    routeEvent: (hopInput: RouteEventInput) => activities.routeEvent(hopInput),
    describe: setCurrentDetails,
    paused: () => false,
    waitBeforeRetry: async (waitMs: number) => {
      await sleep(waitMs);
      return false;
    },
    gaveUpUnknownResource: (why: string) => {
      setCurrentDetails(`Unknown resource: ${why}`);
      upsertSearchAttributes([{ key: RampStatus, value: UNKNOWN_RESOURCE_STATUS }]);
    },
  };
  for (;;) {
    await routeLane(lane, host);
    if (state.unknownResource?.gaveUpAt) break;
    // Open a while longer when configured and another event is due: it is then a signal, not a new run.
    const waitMs = lingerMs(timings, state, workflowInfo().historyLength);
    if (waitMs <= 0) break;
    setCurrentDetails(lingeringDetails(state, waitMs));
    if (!(await condition(() => inbox.length > 0, waitMs))) break;
    extendLane(lane, Date.now());
  }
  if (!state.unknownResource?.gaveUpAt) setCurrentDetails(forwardedDetails(state));
  return state;
}
