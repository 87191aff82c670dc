/**
 * What one ramp costs in Temporal, as a client's backend meets it end to end, counted in Temporal Cloud's billable
 * actions (bench/lib/billable-actions.ts). Three phases, one after the other, each doing one thing for every end
 * user in turn (one at a time, as ramps minutes apart are), through the HTTP API (every POST with its own
 * Idempotency-Key, as the HTTP client sends):
 * - deposit wallets: each new end user's wallet, its `deposit_wallet.created` heard at the client's endpoint (once
 *   per end user, whatever number of ramps follow);
 * - off-ramps: a quote shown for the deposit, the deposit on chain (the sandbox's simulation endpoint), its
 *   `off_ramp.settled` heard, the off-ramp read back with GET;
 * - on-ramps: one started per end user with a quote request, the MXN deposit (simulated), `on_ramp.settled` heard,
 *   the on-ramp read back.
 * A phase ends once its work is read back and the client's endpoint has heard nothing new for a quiet period. Then
 * every workflow run on the stack's task queue is fetched, and each billable action is charged to the phase whose
 * span of time holds its event: a workflow shared between ramps (a webhook router, an end user, the incident store)
 * is charged for what it did during each phase, and a phase's total divided over what it settled is the cost of
 * one, whichever workflow the action was in. Queries and heartbeats (billable, in no history) and visibility calls
 * (rate-limited) are the server frontend's counts between the phase's two scrapes.
 */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { type RunningOutcomeReceiver, startOutcomeReceiver } from '../../src/demo/outcome-receiver';
import { simulate } from '../../src/demo/simulate';
import { endUserWorkflowId, offRampWorkflowId, onRampWorkflowId, WORKFLOW_TYPES } from '../../src/domain/ids';
import type { OutcomeEventType } from '../../src/domain/outcome-events';
import { NETWORKS } from '../../src/domain/vocabulary';
import type { RampHttpClient } from '../../src/http-client';
import {
  type ActionCounts,
  addCounts,
  countRun,
  type FrontendRequests,
  outsideHistories,
  type TimeWindow,
  totalActions,
} from './billable-actions';
import { frontendDelta } from './server-metrics';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const COST_PHASES = ['deposit wallet', 'off-ramp', 'on-ramp'] as const;
export type CostPhase = (typeof COST_PHASES)[number];

/** The workflow each phase is about: its "own" workflow, beside everything else it causes. */
export const OWN_WORKFLOW_TYPES: Record<CostPhase, string> = {
  'deposit wallet': WORKFLOW_TYPES.endUser,
  'off-ramp': WORKFLOW_TYPES.offRamp,
  'on-ramp': WORKFLOW_TYPES.onRamp,
};

/**
 * The sandbox's time scale: its steps 100 ms apart (2 s scaled), so that each webhook reaches its ramp in a workflow
 * task of its own, as webhooks minutes apart do against an operator. With webhooks closer together a workflow applies
 * several in one task, and writes fewer timers and search attribute upserts (a first deposit and its gas top-up move
 * at the same moment, so their webhooks may still meet now and then).
 */
export const COST_TIME_SCALE = 0.05;
/**
 * How long the client's endpoint takes to answer an outcome event, as a backend across the internet does; an event
 * record then hears of its delivery after it has started, as it does in production.
 */
const ENDPOINT_ANSWER_MS = 100;

/** The client's endpoint for outcome events, verifying each (a stand-in for the client's backend). */
export const startClientEndpoint = (): Promise<RunningOutcomeReceiver> =>
  startOutcomeReceiver({
    respond: async (delivery) => {
      await sleep(ENDPOINT_ANSWER_MS);
      return delivery.verified ? 204 : 400;
    },
  });

/** USDT deposited per off-ramp, and MXN paid per on-ramp (the quotes ask for the same amounts). */
const OFF_RAMP_USDT = '50';
const ON_RAMP_MXN = '1725.00';
/** How often the client's endpoint is looked at, and the server's metrics read until they stop moving. */
const LOOK_EVERY_MS = 50;
const SCRAPE_EVERY_MS = 1_000;

