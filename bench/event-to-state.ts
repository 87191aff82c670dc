/**
 * Event to state: how long after the receiver's 200 the owning process has applied a delivery, at the open-loop
 * rate of the run (`openLoopShare`, 50 %, of the raw maximum measured earlier in the run, or measured here when run
 * alone; `--event-rate` sets it), on the whole stack (bench/lib/ramp-stack.ts: npm-start server, the receiver in
 * this process, routers and off-ramps on a worker process, the sandbox as the operator the routers re-read).
 *
 * Setup: off-ramps that stay open. Deposits to one end user's deposit wallet with an empty gas wallet: the sandbox
 * publishes each deposit's created, mined and confirmed events, then strands the Autoswap (no gas for the top-up),
 * so every off-ramp waits in `awaiting-sweep` for a sweep that does not come, with the product's default timings
 * (its first poll only after RAMP_STEP_DEADLINE, 30 min). There are rate x 2 s of them (10 to 400), so that
 * deliveries to one process come 2 s apart.
 *
 * Leg: deliveries on a fixed schedule for `openLoopDuration`, the i-th to off-ramp i mod n: `transaction-updated`
 * of its deposit (`confirmed`, as the operator re-sends it), POSTed to the receiver. Each goes the product's way.
 * Mostly the receiver re-reads the deposit from the sandbox, signals-with-start `offramp/<deposit>` itself and then
 * answers 200 naming the off-ramp: such a delivery is applied at the first WorkflowTaskCompleted after the
 * off-ramp's offRampTransaction signal that arrived while its POST was in flight, and one applied before its 200
 * arrived counts 0 ms. Otherwise the receiver hands it to its router
 * and answers 200 naming the router, which re-reads the deposit and forwards the snapshot to `offramp/<deposit>`.
 * For those, "applied" means: the owning off-ramp's workflow task that ran the signal handler on a snapshot re-read
 * after the delivery reached the router has completed, i.e. the first WorkflowTaskCompleted after that forward's
 * offRampTransaction WorkflowExecutionSignaled in the off-ramp's history (from then on a query answers the state
 * with it: an already seen status counts in `duplicates`; a new one would also wake the loop, in a task of its
 * own). Read from the histories: a delivery's webhookDeliveries signal in its router run (recorded while its POST was
 * in flight) belongs to the first re-read its lane scheduled after it; that re-read's forward ran between the
 * ActivityTaskStarted and ActivityTaskCompleted of its routeEvents batch (re-read and forward: its own window), and
 * the owner's signal inside that window is the one it sent. When deliveries pile up in one lane, a later re-read that
 * finds the status the lane already forwarded sends nothing (the owner has it): such a delivery is applied when the
 * router's task that decided so completed (counted in the note). A router that continues as new hands the lanes still to route to its next run, which re-reads them first: a delivery its
 * run did not route is applied by the first re-read of its lane in the next run. Latency:
 * that time minus the client's clock when the 200 arrived (one machine, one clock). A delivery answered but not seen
 * applied `drain` after the loop counts as never (its percentiles become Infinity).
 *
 * Baseline, same run, same processes, same rate, run first (the receiver's leg can leave routers behind when the
 * worker cannot keep up): the forward alone, i.e. the router's last call (signalWithStartProcess of
 * offRampTransaction with the same snapshot) made by this process, from its answer to the WorkflowTaskCompleted
 * after its signal: Temporal's own floor for applying a signal on this worker, so that the difference is what the
 * hop adds (a router's tasks, the re-read, the forward; for the receiver's own hop, the rest of its answer).
 * Targets: p50 <= 50 ms, p99 <= 250 ms.
 */
import { offRampWorkflowId, WORKFLOW_TYPES } from '../src/domain/ids';
import { signalWithStartProcess } from '../src/temporal/process-start';
import { offRampTransactionSignal } from '../workflows/ramps/offramp/messages';
import type { OffRampInput, OffRampTransactionSignal } from '../workflows/ramps/offramp/types';
import type { offRampWorkflow } from '../workflows/ramps/offramp/workflow';
import { closedLoop, openLoop, type LoadResult } from './lib/load';
import { type Measurement } from './lib/measurement';
import { cpuSeconds } from './lib/machine';
import { offRampState, startRampStack, type RampStack } from './lib/ramp-stack';
import { rawMaximum } from './lib/rates';
import {
  appliedSignals,
  carriedLanes,
  eventMs,
  type Applied,
  type Hop,
  routedDelivery,
  routerHops,
  routerLanes,
} from './lib/router-hops';
import { summarize, type LatencySummary } from './lib/stats';

