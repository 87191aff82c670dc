/**
 * Concurrent off-ramps: `offRamps` (1,000) deposits posted to the sandbox as fast as a closed loop of `concurrency`
 * posts them, spread in turn over the deposit wallets of `offRampUsers` end users (a user's first deposit on Tron also
 * brings the gas top-up; the next ones do not), on the whole stack (bench/lib/ramp-stack.ts: the sandbox at time
 * scale 0.01 delivering its webhooks over HTTPS to the receiver, `deliveryConcurrency` at once (the concurrency of the
 * closed loop that measured the receiver's rate), routers and off-ramps on a worker process, the
 * npm-start server), with the product's default timings (no poll before RAMP_STEP_DEADLINE, 30 min: they settle on
 * webhooks). Waits until all have closed, `settleTimeLimitMs` passes, or nothing moves any more once the sandbox has
 * delivered everything.
 *
 * Each must settle exactly once: one run per workflow ID on the task queue (visibility), its result (final state)
 * `settled`, and exactly one `off_ramp.settled` outcome event in the stack's ledger.
 * Figure: their rate, settled off-ramps per second from the first POST to the last settlement (each one's
 * `off_ramp.settled` timestamp). Baseline: what the receiver's own rate allows, i.e. the receiver's closed-loop
 * deliveries per second on the same server (the signal path's leg of this run, or measured here when run alone)
 * divided by the deliveries one off-ramp needed (200s in the sandbox's delivery log for the off-ramps' transactions,
 * over their count). Target >= 0.5x. The note has the worker's and the dev server's cores and the worker's RSS.
 * Beside it, against the same baseline, Temporal's floor for the off-ramps' side of it (bench/floor): as many
 * processes that only apply as many signals as the off-ramps' webhooks, sent from this process as fast as the
 * receiver's concurrency allows, and close.
 */
import { offRampWorkflowId } from '../src/domain/ids';
import { closedLoop } from './lib/load';
import { cpuSeconds, residentMiB } from './lib/machine';
import { type Measurement } from './lib/measurement';
import {
  chainDeliveries,
  offRampResults,
  offRampRuns,
  runningStatuses,
  settledEvents,
  startRampStack,
  waitForOffRamps,
} from './lib/ramp-stack';
import { receiverMaximum } from './lib/rates';
import { persistencePerUnit } from './lib/server-metrics';
import { loadWorkerConfig } from '../src/config/worker';
import { startFloorWorker } from './floor/worker';
import type { BenchContext } from './lib/context';

const TIME_SCALE = 0.01;
const QUIET_MS = 15_000;
const WORKER_START_TIMEOUT_MS = 180_000;
/** At most this many still-running off-ramps are asked for their state when some did not settle. */
const STATUS_SAMPLE = 50;