export interface CostStack {
  /** A client of the namespace the stack runs in (histories and the list of runs, read after the phases). */
  temporal: Client;
  taskQueue: string;
  /** The HTTP API's client, as the client's backend holds it. */
  api: RampHttpClient;
  sandboxUrl: string;
  /** The client's endpoint for outcome events (the worker sends every event to it). */
  outcomes: RunningOutcomeReceiver;
  /** The server frontend's requests of the namespace so far (its metrics). */
  frontendRequests(): Promise<FrontendRequests>;
}

export interface CostOptions {
  /** End users, each with a deposit wallet, an off-ramp and an on-ramp. */
  ramps: number;
  /** Names the end users and order references (unique per run). */
  label: string;
  /** Longest wait for one ramp's settled event. */
  settleTimeoutMs: number;
  /** Nothing new at the client's endpoint for this long ends a phase. */
  quietMs: number;
  log: (line: string) => void;
}

/** One workflow type's share of a phase: its runs that did anything then, their actions by kind and history events. */
export interface WorkflowShare {
  runs: number;
  actions: ActionCounts;
  events: number;
}

export interface PhaseCost {
  phase: CostPhase;
  /** Started, and settled (the figures are per settled one). */
  ramps: number;
  settled: number;
  /** The phase's span of time. */
  window: TimeWindow;
  /** What every workflow type did during the phase, in histories. */
  workflows: Record<string, WorkflowShare>;
  /** Billable actions in no history (queries, heartbeats). */
  outside: ActionCounts;
  visibilityCalls: number;
  /** The frontend's requests during the phase by operation (what the client and the workers asked of Temporal). */
  requests: FrontendRequests;
  /** Why one did not settle, the first seen. */
  firstError?: string;
}

export interface RampCost {
  phases: Record<CostPhase, PhaseCost>;
  /** Billable actions written after the last phase (none, unless a workflow was still at work). */
  actionsAfter: number;
}

/** The figures of one: a phase's totals divided over what it settled. */
export interface PerRamp {
  actions: number;
  /** In its own workflow (OWN_WORKFLOW_TYPES). */
  ownActions: number;
  historyEvents: number;
  ownHistoryEvents: number;
  queries: number;
  heartbeats: number;
  visibilityCalls: number;
  /** Actions per workflow type, queries and heartbeats under "outside histories". */
  byWorkflowType: Record<string, number>;
  byKind: ActionCounts;
}

export const OUTSIDE_HISTORIES = 'outside histories';

export function perRamp(cost: PhaseCost): PerRamp {
  const per = (value: number) => (cost.settled > 0 ? value / cost.settled : 0);
  const own = cost.workflows[OWN_WORKFLOW_TYPES[cost.phase]] ?? { runs: 0, actions: {}, events: 0 };
  const shares = Object.entries(cost.workflows);
  const byKind = addCounts(cost.outside, ...shares.map(([, share]) => share.actions));
  const byWorkflowType = Object.fromEntries(
    [...shares.map(([type, share]) => [type, totalActions(share.actions)] as const)]
      .concat(totalActions(cost.outside) > 0 ? [[OUTSIDE_HISTORIES, totalActions(cost.outside)]] : [])
      .filter(([, actions]) => actions > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([type, actions]) => [type, per(actions)]),
  );
  return {
    actions: per(totalActions(byKind)),
    ownActions: per(totalActions(own.actions)),
    historyEvents: per(shares.reduce((sum, [, share]) => sum + share.events, 0)),
    ownHistoryEvents: per(own.events),
    queries: per(cost.outside.query ?? 0),
    heartbeats: per(cost.outside['activity heartbeat'] ?? 0),
    visibilityCalls: per(cost.visibilityCalls),
    byWorkflowType,
    byKind: Object.fromEntries(Object.entries(byKind).map(([kind, actions]) => [kind, per(actions)])),
  };
}

/** The first outcome event of `type` for `workflowId` the client's endpoint confirmed, waited for. */
async function heard(
  outcomes: RunningOutcomeReceiver,
  type: OutcomeEventType,
  workflowId: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (
    !outcomes
      .confirmed()
      .some((delivery) => delivery.event?.type === type && delivery.event.data.workflowId === workflowId)
  ) {
    if (Date.now() > deadline) throw new Error(`no ${type} for ${workflowId} within ${timeoutMs / 1000} s`);
    await sleep(LOOK_EVERY_MS);
  }
}

