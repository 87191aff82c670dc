/**
 * Cost: what a deposit wallet, a settled off-ramp and a settled on-ramp cost in Temporal, as a client runs them end
 * to end, one at a time (bench/lib/ramp-journeys.ts): Temporal Cloud's billable actions counted from the histories of
 * every workflow the leg caused (bench/lib/billable-actions.ts), queries and heartbeats from the server's own counts,
 * history events, and visibility calls. On the whole stack (bench/lib/ramp-stack.ts: the sandbox delivering to the
 * receiver with its steps 100 ms apart, a worker process with the product's default timings, so no step deadline
 * passes within a chain), the HTTP API in this process and a stand-in for the client's endpoint that receives
 * every outcome event, on a dev server launched as npm start launches it that also serves its metrics, for this leg
 * alone (so that only this leg's requests are counted).
 *
 * Figures, per deposit wallet and per settled ramp of each direction: billable actions beside those in its own
 * workflow (the ratio says how much it costs outside it), history events the same way, and visibility calls.
 * Target: at most 25 actions a ramp (the ledger's issue). Counts, not speeds: the same code gives the same figures
 * (test/bench/ramp-cost.temporal.test.ts holds them to bench/ramp-cost.json), unless a retry (an activity retried, a
 * delivery repeated) adds to them, which the note shows by kind.
 */
import pino from 'pino';
import { startApiServer } from '../src/api/server';
import { loadApiConfig } from '../src/config/api';
import { RampHttpClient } from '../src/http-client';
import { type Measurement, RUN_TAG } from './lib/measurement';
import type { Figure } from './lib/report';
import {
  COST_PHASES,
  COST_TIME_SCALE,
  measureRampCost,
  OUTSIDE_HISTORIES,
  OWN_WORKFLOW_TYPES,
  type PhaseCost,
  perRamp,
  startClientEndpoint,
} from './lib/ramp-journeys';
import { startRampStack } from './lib/ramp-stack';

const WORKER_START_TIMEOUT_MS = 180_000;
const SETTLE_TIMEOUT_MS = 60_000;
/** Nothing new at the client's endpoint for this long ends a phase. */
const QUIET_MS = 2_000;
const API_KEY = 'bench-cost-api-key-6d1e0c';
/** The ledger's issue: at most 25 billable actions per settled ramp. */
const TARGET_ACTIONS = 25;

export const rampCost: Measurement = {
  name: 'cost',
  description:
    'billable actions, history events, queries and visibility calls per settled off-ramp and on-ramp, end to end',
  async run(context, settings, _shared, log) {
    const ramps = settings.costRamps;
    const server = await context.startMeteredServer('cost');
    const outcomes = await startClientEndpoint();
    try {
      const stack = await startRampStack(context, {
        label: 'cost',
        timeScale: COST_TIME_SCALE,
        timings: context.timings,
        gasTrx: String(100 * ramps),
        startTimeoutMs: WORKER_START_TIMEOUT_MS,
        log,
        server,
        workerEnv: { CLIENT_WEBHOOK_URLS: outcomes.url, CLIENT_WEBHOOK_SECRET: outcomes.secret },
      });
      try {
        const api = await startApiServer({
          config: loadApiConfig({ API_PORT: '0', API_KEY }),
          ramp: stack.ramp,
          ledger: stack.database.db,
          logger: pino({ level: 'silent' }),
        });
        try {
          const cost = await measureRampCost(
            {
              temporal: server.temporal.client,
              taskQueue: stack.taskQueue,
              api: new RampHttpClient({ baseUrl: api.url, apiKey: API_KEY }),
              sandboxUrl: stack.sandbox.url,
              outcomes,
              frontendRequests: () => server.frontendRequests(),
            },
            {
              ramps,
              label: `cost-${RUN_TAG}`,
              settleTimeoutMs: SETTLE_TIMEOUT_MS,
              quietMs: QUIET_MS,
              log,
            },
          );
          if (cost.actionsAfter > 0)
            log(`[cost] ${cost.actionsAfter} billable actions written after the last phase: not counted`);
          const phases = COST_PHASES.map((name) => cost.phases[name]);
          return {
            figures: phases.flatMap(figuresOf),
            legs: {
              ...Object.fromEntries(phases.map((phase) => [phase.phase, { ...phase, per: perRamp(phase) }])),
              actionsAfter: cost.actionsAfter,
              workerStartMs: stack.workerStartMs,
            },
          };
        } finally {
          await api.close();
        }
      } finally {
        await stack.close();
      }
    } finally {
      await outcomes.close();
      await server.stop();
    }
  },
};

const round = (value: number) => Number(value.toFixed(1));
const listed = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([name, value]) => `${name} ${round(value)}`)
    .join(', ');

function figuresOf(cost: PhaseCost): Figure[] {
  const one = perRamp(cost);
  const own = OWN_WORKFLOW_TYPES[cost.phase];
  const what = (measure: string) =>
    cost.phase === 'deposit wallet'
      ? `${measure} per deposit wallet (once per end user), ${cost.settled} of ${cost.ramps} created`
      : `${measure} per settled ${cost.phase}, ${cost.settled} of ${cost.ramps} settled`;
  const ownBaseline = (value: number) => ({ what: `in its own workflow (${own})`, value: round(value) });
  return [
    {
      measurement: 'cost',
      what: what('billable actions'),
      value: round(one.actions),
      unit: 'actions',
      baseline: ownBaseline(one.ownActions),
      ...(cost.phase === 'deposit wallet'
        ? {}
        : {
            target: `<= ${TARGET_ACTIONS}`,
            met: cost.settled === cost.ramps && one.actions <= TARGET_ACTIONS,
          }),
      note:
        `by workflow type: ${listed(one.byWorkflowType)}; by kind: ${listed(one.byKind)}` +
        ` (${OUTSIDE_HISTORIES}: ${round(one.queries)} queries, ${round(one.heartbeats)} heartbeats)` +
        (cost.firstError ? `; not settled: ${cost.firstError}` : ''),
    },
    {
      measurement: 'cost',
      what: what('history events'),
      value: round(one.historyEvents),
      unit: 'events',
      baseline: ownBaseline(one.ownHistoryEvents),
    },
    {
      measurement: 'cost',
      what: what('visibility calls'),
      value: round(one.visibilityCalls),
      unit: 'calls',
    },
  ];
}