/** Seconds between two deliveries to one process. */
const SPACING_S = 2;
const MIN_PROCESSES = 10;
const MAX_PROCESSES = 400;
const TIME_SCALE = 0.001;
const WORKER_START_TIMEOUT_MS = 180_000;

interface Delivery {
  process: number;
  sentMs: number;
  /** Client clock when the 200 (or the raw call's answer) arrived; undefined when it failed. */
  answeredMs?: number;
  /** The receiver's 200 named the owning process: it forwarded the delivery itself before answering. */
  forwardedByReceiver?: boolean;
}

interface LegResult {
  load: LoadResult;
  /** Event to state, milliseconds; a delivery answered but not seen applied within the drain counts as never. */
  eventToState: LatencySummary;
  matched: number;
  unmatched: number;
  /** Of the matched ones, deliveries whose router found the status already forwarded in its run. */
  deduplicated: number;
  /** Of the matched ones, deliveries the receiver forwarded itself, and those applied before their 200 arrived. */
  direct: number;
  appliedBeforeAnswer: number;
  /** Deliveries applied per second, from the first to the last applied. */
  appliedPerSecond: number;
  workerCores?: number;
  devServerCores?: number;
}

interface Matched {
  /** Milliseconds from the answer to applied, per delivery matched; deliveries never seen done are left out. */
  latencies: number[];
  /** Deliveries answered but not seen done; of the done ones, those the router found already forwarded. */
  notDone: number;
  deduplicated: number;
  /** Of the done ones, those the receiver forwarded itself; and those applied before their 200 arrived (counted 0). */
  direct: number;
  appliedBeforeAnswer: number;
  doneMs: number[];
}