/** Waits until the client's endpoint has heard nothing for `quietMs`. */
async function quiet(outcomes: RunningOutcomeReceiver, quietMs: number): Promise<void> {
  for (;;) {
    const last = Math.max(0, ...outcomes.deliveries.map((delivery) => delivery.receivedAt));
    const still = Date.now() - last;
    if (still >= quietMs) return;
    await sleep(quietMs - still);
  }
}

/** The frontend's counts once they stop moving (the server publishes its metrics on an interval). */
async function settledRequests(stack: CostStack): Promise<FrontendRequests> {
  let last = await stack.frontendRequests();
  for (;;) {
    await sleep(SCRAPE_EVERY_MS);
    const next = await stack.frontendRequests();
    if (Object.keys(frontendDelta(last, next)).length === 0) return next;
    last = next;
  }
}

async function depositWallet(stack: CostStack, endUserId: string, timeoutMs: number): Promise<string> {
  const wallet = await stack.api.ensureDepositWallet(endUserId);
  const address = wallet.addresses.find((entry) => entry.network === NETWORKS.tron)?.address;
  if (!address) throw new Error(`${endUserId}: no Tron address`);
  await heard(stack.outcomes, 'deposit_wallet.created', endUserWorkflowId(endUserId), timeoutMs);
  return address;
}

async function offRamp(
  stack: CostStack,
  endUserId: string,
  address: string,
  timeoutMs: number,
): Promise<void> {
  await stack.api.showDepositQuote(endUserId, {
    direction: 'off-ramp',
    coinFrom: 'USDT',
    chainFrom: 'TRX',
    coinTo: 'MXN',
    amountFrom: OFF_RAMP_USDT,
  });
  const deposit = await simulate<{ transactionId: string }>(stack.sandboxUrl, 'POST', '/offramp/deposits', {
    address,
    coin: 'USDT',
    amount: OFF_RAMP_USDT,
  });
  await heard(stack.outcomes, 'off_ramp.settled', offRampWorkflowId(deposit.transactionId), timeoutMs);
  const state = await stack.api.getOffRamp(deposit.transactionId);
  if (state.status !== 'settled') throw new Error(`off-ramp ${deposit.transactionId} reads ${state.status}`);
}

async function onRamp(stack: CostStack, endUserId: string, reference: string, timeoutMs: number) {
  const { created } = await stack.api.startOnRamp({
    endUserId,
    orderReference: reference,
    quoteRequest: {
      direction: 'on-ramp',
      coinFrom: 'MXN',
      coinTo: 'USDT',
      chainTo: 'TRX',
      amountFrom: ON_RAMP_MXN,
    },
  });
  if (!created) throw new Error(`on-ramp ${reference} was not created by its start`);
  await simulate(stack.sandboxUrl, 'POST', '/onramp/deposits', {
    reference,
    amount: ON_RAMP_MXN,
    coinTo: 'USDT',
    chainTo: 'TRX',
  });
  await heard(stack.outcomes, 'on_ramp.settled', onRampWorkflowId(reference), timeoutMs);
  const state = await stack.api.getOnRamp(reference);
  if (state.status !== 'settled') throw new Error(`on-ramp ${reference} reads ${state.status}`);
}

interface Phase {
  phase: CostPhase;
  settled: number;
  window: TimeWindow;
  requests: FrontendRequests;
  firstError?: string;
}