export const concurrentOffRamps: Measurement = {
  name: 'concurrent-offramps',
  description:
    'many off-ramps through the sandbox (time scale 0.01): all settle once; rate vs the receiver rate',
  async run(context, settings, shared, log) {
    const count = settings.offRamps;
    const receiverRateFrom = shared.receiverThroughput === undefined ? 'measured here' : 'the signal path';
    const receiverRate = await receiverMaximum(context, settings, shared, log);
    const stack = await startRampStack(context, {
      label: 'many',
      timeScale: TIME_SCALE,
      timings: context.timings,
      gasTrx: String(100 * count),
      deliveryConcurrency: settings.deliveryConcurrency,
      startTimeoutMs: WORKER_START_TIMEOUT_MS,
      log,
    });
    try {
      const users = Math.min(settings.offRampUsers, count);
      const setupStartedAt = performance.now();
      const addresses = await stack.endUsers(users, settings.concurrency, settings.settleTimeLimitMs);
      log(
        `[concurrent-offramps] ${users} deposit wallets in ${((performance.now() - setupStartedAt) / 1000).toFixed(1)} s; posting ${count} deposits`,
      );

      const workerBefore = await cpuSeconds(stack.workerPid);
      const devServerBefore = await cpuSeconds(context.subject.server.pid);
      const benchBefore = process.cpuUsage();
      const persistenceBefore = await context.subjectPersistence?.();
      const startedAt = Date.now();
      const posted: { depositId: string; postedAtMs: number }[] = [];
      const posting = await closedLoop({
        count,
        concurrency: settings.concurrency,
        timeLimitMs: settings.settleTimeLimitMs,
        send: async (index) => {
          posted.push(await stack.deposit(addresses[index % users]!));
          return true;
        },
      });
      const ids = posted.map(({ depositId }) => depositId);
      const postedAt = new Map(posted.map(({ depositId, postedAtMs }) => [depositId, postedAtMs]));
      const { closed, stalled } = await waitForOffRamps(
        stack,
        ids.length,
        Math.max(0, settings.settleTimeLimitMs - (Date.now() - startedAt)),
        QUIET_MS,
      );
      const seconds = (Date.now() - startedAt) / 1000;
      const workerAfter = await cpuSeconds(stack.workerPid);
      const devServerAfter = await cpuSeconds(context.subject.server.pid);
      const benchUsed = process.cpuUsage(benchBefore);
      const memory = await residentMiB(stack.workerPid);
      const persistenceAfter = await context.subjectPersistence?.();

      const runs = await offRampRuns(stack);
      const results = await offRampResults(stack, runs, ids, settings.concurrency);
      const settledAt: number[] = [];
      let oneRun = 0;
      let settledOnce = 0;
      let polls = 0;
      let deliveries = 0;
      let attempts = 0;
      let ackMs = 0;
      let lastDeliveredMs = Number.NaN;
      const settledBy = await settledEvents(stack);
      for (const id of ids) {
        if (runs.get(offRampWorkflowId(id))?.length === 1) oneRun += 1;
        const state = results.get(id);
        polls += state?.polls ?? 0;
        const settled = settledBy.get(offRampWorkflowId(id));
        if (state?.status === 'settled' && settled?.count === 1) {
          settledOnce += 1;
          settledAt.push(settled.atMs);
        }
        const chain = chainDeliveries(stack.sandbox, id);
        deliveries += chain?.delivered ?? 0;
        attempts += chain?.attempts ?? 0;
        ackMs += chain?.ackMs ?? 0;
        if (chain && !(chain.lastDeliveredMs <= lastDeliveredMs)) lastDeliveredMs = chain.lastDeliveredMs;
      }
      const strangers = [...runs.keys()].filter(
        (workflowId) => !ids.some((id) => offRampWorkflowId(id) === workflowId),
      );
      const unsettled = ids.filter((id) => results.get(id)?.status !== 'settled');
      const stillRunning = await runningStatuses(
        stack,
        unsettled.filter((id) => !results.has(id)).slice(0, STATUS_SAMPLE),
      );
      const firstPostMs = Math.min(...postedAt.values());
      const deliveredS = (lastDeliveredMs - firstPostMs) / 1000;
      const spanS = settledAt.length > 0 ? (Math.max(...settledAt) - firstPostMs) / 1000 : Number.NaN;
      const rate = settledAt.length > 0 ? settledAt.length / spanS : 0;
      const perOffRamp = deliveries / Math.max(1, ids.length);
      const allowed = receiverRate / perOffRamp;
      const allSettledOnce =
        ids.length === count && settledOnce === count && oneRun === count && strangers.length === 0;
      // A floor that fails costs its leg the floor row, never the off-ramps' figures.
      const floor = await ownerFloor(
        context,
        settings.deliveryConcurrency,
        ids.length,
        deliveries,
        settings.settleTimeLimitMs,
      ).catch((error: unknown) => {
        log(
          `[concurrent-offramps] floor not measured: ${error instanceof Error ? error.message : String(error)}`,
        );
        return undefined;
      });
      const cores = (before: number | undefined, after: number | undefined) =>
        before === undefined || after === undefined ? '?' : ((after - before) / seconds).toFixed(2);
      const benchCores = ((benchUsed.user + benchUsed.system) / 1e6 / seconds).toFixed(2);
      const unsettledText = Object.entries(stillRunning)
        .map(([status, n]) => `${n} ${status}`)
        .join(', ');
      log(
        `[concurrent-offramps] ${settledOnce} of ${count} settled once (${closed} closed${stalled ? ', the rest stalled' : ''}) ` +
          `in ${spanS.toFixed(1)} s: ${rate.toFixed(2)}/s; ${perOffRamp.toFixed(2)} deliveries each, receiver ` +
          `${receiverRate.toFixed(1)}/s allows ${allowed.toFixed(2)}/s; worker ${cores(workerBefore, workerAfter)} cores, ` +
          `RSS ${memory?.rssMiB.toFixed(0) ?? '?'} MiB${unsettledText ? `; still running: ${unsettledText}` : ''}`,
      );
      return {
        figures: [
          {
            measurement: 'concurrent off-ramps',
            what: `${settledOnce} of ${count} off-ramps settled once, time scale ${TIME_SCALE}, ${users} end users`,
            value: rate,
            unit: '/s',
            baseline: {
              what: `receiver ${receiverRate.toFixed(1)} deliveries/s / ${perOffRamp.toFixed(2)} deliveries per off-ramp`,
              value: allowed,
            },
            target: '>= 0.5x, all settled once',
            met: allSettledOnce && rate >= 0.5 * allowed,
            note:
              `${oneRun} of ${count} with one run${strangers.length > 0 ? `, ${strangers.length} unexpected off-ramps` : ''}, ` +
              `${polls} reads of their own (polls); ${posting.seconds.toFixed(1)} s to post; from the first POST, the last webhook acknowledged ` +
              `after ${deliveredS.toFixed(1)} s, the last off-ramp settled after ${spanS.toFixed(1)} s${unsettledText ? `; not settled: ${unsettledText}${stalled ? ` (nothing moved for ${QUIET_MS / 1000} s after the sandbox had delivered everything)` : ''}` : ''}; ` +
              `${deliveries} webhooks delivered (${attempts} attempts), up to ${settings.deliveryConcurrency} at once, ` +
              `${(ackMs / Math.max(1, deliveries)).toFixed(0)} ms each on average as the sandbox timed them; worker ${cores(workerBefore, workerAfter)} cores, ` +
              `dev server ${cores(devServerBefore, devServerAfter)} cores, this process (sandbox, receiver, client) ` +
              `${benchCores} cores; worker RSS ${memory?.rssMiB.toFixed(0) ?? '?'} MiB (peak ${memory?.peakMiB.toFixed(0) ?? '?'} MiB)` +
              persistencePerUnit(persistenceBefore, persistenceAfter, count, 'off-ramp'),
          },
          ...(floor
            ? [
                {
                  measurement: 'concurrent off-ramps',
                  what: `Temporal's floor: ${floor.closed} of ${ids.length} processes closed after applying ${deliveries} signals, one per webhook`,
                  value: floor.rate,
                  unit: '/s',
                  baseline: {
                    what: `receiver ${receiverRate.toFixed(1)} deliveries/s / ${perOffRamp.toFixed(2)} deliveries per off-ramp`,
                    value: allowed,
                  },
                  note:
                    `the owner's side of a process alone, on the same server: signals sent up to ${settings.deliveryConcurrency} at once ` +
                    `from this process (signal-with-start, each process started by its first), applied as they come, the process ` +
                    `closing after its last; no router, no re-read, no activity, no outcome event; a worker in this process with ` +
                    `the same tuning; ${floor.sent.errors} errors${floor.sent.firstError ? ` (${floor.sent.firstError})` : ''}, ` +
                    `the last closed after ${floor.seconds.toFixed(1)} s`,
                },
              ]
            : []),
        ],
        legs: {
          count,
          users,
          floor,
          receiverRate,
          receiverRateFrom,
          posting,
          closed,
          stalled,
          settledOnce,
          oneRun,
          strangers: strangers.length,
          polls,
          deliveries,
          attempts,
          ackMs,
          deliveredS,
          spanS,
          rate,
          allowed,
          stillRunning,
          workerCores: cores(workerBefore, workerAfter),
          devServerCores: cores(devServerBefore, devServerAfter),
          benchCores,
          workerMemory: memory,
          workerStartMs: stack.workerStartMs,
        },
      };
    } finally {
      await stack.close();
    }
  },
};