/** Reads histories until every answered delivery is done or `waitMs` passes, then matches deliveries with them. */
async function eventToState(
  stack: RampStack,
  depositIds: readonly string[],
  deliveries: readonly Delivery[],
  sinceMs: number,
  waitMs: number,
  throughRouter: boolean,
): Promise<Matched> {
  const answered = deliveries.filter((delivery) => delivery.answeredMs !== undefined);
  const deadline = Date.now() + waitMs;
  const client = stack.ramp.temporal;
  const history = async (workflowId: string, runId?: string) =>
    (await client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];
  for (;;) {
    const ownerApplied = new Map<string, Applied[]>();
    await closedLoop({
      count: depositIds.length,
      concurrency: 10,
      timeLimitMs: waitMs,
      send: async (index) => {
        const id = depositIds[index]!;
        ownerApplied.set(
          id,
          appliedSignals(await history(offRampWorkflowId(id))).filter((signal) => signal.signalMs >= sinceMs),
        );
        return true;
      },
    });
    const hops = new Map<string, Hop[]>();
    if (throughRouter) {
      // The routers: every run on this task queue, each cut into its lanes.
      const routerRuns: { workflowId: string; runId: string }[] = [];
      for await (const run of client.workflow.list({
        query: `WorkflowType = '${WORKFLOW_TYPES.webhookRouter}' AND TaskQueue = '${stack.taskQueue}'`,
      }))
        routerRuns.push({ workflowId: run.workflowId, runId: run.runId });
      for (const run of routerRuns) {
        const events = await history(run.workflowId, run.runId);
        const carried = carriedLanes(events);
        const startedMs = events[0] ? eventMs(events[0]) : undefined;
        for (const [resourceId, laneEvents] of routerLanes(events))
          hops.set(resourceId, [
            ...(hops.get(resourceId) ?? []),
            ...routerHops(resourceId, laneEvents, carried.has(resourceId) ? startedMs : undefined),
          ]);
      }
      for (const list of hops.values()) list.sort((a, b) => a.signalMs - b.signalMs);
    }
    // Each answered delivery: the hop (or, without a router, the owner's signal) that arrived while it was in flight.
    const latencies: number[] = [];
    const doneMs: number[] = [];
    let deduplicated = 0;
    let direct = 0;
    let appliedBeforeAnswer = 0;
    const used = new Set<object>();
    const within = (ms: number, delivery: Delivery) =>
      ms >= delivery.sentMs - 2 && ms <= delivery.answeredMs! + 2;
    for (const delivery of answered) {
      const resourceId = depositIds[delivery.process]!;
      const owner = ownerApplied.get(resourceId) ?? [];
      let done: number | undefined;
      if (throughRouter && !delivery.forwardedByReceiver) {
        const result = routedDelivery(
          { sentMs: delivery.sentMs, answeredMs: delivery.answeredMs! },
          hops.get(resourceId) ?? [],
          owner,
          used,
        );
        if (!result) continue;
        done = result.doneMs;
        if (result.deduplicated) deduplicated += 1;
      } else {
        // The forward alone, or the receiver's own hop: the owner's signal arrived while the call was in flight.
        const signal = owner.find(
          (candidate) => !used.has(candidate) && within(candidate.signalMs, delivery),
        );
        if (!signal) continue;
        used.add(signal);
        done = signal.appliedMs;
        if (delivery.forwardedByReceiver) direct += 1;
      }
      if (done === undefined) continue;
      // Applied before the 200 reached the client: nothing left to wait for once it did.
      if (done < delivery.answeredMs!) appliedBeforeAnswer += 1;
      latencies.push(Math.max(0, done - delivery.answeredMs!));
      doneMs.push(done);
    }
    const notDone = answered.length - latencies.length;
    if (notDone === 0 || Date.now() >= deadline)
      return { latencies, notDone, deduplicated, direct, appliedBeforeAnswer, doneMs };
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

export const eventToStateMeasurement: Measurement = {
  name: 'event-to-state',
  description: 'from the receiver 200 to the owning off-ramp having applied the delivery, open loop',
  async run(context, settings, shared, log) {
    const rate =
      settings.eventRate ?? (await rawMaximum(context, settings, shared, log)) * settings.openLoopShare;
    const processes = Math.min(MAX_PROCESSES, Math.max(MIN_PROCESSES, Math.ceil(rate * SPACING_S)));
    const stack = await startRampStack(context, {
      label: 'e2s',
      timeScale: TIME_SCALE,
      timings: context.timings,
      gasTrx: '0',
      startTimeoutMs: WORKER_START_TIMEOUT_MS,
      log,
    });
    try {
      // Open off-ramps: deposits to one end user's wallet, each stranded after its deposit confirmed.
      const [address] = await stack.endUsers(1, 1, settings.legTimeLimitMs);
      const depositIds: string[] = [];
      for (let index = 0; index < processes; index += 1)
        depositIds.push((await stack.deposit(address!)).depositId);
      // Each off-ramp writes its view to the stack's ledger before it waits.
      const awaitingSweep = async () =>
        Number(
          (
            await stack.database.pool.query<{ count: string }>(
              `select count(*) from ramps where direction = 'off-ramp' and status = 'awaiting-sweep'`,
            )
          ).rows[0]!.count,
        );
      const readyBy = Date.now() + settings.settleTimeLimitMs;
      for (;;) {
        const waiting = await awaitingSweep();
        if (waiting >= processes && stack.sandbox.ctx.delivery.active === 0) break;
        if (Date.now() > readyBy)
          throw new Error(
            `${waiting} of ${processes} off-ramps awaiting their sweep after ${settings.settleTimeLimitMs / 1000} s`,
          );
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const snapshots = await Promise.all(
        depositIds.map(async (id) => (await offRampState(stack, id)).deposit!),
      );
      log(
        `[event-to-state] ${processes} off-ramps awaiting their sweep; ${rate.toFixed(1)}/s for ${settings.openLoopDurationMs / 1000} s`,
      );

      const leg = async (
        name: string,
        throughRouter: boolean,
        send: (delivery: Delivery) => Promise<boolean>,
      ): Promise<LegResult> => {
        const deliveries: Delivery[] = [];
        const sinceMs = Date.now();
        const workerBefore = await cpuSeconds(stack.workerPid);
        const devServerBefore = await cpuSeconds(context.subject.server.pid);
        const load = await openLoop({
          ratePerSecond: rate,
          durationMs: settings.openLoopDurationMs,
          maxInFlight: settings.maxInFlight,
          drainMs: settings.drainMs,
          send: async (index) => {
            const delivery: Delivery = { process: index % processes, sentMs: Date.now() };
            deliveries.push(delivery);
            const ok = await send(delivery);
            if (ok) delivery.answeredMs = Date.now();
            return ok;
          },
        });
        const seconds = (Date.now() - sinceMs) / 1000;
        const workerAfter = await cpuSeconds(stack.workerPid);
        const devServerAfter = await cpuSeconds(context.subject.server.pid);
        const matched = await eventToState(
          stack,
          depositIds,
          deliveries,
          sinceMs,
          settings.drainMs,
          throughRouter,
        );
        const spanS = (Math.max(...matched.doneMs) - Math.min(...matched.doneMs)) / 1000;
        const result: LegResult = {
          load,
          eventToState: summarize([
            ...matched.latencies,
            ...Array<number>(matched.notDone).fill(Number.POSITIVE_INFINITY),
          ]),
          matched: matched.latencies.length,
          unmatched: matched.notDone,
          deduplicated: matched.deduplicated,
          direct: matched.direct,
          appliedBeforeAnswer: matched.appliedBeforeAnswer,
          appliedPerSecond: spanS > 0 ? matched.latencies.length / spanS : 0,
          ...(workerBefore !== undefined && workerAfter !== undefined
            ? { workerCores: (workerAfter - workerBefore) / seconds }
            : {}),
          ...(devServerBefore !== undefined && devServerAfter !== undefined
            ? { devServerCores: (devServerAfter - devServerBefore) / seconds }
            : {}),
        };
        log(
          `[event-to-state] ${name}: p50 ${result.eventToState.p50.toFixed(1)} ms, p99 ${result.eventToState.p99.toFixed(1)} ms, ` +
            `${result.matched} applied (${result.appliedPerSecond.toFixed(1)}/s), ${result.unmatched} not within ` +
            `${settings.drainMs / 1000} s, ${load.errors} errors, ack p50 ${load.latency.p50.toFixed(1)} ms; ` +
            `worker ${result.workerCores?.toFixed(2) ?? '?'} cores, dev server ${result.devServerCores?.toFixed(2) ?? '?'}`,
        );
        return result;
      };
      // The baseline first: the receiver's leg can leave routers behind it when the worker cannot keep up.
      const raw = await leg('forward alone', false, async ({ process }) => {
        const depositTransactionId = depositIds[process]!;
        const signal: OffRampTransactionSignal = { role: 'deposit', transaction: snapshots[process]! };
        const outcome = await signalWithStartProcess<typeof offRampWorkflow, [OffRampTransactionSignal]>(
          stack.ramp.temporal,
          WORKFLOW_TYPES.offRamp,
          {
            workflowId: offRampWorkflowId(depositTransactionId),
            taskQueue: stack.taskQueue,
            args: [
              {
                depositTransactionId,
                timings: context.timings,
              } satisfies OffRampInput,
            ],
            signal: offRampTransactionSignal,
            signalArgs: [signal],
          },
        );
        return outcome.delivered;
      });
      const receiver = await leg(
        'receiver',
        true,
        async (delivery) =>
          (await context.post(
            stack.receiver.recipientUrls.transaction,
            JSON.stringify({
              data: {
                eventType: 'transaction-updated',
                payload: { id: depositIds[delivery.process], newStatus: 'confirmed' },
              },
            }),
            (answer) => {
              const { workflowId } = JSON.parse(answer) as { workflowId?: string };
              delivery.forwardedByReceiver = workflowId === offRampWorkflowId(depositIds[delivery.process]!);
            },
          )) === 200,
      );
      const what = `receiver 200 to applied, ${rate.toFixed(1)}/s for ${settings.openLoopDurationMs / 1000} s over ${processes} off-ramps`;
      const baseline = 'the forward alone (signal-with-start to the owner), same rate';
      const complete = receiver.unmatched === 0 && receiver.load.errors === 0;
      const note =
        `${receiver.matched} deliveries applied (${receiver.appliedPerSecond.toFixed(1)}/s; ${receiver.direct} of them ` +
        `forwarded by the receiver itself, ${receiver.appliedBeforeAnswer} applied before their 200 arrived (counted ` +
        `as 0 ms), ${receiver.deduplicated} found already forwarded by their router), ${receiver.unmatched} answered but ` +
        `not seen applied within ${settings.drainMs / 1000} s after the loop (counted as never), ${receiver.load.errors} not ` +
        `answered 200${receiver.load.firstError ? ` (${receiver.load.firstError})` : ''}; ack p50 ${receiver.load.latency.p50.toFixed(1)} ms; ` +
        `worker ${receiver.workerCores?.toFixed(2) ?? '?'} cores, dev server ${receiver.devServerCores?.toFixed(2) ?? '?'}; ` +
        `baseline: ${raw.matched} applied, ${raw.unmatched + raw.load.errors} not`;
      return {
        figures: [
          {
            measurement: 'event to state',
            what: `p50, ${what}`,
            value: receiver.eventToState.p50,
            unit: 'ms',
            baseline: { what: baseline, value: raw.eventToState.p50 },
            comparison: 'difference',
            target: '<= 50 ms',
            met: complete && receiver.eventToState.p50 <= 50,
            note,
          },
          {
            measurement: 'event to state',
            what: `p99, ${what}`,
            value: receiver.eventToState.p99,
            unit: 'ms',
            baseline: { what: baseline, value: raw.eventToState.p99 },
            comparison: 'difference',
            target: '<= 250 ms',
            met: complete && receiver.eventToState.p99 <= 250,
          },
        ],
        legs: { rate, processes, receiver, forwardAlone: raw, workerStartMs: stack.workerStartMs },
      };
    } finally {
      await stack.close();
    }
  },
};