async function phase(
  stack: CostStack,
  options: CostOptions,
  name: CostPhase,
  /** Where the previous phase ended: its time, and the frontend's counts then. */
  from: { ms: number; requests: FrontendRequests },
  journey: (index: number) => Promise<void>,
): Promise<Phase & { after: FrontendRequests }> {
  const fromMs = from.ms;
  // One at a time: events of several ramps at once would meet in workflow tasks, which changes the count.
  const result = { ok: 0, firstError: undefined as string | undefined };
  for (let index = 0; index < options.ramps; index += 1) {
    try {
      await journey(index);
      result.ok += 1;
    } catch (error) {
      result.firstError ??= error instanceof Error ? error.message : String(error);
    }
  }
  await quiet(stack.outcomes, options.quietMs);
  const after = await settledRequests(stack);
  // The phase ends after its last scrape: a straggler of its own work is still its own.
  const toMs = Date.now();
  options.log(
    `[cost] ${result.ok} of ${options.ramps} ${name}s settled in ${((toMs - fromMs) / 1000).toFixed(1)} s` +
      (result.firstError ? ` (${result.firstError})` : ''),
  );
  return {
    phase: name,
    settled: result.ok,
    window: { fromMs, toMs },
    requests: frontendDelta(from.requests, after),
    ...(result.firstError ? { firstError: result.firstError } : {}),
    after,
  };
}

interface Run {
  workflowType: string;
  events: HistoryEvent[];
}

/** Every run on the stack's task queue and its history (visibility lists each run, continued-as-new ones included). */
async function runsOf(stack: CostStack): Promise<Run[]> {
  const runs: Run[] = [];
  for await (const execution of stack.temporal.workflow.list({
    query: `TaskQueue = '${stack.taskQueue}'`,
    pageSize: 1000,
  })) {
    const history = await stack.temporal.workflow
      .getHandle(execution.workflowId, execution.runId)
      .fetchHistory();
    runs.push({ workflowType: execution.type, events: history.events ?? [] });
  }
  return runs;
}

function phaseCost(phase: Phase, ramps: number, runs: readonly Run[]): PhaseCost {
  const workflows: Record<string, WorkflowShare> = {};
  for (const run of runs) {
    const counted = countRun(run.events, phase.window);
    if (counted.events === 0) continue;
    const share = (workflows[run.workflowType] ??= { runs: 0, actions: {}, events: 0 });
    share.runs += 1;
    share.actions = addCounts(share.actions, counted.actions);
    share.events += counted.events;
  }
  const outside = outsideHistories(phase.requests);
  return {
    phase: phase.phase,
    ramps,
    settled: phase.settled,
    window: phase.window,
    workflows,
    outside: outside.actions,
    visibilityCalls: outside.visibilityCalls,
    requests: phase.requests,
    ...(phase.firstError ? { firstError: phase.firstError } : {}),
  };
}

/** Gives `ramps` end users a deposit wallet, then settles an off-ramp and an on-ramp each, and counts each phase. */
export async function measureRampCost(stack: CostStack, options: CostOptions): Promise<RampCost> {
  const endUser = (index: number) => `${options.label}-user-${index}`;
  const addresses = new Map<number, string>();
  const journeys: Record<CostPhase, (index: number) => Promise<void>> = {
    'deposit wallet': async (index) => {
      addresses.set(index, await depositWallet(stack, endUser(index), options.settleTimeoutMs));
    },
    'off-ramp': async (index) => {
      const address = addresses.get(index);
      if (!address) throw new Error(`${endUser(index)} has no deposit wallet`);
      await offRamp(stack, endUser(index), address, options.settleTimeoutMs);
    },
    'on-ramp': (index) =>
      onRamp(stack, endUser(index), `${options.label}-order-${index}`, options.settleTimeoutMs),
  };
  const phases: Phase[] = [];
  let from = { requests: await settledRequests(stack), ms: Date.now() };
  for (const name of COST_PHASES) {
    const { after, ...done } = await phase(stack, options, name, from, journeys[name]);
    phases.push(done);
    from = { requests: after, ms: done.window.toMs };
  }
  // Read after the last scrape: these calls are the measurement's, not the client's.
  const runs = await runsOf(stack);
  return {
    phases: Object.fromEntries(
      phases.map((done) => [done.phase, phaseCost(done, options.ramps, runs)]),
    ) as Record<CostPhase, PhaseCost>,
    actionsAfter: runs.reduce(
      (sum, run) => sum + totalActions(countRun(run.events, { fromMs: from.ms, toMs: Infinity }).actions),
      0,
    ),
  };
}
