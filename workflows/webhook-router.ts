/**
 * transaction/<id> and order/<id>: the receiver's durable inbox for one operator resource.
 *
 * The receiver signal-with-starts this workflow and answers 200 once the signal is in Temporal. The workflow then
 * re-reads the resource by ID (the payload is only a hint), works out which process owns it and forwards the
 * fresh snapshot there (signal-with-start, so an event that arrives before its process exists still lands).
 * Several deliveries that arrive together are coalesced into one read. It ends as soon as its inbox is empty;
 * a later delivery for the same resource starts a new run under the same ID (its history stays small).
 */
import { condition, log, proxyActivities, setCurrentDetails, setHandler, sleep } from '@temporalio/workflow';
import type { RampActivities } from '../activities';
import { operatorActivityOptions } from './activity-options';
import { failureNote, nextPollDelayMs } from './step-timing';
import { routerStateQuery, webhookEventSignal } from './messages';
import { type RouterInput, type RouterState, routeTransaction, type WebhookEventSignal } from './ramp-types';

const KEEP_EVENTS = 20;

export async function webhookRouterWorkflow(input: RouterInput): Promise<RouterState> {
  const { kind, resourceId, timings } = input;
  const activities = proxyActivities<RampActivities>(operatorActivityOptions(timings));
  const state: RouterState = { kind, resourceId, eventsReceived: 0, duplicates: 0, forwardedTo: [], events: [] };
  const inbox: WebhookEventSignal[] = [];

  setHandler(webhookEventSignal, (event) => {
    inbox.push(event);
    state.eventsReceived += 1;
    state.events.push(event);
    if (state.events.length > KEEP_EVENTS) state.events.shift();
  });
  setHandler(routerStateQuery, () => state);

  // Started by signal-with-start: the first event is in the inbox before this line runs.
  await condition(() => inbox.length > 0, timings.activityStartToCloseMs);
  // The receiver already answered 200: this run is the event's only copy, so a failed read or forward (operator
  // outage, a 404 while the operator's read lags its own webhook) keeps the batch and tries again with backoff.
  const giveUpAtMs = Date.now() + timings.processTimeoutMs;
  let retryDelayMs = timings.pollInitialMs;
  while (inbox.length > 0) {
    const batch = inbox.splice(0);
    try {
      await handle(batch);
      retryDelayMs = timings.pollInitialMs;
    } catch (error) {
      if (Date.now() >= giveUpAtMs) throw error;
      inbox.unshift(...batch);
      state.lastFailure = failureNote(`re-read or forward of ${kind} ${resourceId}`, error);
      log.warn('Router could not finish; retrying', { kind, resourceId, retryInMs: retryDelayMs, error: state.lastFailure.message });
      setCurrentDetails(`Re-read or forward of ${kind} ${resourceId} failed; retrying in ${Math.round(retryDelayMs / 1000)} s`);
      await sleep(retryDelayMs);
      retryDelayMs = nextPollDelayMs(timings, retryDelayMs);
    }
  }
  setCurrentDetails(`Forwarded to ${state.forwardedTo.join(', ') || 'nobody'}`);
  return state;

  async function handle(batch: WebhookEventSignal[]): Promise<void> {
    setCurrentDetails(`Re-reading ${kind} ${resourceId} after ${batch.map((event) => event.eventType).join(', ')}`);
    if (kind === 'transaction') {
      const tx = await activities.readTransactionSnapshot({ id: resourceId });
      if (tx.status === state.lastStatus) {
        state.duplicates += batch.length;
        return;
      }
      state.lastStatus = tx.status;
      const route = routeTransaction(tx);
      if (route.kind === 'offramp') {
        remember(
          await activities.forwardToOffRamp({
            depositTransactionId: route.depositTransactionId,
            signal: { role: route.role, transaction: tx },
            timings,
          }),
        );
      } else if (route.kind === 'onramp-order') {
        const order = await activities.readOrderSnapshot({ id: route.orderId });
        remember(await activities.forwardToOnRamp({ orderReference: order.orderReference, order, transaction: tx, timings }));
      } else {
        state.unroutable = route.reason;
        log.warn('Transaction belongs to no ramp process', { transactionId: resourceId, reason: route.reason });
      }
    } else {
      const order = await activities.readOrderSnapshot({ id: resourceId });
      if (order.status === state.lastStatus) {
        state.duplicates += batch.length;
        return;
      }
      state.lastStatus = order.status;
      if (order.direction === 'off-ramp') {
        // ASSUMED not sent; the off-ramp reads its AutoSwap order itself (through its sweep), so nothing to forward.
        state.unroutable = 'off-ramp order: read by its off-ramp process';
      } else {
        remember(await activities.forwardToOnRamp({ orderReference: order.orderReference, order, timings }));
      }
    }
  }

  function remember(workflowId: string) {
    if (!state.forwardedTo.includes(workflowId)) state.forwardedTo.push(workflowId);
  }
}