/**
 * Temporal's floor for the off-ramps' shape: `processes` workflows that only apply their share of `signals` signals
 * (as many as the off-ramps' webhooks, dealt round the processes as the sandbox's deliveries interleave) and close.
 * Rate: processes closed per second from the first signal to the last close.
 */
async function ownerFloor(
  context: BenchContext,
  concurrency: number,
  processes: number,
  signals: number,
  timeLimitMs: number,
) {
  const floor = await startFloorWorker({
    address: context.subject.server.address,
    client: context.subject.temporal.client,
    tuning: loadWorkerConfig(process.env).tuning,
    label: 'owners',
  });
  try {
    const key = (index: number) => `owner-${index % processes}`;
    const expected = (index: number) =>
      Math.floor(signals / processes) + (index % processes < signals % processes ? 1 : 0);
    const startedAt = performance.now();
    const sent = await closedLoop({
      count: signals,
      concurrency,
      timeLimitMs,
      send: async (index) => {
        await floor.event(key(index), expected(index), Math.floor(index / processes));
        return true;
      },
    });
    // A process still open at the time limit counts as not closed; the rate is over those that closed.
    let timer: NodeJS.Timeout | undefined;
    const timeUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, timeLimitMs - (performance.now() - startedAt)));
    });
    let closed = 0;
    let lastClosedAt = startedAt;
    await Promise.race([
      timeUp,
      Promise.allSettled(
        Array.from({ length: Math.min(processes, signals) }, (_, index) =>
          floor.closed(key(index)).then(() => {
            closed += 1;
            lastClosedAt = performance.now();
          }),
        ),
      ),
    ]);
    clearTimeout(timer);
    const seconds = (lastClosedAt - startedAt) / 1000;
    return { sent, closed, seconds, rate: seconds > 0 ? closed / seconds : 0 };
  } finally {
    await floor.close();
  }
}
