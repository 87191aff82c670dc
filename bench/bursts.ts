/**
 * Bursts: `burstSize` (10) off-ramps posted at once through the sandbox, on the whole stack (bench/lib/ramp-stack.ts:
 * the sandbox at time scale 0.001 delivering its webhooks over HTTPS to the receiver, routers and off-ramps on a worker
 * process, the npm-start server). Each off-ramp is a first deposit to an end user's own deposit wallet (so its chain
 * has every event: deposit, gas top-up, sweep, order transaction); the gas wallet pays for all of them. The
 * off-ramps run with a 60 s step deadline (RAMP_STEP_DEADLINE; the first poll for a late event comes only after it),
 * so no lost-event poll can help within the leg: they settle on webhooks alone, or the leg's 60 s time limit ends it
 * (earlier when the sandbox has delivered everything and no off-ramp closed for 10 s: nothing else can move them).
 *
 * Figure: the median settle time, from a deposit's POST to the sandbox (client clock) to its off-ramp's settled state
 * (the timestamp of its `off_ramp.settled` outcome event in the stack's ledger: the workflow time of the task that
 * settled it), against
 * the sandbox's own schedule for that chain: 3 steps and 2 confirmations (stepDelayMs 2 s, confirmationDelayMs
 * 30 s), each scaled by the time scale as the sandbox's scheduler scales it (66 ms at 0.001), which is when the
 * chain's last event is published at the earliest. Target: median <= schedule + 1 s, with every off-ramp settled
 * within the time limit and one run each (an unsettled one counts as never). One burst.
 * Where the time goes, from the sandbox's own logs: when each chain's last event was published and its last webhook
 * acknowledged; and from the routers' and off-ramps' histories, how long their workflow tasks waited for a worker
 * (a new run's first task apart from the cached runs' later ones) and then took. Two bursts: the sandbox starting its
 * first attempts to the receiver one after the other, in event order (deliveryConcurrency 1, its default),
 * and `deliveryConcurrency` at once (the spec does not say how many the operator sends at once).
 */
import { offRampWorkflowId } from '../src/domain/ids';
import type { BenchContext } from './lib/context';
import { type BenchSettings, type Measurement } from './lib/measurement';
import type { Figure } from './lib/report';
import {
  chainDeliveries,
  offRampResults,
  offRampRuns,
  offRampScheduleMs,
  settledEvents,
  startRampStack,
  rampRunHistories,
  runningStatuses,
  waitForOffRamps,
} from './lib/ramp-stack';
import { median, summarize } from './lib/stats';
import { taskWaits } from './lib/task-waits';

const TIME_SCALE = 0.001;
const STEP_DEADLINE_MS = 60_000;
const TIME_LIMIT_MS = 60_000;
/** With the sandbox done, no off-ramp closing for this long means only a step deadline could move the rest. */
const QUIET_MS = 10_000;
const WORKER_START_TIMEOUT_MS = 180_000;

export const bursts: Measurement = {
  name: 'bursts',
  description:
    'off-ramps posted at once through the sandbox (time scale 0.001): median settle time vs its schedule',
  async run(context, settings, _shared, log) {
    const counts = [...new Set([1, settings.deliveryConcurrency])];
    const legs: Record<string, unknown> = {};
    const figures: Figure[] = [];
    for (const deliveryConcurrency of counts) {
      const leg = await burst(context, settings, deliveryConcurrency, log);
      figures.push(leg.figure);
      legs[`delivery concurrency ${deliveryConcurrency}`] = leg.leg;
    }
    return { figures, legs };
  },
};

const deliveryMode = (concurrency: number) =>
  concurrency === 1 ? 'one after the other' : `up to ${concurrency} at once`;

async function burst(
  context: BenchContext,
  settings: BenchSettings,
  deliveryConcurrency: number,
  log: (line: string) => void,
): Promise<{ figure: Figure; leg: Record<string, unknown> }> {
  const size = settings.burstSize;
  const timings = { ...context.timings, stepDeadlineMs: STEP_DEADLINE_MS };
  const stack = await startRampStack(context, {
    label: `burst-d${deliveryConcurrency}`,
    timeScale: TIME_SCALE,
    timings,
    gasTrx: String(100 * size),
    deliveryConcurrency,
    startTimeoutMs: WORKER_START_TIMEOUT_MS,
    log,
  });
  try {
    const addresses = await stack.endUsers(
      size,
      Math.min(size, settings.concurrency),
      settings.legTimeLimitMs,
    );
    const posted = await Promise.all(addresses.map((address) => stack.deposit(address)));
    const postedAt = new Map(posted.map(({ depositId, postedAtMs }) => [depositId, postedAtMs]));
    const ids = posted.map(({ depositId }) => depositId);
    const { closed, stalled } = await waitForOffRamps(stack, size, TIME_LIMIT_MS, QUIET_MS);
    const runs = await offRampRuns(stack);
    const results = await offRampResults(stack, runs, ids, size);
    const unsettled = ids.filter((id) => results.get(id)?.status !== 'settled');
    const stillRunning = await runningStatuses(
      stack,
      unsettled.filter((id) => !results.has(id)),
    );
    const scheduleMs = offRampScheduleMs(stack.sandbox);
    const waits = taskWaits(await rampRunHistories(stack));

    const settle: number[] = [];
    const lastEvent: number[] = [];
    const lastDelivered: number[] = [];
    let deliveries = 0;
    let ackMs = 0;
    const settledBy = await settledEvents(stack);
    for (const id of ids) {
      const state = results.get(id);
      const at = state?.status === 'settled' ? settledBy.get(offRampWorkflowId(id))?.atMs : undefined;
      if (at !== undefined && at - postedAt.get(id)! <= TIME_LIMIT_MS) settle.push(at - postedAt.get(id)!);
      const chain = chainDeliveries(stack.sandbox, id);
      if (chain) {
        lastEvent.push(chain.lastEventMs - postedAt.get(id)!);
        lastDelivered.push(chain.lastDeliveredMs - postedAt.get(id)!);
        deliveries += chain.delivered;
        ackMs += chain.ackMs;
      }
    }
    const settled = settle.length;
    const oneRunEach = ids.every((id) => runs.get(offRampWorkflowId(id))?.length === 1);
    const polls = [...results.values()].reduce((sum, state) => sum + state.polls, 0);
    // Unsettled ones count as never: the median is then the time limit's or more.
    const medianSettle = median([...settle, ...Array<number>(size - settled).fill(Number.POSITIVE_INFINITY)]);
    const unsettledText = Object.entries(stillRunning)
      .map(([status, count]) => `${count} ${status}`)
      .join(', ');
    log(
      `[bursts] webhooks ${deliveryMode(deliveryConcurrency)}: ${settled} of ${size} settled (${closed} closed${stalled ? ', the rest stalled' : ''}${unsettledText ? `: ${unsettledText}` : ''}), median ${medianSettle.toFixed(0)} ms against a ` +
        `schedule of ${scheduleMs} ms; last event median ${median(lastEvent).toFixed(0)} ms, last webhook ` +
        `acknowledged median ${median(lastDelivered).toFixed(0)} ms`,
    );
    return {
      figure: {
        measurement: 'bursts',
        what: `median settle time, ${size} off-ramps posted at once, time scale ${TIME_SCALE}, webhooks ${deliveryMode(deliveryConcurrency)}`,
        value: medianSettle,
        unit: 'ms',
        baseline: { what: "the sandbox's schedule for the chain", value: scheduleMs },
        comparison: 'difference',
        target: '<= +1000 ms',
        met: settled === size && oneRunEach && medianSettle <= scheduleMs + 1000,
        note:
          `${settled} of ${size} settled within ${TIME_LIMIT_MS / 1000} s${unsettledText ? ` (still running: ${unsettledText}${stalled ? `, nothing moved them for ${QUIET_MS / 1000} s after the sandbox had delivered everything` : ''})` : ''}, ` +
          `${oneRunEach ? 'one run each' : 'NOT one run each'}, ${polls} reads of their own (polls; a deposit ` +
          `read when another transaction's event started the process counts); ` +
          `slowest settled ${settle.length > 0 ? Math.max(...settle).toFixed(0) : '-'} ms; medians from the POST: chain's last event published ` +
          `${median(lastEvent).toFixed(0)} ms, its last webhook acknowledged ${median(lastDelivered).toFixed(0)} ms; ` +
          `${deliveries} webhooks delivered ${deliveryMode(deliveryConcurrency)}, ${(ackMs / Math.max(1, deliveries)).toFixed(0)} ms ` +
          `each on average (the receiver's ack as the sandbox timed it); workflow tasks of the routers and off-ramps, ` +
          `medians: a run's first waited ${median(waits.firstPickupMs).toFixed(0)} ms to be picked up ` +
          `(${waits.firstPickupMs.length} runs), a later one ${median(waits.laterPickupMs).toFixed(0)} ms, and each took ` +
          `${median(waits.runMs).toFixed(0)} ms from pickup to completion`,
      },
      leg: {
        size,
        scheduleMs,
        settleMs: settle,
        lastEventMs: lastEvent,
        lastDeliveredMs: lastDelivered,
        deliveries,
        ackMs,
        polls,
        oneRunEach,
        taskWaits: {
          firstPickupMs: summarize(waits.firstPickupMs),
          laterPickupMs: summarize(waits.laterPickupMs),
          runMs: summarize(waits.runMs),
        },
        stillRunning,
        workerStartMs: stack.workerStartMs,
      },
    };
  } finally {
    await stack.close();
  }
}
