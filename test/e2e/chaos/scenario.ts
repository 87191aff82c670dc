/**
 * The chaos scenario: traffic of many end users against the whole product running as separate processes, while
 * processes are killed and restarted and the operator misbehaves; then the product's invariants, checked from the
 * outside only.
 *
 * Traffic (per end user): its deposit wallet through the HTTP API (several concurrent calls), one off-ramp (a
 * simulated crypto deposit to its address) and, for some users, one on-ramp (the typed client's startOnRamp, then
 * a simulated MXN deposit for that reference), some of which end expired or failed by design. Every
 * LATE_ANNOUNCEMENT_EVERY-th user's on-ramp is announced only after its MXN deposit (the client's backend was slow):
 * its order events start it unattributed, and the announcement attributes it or, once it ended, claims it late.
 *
 * Faults: webhook deliveries dropped, duplicated, reordered and delayed (by longer than a whole flow, so that some
 * arrive after their process has ended), operator 503s, expired tokens; SIGKILL of the worker and the receiver at
 * seeded random moments (some while CreateWallet requests are held in flight), one restart of the dev server on the
 * same data file, SIGKILLs of the ledger's PostgreSQL and clean restarts of it (each started again on its data
 * folder), and a client endpoint that refuses some outcome events and answers others too late. Meanwhile a
 * release: a new worker version starts beside the old and is made current while ramps flow (the old keeps the
 * ramps pinned to it; the long-lived workflows move).
 *
 * Invariants: one run per process ID; one operator wallet per end user or every extra one recorded in its state;
 * every process at its expected end; each process attributed to the right end user; and over the ledger
 * (ledger-invariants.ts): no row lost, none stale, none duplicated, every booked row as the operator's records say,
 * every outcome event the client endpoint got in the ledger and every event of the ledger delivered or pending
 * with its reason.
 */
import { openDatabase } from '../../../src/database/connection';
import { setMaxListeners } from 'node:events';
import { Client, Connection, type WorkflowExecutionInfo, type WorkflowHandle } from '@temporalio/client';
import pino from 'pino';
import { RampClient } from '../../../src/client/ramp-client';
import { loadOperatorConfig } from '../../../src/config/operator';
import { loadWorkflowTimings } from '../../../src/config/timings';
import { endUserWorkflowId, offRampWorkflowId } from '../../../src/domain/ids';
import { RampStatus } from '../../../src/domain/search-attributes';
import { OperatorClient } from '../../../src/operator/client';
import { endUserStateQuery } from '../../../workflows/end-user/messages';
import type { EndUserState } from '../../../workflows/end-user/types';
import { deploymentReport, type VersionReport } from '../../../src/temporal/worker-deployment';
import { ChaosStack, killEveryChild, type ManagedProcess } from './harness';
import {
  describeRuns,
  duplicateRunCount,
  type ExpectedEnd,
  findDuplicateRuns,
  groupRuns,
  ownerOfLabel,
  reachedEnd,
  recordedExtraWallets,
  type RunInfo,
  type SandboxDeliveryRecord,
  type SandboxEventRecord,
  countPendingDeliveries,
  stateEndUserId,
  unrecordedWallets,
} from './invariants';
import { type LedgerFindings, noLedgerFindings } from './ledger-invariants';
import { type LedgerReadout, type RampOfTraffic, readAndCheckLedger } from './ledger-readout';
import { Random } from '../../../src/sandbox/random';
import type { reconcileWorkflow } from '../../../workflows/operations/reconcile/workflow';

// ------------------------------------------------------------------------------------------------ profile

export interface ChaosProfile {
  name: string;
  users: number;
  /** Share of end users who also make an on-ramp. */
  onRampShare: number;
  /** Share of those on-ramps whose order ends expired or failed (an expected end that is not "settled"). */
  onRampUnsettledShare: number;
  /** Up to this many concurrent ensureDepositWallet calls per end user. */
  walletCallsPerUser: number;
  workerKills: number;
  receiverKills: number;
  devServerRestarts: number;
  devServerSignal: 'SIGTERM' | 'SIGKILL';
  tokenExpiries: number;
  /** Releases during the traffic: a new worker version started beside the running ones and made current. */
  releases: number;
  /** SIGKILLs of the ledger's PostgreSQL during the traffic, each started again on its data folder and port. */
  databaseKills: number;
  /** Clean restarts of it: its fast shutdown, then a start. */
  databaseRestarts: number;
  /** The longest PostgreSQL stays down at one of those (each draws between a second and this). */
  databaseDowntimeMs: number;
  /** The stand-in client endpoint: the share of outcome deliveries it refuses (503), and that it answers too late. */
  endpointFaults: { refuse: number; late: number };
  /** Traffic arrives and faults are injected over this long. */
  trafficWindowMs: number;
  /** How long traffic still in progress may take after the window. */
  trafficDrainMs: number;
  /** Delay of the delivery fault: longer than a whole flow, so a delayed delivery can arrive after its process ended. */
  lateDeliveryMs: number;
  deliveryFaults: { drop: number; duplicate: number; reorder: number; delay: number };
  /** Probability of an injected 503 on each operator call. */
  operator503: number;
  /** How long CreateWallet is held before some worker kills, so that the kill lands inside the round trip. */
  createWalletHoldMs: number;
  /** Life of operator tokens issued during the run. */
  tokenLifetimeMs: number;
  /** After the traffic: longest wait for every process to reach its end and every delivery to be over. */
  settleTimeoutMs: number;
  /** Then this much more, for deliveries that were handed over but not yet acted on. */
  graceMs: number;
  /** Hard limit of the whole run: every child is killed and the run fails when it passes. */
  deadlineMs: number;
  seed: number;
  sandboxTimeScale: number;
  /** RAMP_PROCESS_TIMEOUT: must exceed a flow slowed by every fault, or a process ends timed-out (and counts lost). */
  processTimeout: string;
  niceness: number;
}

const BASE_PROFILE = {
  onRampShare: 0.5,
  onRampUnsettledShare: 0.25,
  walletCallsPerUser: 3,
  devServerRestarts: 1,
  devServerSignal: 'SIGKILL' as const,
  releases: 1,
  endpointFaults: { refuse: 0.08, late: 0.03 },
  deliveryFaults: { drop: 0.08, duplicate: 0.15, reorder: 0.1, delay: 0.2 },
  operator503: 0.04,
  createWalletHoldMs: 1_500,
  tokenLifetimeMs: 20_000,
  sandboxTimeScale: 0.02,
  niceness: 5,
};

export const PROFILES: Record<'short' | 'full', Omit<ChaosProfile, 'seed'>> = {
  /** `npm test`: a couple of minutes on a 2-core machine. */
  short: {
    ...BASE_PROFILE,
    name: 'short',
    users: 16,
    workerKills: 2,
    receiverKills: 1,
    tokenExpiries: 2,
    databaseKills: 1,
    databaseRestarts: 1,
    databaseDowntimeMs: 4_000,
    trafficWindowMs: 36_000,
    trafficDrainMs: 45_000,
    lateDeliveryMs: 15_000,
    settleTimeoutMs: 60_000,
    graceMs: 6_000,
    deadlineMs: 200_000,
    processTimeout: '4m',
  },
  /** `npm run chaos`: the tracker's figures (at least 200 users, 8 worker kills, 6 receiver kills, one restart). */
  full: {
    ...BASE_PROFILE,
    name: 'full',
    users: 200,
    workerKills: 8,
    receiverKills: 6,
    tokenExpiries: 6,
    databaseKills: 3,
    databaseRestarts: 2,
    databaseDowntimeMs: 12_000,
    trafficWindowMs: 330_000,
    trafficDrainMs: 150_000,
    lateDeliveryMs: 45_000,
    settleTimeoutMs: 240_000,
    graceMs: 10_000,
    deadlineMs: 900_000,
    processTimeout: '20m',
  },
};

/** Every duration of the product, shortened so that lost events are recovered by polling within seconds. */
function productEnv(profile: ChaosProfile): Record<string, string> {
  return {
    SANDBOX_TIME_SCALE: String(profile.sandboxTimeScale),
    SANDBOX_DELIVERY_TIMEOUT: '5s',
    RAMP_STEP_DEADLINE: '4s',
    RAMP_POLL_INITIAL: '1s',
    RAMP_POLL_MAXIMUM: '4s',
    RAMP_PROCESS_TIMEOUT: profile.processTimeout,
    RAMP_ACTIVITY_START_TO_CLOSE: '10s',
    RAMP_ACTIVITY_SCHEDULE_TO_CLOSE: '3m',
    RAMP_ACTIVITY_RETRY_INITIAL: '500ms',
    RAMP_ACTIVITY_RETRY_MAXIMUM: '3s',
    RAMP_ACTIVITY_HEARTBEAT: '4s',
    OPERATOR_REQUEST_TIMEOUT: '5s',
    CLIENT_WEBHOOK_TIMEOUT: `${CLIENT_WEBHOOK_TIMEOUT_MS}ms`,
  };
}

/** How long the dispatcher waits for the client endpoint's answer; a late answer comes after it. */
const CLIENT_WEBHOOK_TIMEOUT_MS = 2_000;
const LATE_ANSWER_MS = CLIENT_WEBHOOK_TIMEOUT_MS + 1_000;

// ------------------------------------------------------------------------------------------------ report

export interface ChaosFigures {
  lost: number;
  duplicateRuns: number;
  unrecordedWallets: number;
  misattributed: number;
  /** The ledger (ledger-invariants.ts): rows and events lost, rows stale, rows duplicated, booked rows wrong. */
  lostRows: number;
  staleRows: number;
  duplicateRows: number;
  bookingMismatches: number;
}

export interface ChaosReport {
  profile: string;
  seed: number;
  durationMs: number;
  figures: ChaosFigures;
  /** One line per violation, per figure. */
  findings: Record<keyof ChaosFigures, string[]>;
  counts: {
    users: number;
    walletCalls: number;
    /** Time from an end user's first ensureDepositWallet call until every one of its calls had an answer. */
    walletLatencyMs: { median: number; max: number };
    offRamps: number;
    onRamps: { settled: number; expired: number; failed: number };
    /** On-ramps announced only after their MXN deposit, and how many of those were claimed after they ended. */
    lateAnnouncements: number;
    lateClaims: number;
    endUsers: number;
    workerKills: number;
    workerKillsWithCreateWalletHeld: number;
    receiverKills: number;
    devServerRestarts: number;
    databaseKills: number;
    databaseRestarts: number;
    releases: number;
    /** Every version at the end, newest first, with the ramps that ran on it (open or closed) and those still open. */
    versions: Array<VersionReport & { ramps: number; rampsRunning: number }>;
    unexpectedExits: Record<string, number>;
    tokenExpiriesForced: number;
    tokenExpiredAnswers: number;
    operator503s: number;
    operatorWalletsOfEndUsers: number;
    /** End-user wallets the operator created while no worker was alive: answers that reached no one. */
    walletsCreatedWhileWorkerDown: number;
    recordedExtraWallets: number;
    events: number;
    deliveries: {
      delivered: number;
      dropped: number;
      duplicated: number;
      delayed: number;
      reordered: number;
      failedAttempts: number;
      gaveUp: number;
    };
    lateDeliveries: {
      afterProcessEnded: number;
      delayedByFault: number;
      retries: number;
      examples: string[];
    };
    trafficErrors: string[];
    ledger: LedgerReadout['counts'];
    /** Booked rows behind the operator in a transaction's status or the gas (LedgerReadout): a product gap. */
    bookedBehindOperator: string[];
    /** Ramps that applied a snapshot while their last write ran (LedgerReadout): a product gap. */
    appliedAfterFinalWrite: string[];
    /** Off-ramps whose gas was booked after they ended, as the operator charged it (LedgerReadout). */
    gasBookedLate: string[];
    /** What the stand-in client endpoint received, and how many it refused or answered too late on purpose. */
    clientEndpoint: { deliveries: number; refused: number; answeredLate: number };
  };
  timeline: string[];
  /** The child processes' logs; null once removed after a clean run. */
  logDir: string | null;
}

export const violations = (report: ChaosReport): number =>
  (Object.values(report.figures) as number[]).reduce((sum, figure) => sum + figure, 0);

export function formatReport(report: ChaosReport, maxFindings = 15): string {
  const { figures, counts } = report;
  const d = counts.deliveries;
  const late = counts.lateDeliveries;
  const lines = [
    `== chaos summary: profile ${report.profile}, seed ${report.seed}, ${(report.durationMs / 1000).toFixed(0)} s`,
    `   lost processes            ${figures.lost}`,
    `   duplicate runs            ${figures.duplicateRuns}`,
    `   unrecorded wallets        ${figures.unrecordedWallets}`,
    `   misattributed processes   ${figures.misattributed}`,
    `   ledger: lost rows         ${figures.lostRows}`,
    `   ledger: stale rows        ${figures.staleRows}`,
    `   ledger: duplicate rows    ${figures.duplicateRows}`,
    `   ledger: booked rows unlike the operator's records ${figures.bookingMismatches}`,
    `-- traffic: ${counts.users} end users (${counts.walletCalls} ensureDepositWallet calls; a user's wallet took ${(counts.walletLatencyMs.median / 1000).toFixed(1)} s median, ${(counts.walletLatencyMs.max / 1000).toFixed(1)} s at most), ${counts.offRamps} off-ramps, ` +
      `${counts.onRamps.settled + counts.onRamps.expired + counts.onRamps.failed} on-ramps (expected: ${counts.onRamps.settled} settled, ${counts.onRamps.expired} expired, ${counts.onRamps.failed} failed; ${counts.lateAnnouncements} announced after their order events, ${counts.lateClaims} of them claimed after they ended)`,
    `-- kills: worker ${counts.workerKills} (${counts.workerKillsWithCreateWalletHeld} with CreateWallet held in flight), receiver ${counts.receiverKills}; ` +
      `dev-server restarts ${counts.devServerRestarts}; PostgreSQL SIGKILLs ${counts.databaseKills}, clean restarts ${counts.databaseRestarts}; exits nobody asked for: ${Object.entries(
        counts.unexpectedExits,
      )
        .map(([name, n]) => `${name} ${n}`)
        .join(', ')}`,
    `-- releases: ${counts.releases}; worker versions at the end: ${counts.versions
      .map(
        (version) =>
          `${version.buildId} ${version.state} (${version.ramps} ramps ran on it, ${version.rampsRunning} still open; ${version.running} workflows running, ${version.longLived} long-lived)`,
      )
      .join(', ')}`,
    `-- deliveries: ${counts.events} events; delivered ${d.delivered}, dropped ${d.dropped}, duplicated ${d.duplicated}, delayed ${d.delayed}, reordered ${d.reordered}, failed attempts ${d.failedAttempts}, given up ${d.gaveUp}`,
    `-- ledger: ${counts.ledger.rampRows} ramp rows, ${counts.ledger.bookings} booked, ${counts.ledger.endUserRows} end users, ${counts.ledger.eventRows} outcome events; ` +
      `${counts.ledger.writesRetried} writes retried (at most ${counts.ledger.mostAttempts} attempts) ` +
      `(${counts.ledger.events.confirmed} confirmed by the client endpoint, ${counts.ledger.events.redeliveredAfterConfirmation} redelivered after a confirmation, ${counts.ledger.events.pending} pending); ` +
      `the endpoint got ${counts.clientEndpoint.deliveries} deliveries, refused ${counts.clientEndpoint.refused} and answered ${counts.clientEndpoint.answeredLate} too late`,
    `-- delivered after their process had ended: ${late.afterProcessEnded} (${late.delayedByFault} delayed by the fault, ${late.retries} retries)`,
    ...late.examples.slice(0, 5).map((line) => `     ${line}`),
    `-- operator: ${counts.operator503s} injected 503s, ${counts.tokenExpiriesForced} forced token expiries (${counts.tokenExpiredAnswers} token_expired answers); ` +
      `${counts.operatorWalletsOfEndUsers} end-user wallets at the operator (${counts.walletsCreatedWhileWorkerDown} created while the worker was dead), ` +
      `${counts.recordedExtraWallets} extra creations recorded by the product`,
  ];
  if (counts.bookedBehindOperator.length > 0) {
    lines.push(
      `-- booked before their other transactions' webhooks arrived, behind the operator in a status or the gas (${counts.bookedBehindOperator.length}; not counted as a violation):`,
      ...counts.bookedBehindOperator.slice(0, maxFindings).map((line) => `     ${line}`),
    );
  }
  if (counts.appliedAfterFinalWrite.length > 0) {
    lines.push(
      `-- applied a snapshot while their last write ran, so their end state is not in the ledger (${counts.appliedAfterFinalWrite.length}; not counted as a violation):`,
      ...counts.appliedAfterFinalWrite.slice(0, maxFindings).map((line) => `     ${line}`),
    );
  }
  if (counts.gasBookedLate.length > 0) {
    lines.push(
      `-- gas booked after the ramp ended, as the operator charged it (${counts.gasBookedLate.length}):`,
      ...counts.gasBookedLate.slice(0, maxFindings).map((line) => `     ${line}`),
    );
  }
  if (counts.trafficErrors.length > 0) {
    lines.push(
      `-- traffic errors (${counts.trafficErrors.length}):`,
      ...counts.trafficErrors.slice(0, maxFindings).map((line) => `     ${line}`),
    );
  }
  for (const [figure, findings] of Object.entries(report.findings)) {
    if (findings.length === 0) continue;
    lines.push(
      `-- ${figure} (${findings.length}):`,
      ...findings.slice(0, maxFindings).map((line) => `     ${line}`),
    );
    if (findings.length > maxFindings) lines.push(`     ... and ${findings.length - maxFindings} more`);
  }
  lines.push(`-- child process logs: ${report.logDir ?? 'removed (every invariant held)'}`);
  return lines.join('\n');
}

// ------------------------------------------------------------------------------------------------ helpers

/** The sandbox's seeded PRNG, with ranges: the seed is printed so a run can be replayed. */
export class Prng extends Random {
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }
  int(min: number, max: number): number {
    return Math.floor(this.between(min, max + 1));
  }
}

class Aborted extends Error {}

/** A refusal no retry can change (a 4xx other than 408/429, invalid input): a defect of the traffic itself. */
class Refused extends Error {}

const refusal = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Aborted('aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Aborted('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface HttpAnswer<T> {
  status: number;
  data?: T;
  error?: { code?: string; message?: string };
}

async function httpJson<T>(
  url: string,
  init: {
    method: string;
    headers?: Record<string, string>;
    body?: unknown;
    timeoutMs: number;
    signal: AbortSignal;
  },
): Promise<HttpAnswer<T>> {
  const response = await fetch(url, {
    method: init.method,
    headers: {
      accept: 'application/json',
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    signal: AbortSignal.any([init.signal, AbortSignal.timeout(init.timeoutMs)]),
  });
  const text = await response.text();
  let parsed: { data?: T; error?: { code?: string; message?: string } } = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    // Not JSON (a proxy page, an empty body): the status says enough.
  }
  return { status: response.status, ...parsed };
}

// ------------------------------------------------------------------------------------------------ sandbox records

interface SandboxWallet {
  id: string;
  externalUserId: string;
  createdAt: string;
}
interface SandboxCallRecord {
  route: string | null;
  status: number;
  errorCode?: string;
  injectedFault?: boolean;
}
interface SandboxOffRampRun {
  depositId: string;
  walletId: string;
  topUpId: string | null;
  sweepId: string | null;
  orderId: string | null;
  orderTransactionId: string | null;
}

const TRON = 'networks/tron-mainnet';

// ------------------------------------------------------------------------------------------------ the run

interface ExpectedProcess {
  workflowId: string;
  end: ExpectedEnd;
  /** The end user the process must name. */
  endUserId: string;
  kind: 'off-ramp' | 'on-ramp' | 'end-user';
  /** Off-ramp: the deposit; on-ramp: the order reference. */
  key: string;
}

interface UserPlan {
  index: number;
  endUserId: string;
  arrivalMs: number;
  walletCalls: number;
  /** USDT deposited to its address (decimal string). */
  offRampAmount: string;
  onRamp: {
    reference: string;
    outcome: 'executed' | 'expired' | 'failed';
    mxnAmount: string;
    /** Announced (startOnRamp) only after the MXN deposit, this long after it. */
    announceAfterMs: number | null;
  } | null;
}

/** One user in this many announces its on-ramp after its order events (a late claim when the on-ramp has ended). */
const LATE_ANNOUNCEMENT_EVERY = 3;

type ChaosAction =
  | { atMs: number; kind: 'worker-kill'; holdCreateWalletMs: number; downtimeMs: number }
  | { atMs: number; kind: 'receiver-kill'; downtimeMs: number }
  | { atMs: number; kind: 'dev-server-restart'; downtimeMs: number; killWorkerWhileDown: boolean }
  | { atMs: number; kind: 'token-expiry' }
  | { atMs: number; kind: 'release'; buildId: string }
  | { atMs: number; kind: 'database-kill' | 'database-restart'; downtimeMs: number }
  | { atMs: number; kind: 'reconcile' };

export interface RunOptions {
  log?: (line: string) => void;
  /** Keep the temporary folder (logs, the dev server's SQLite file) after a clean run too. */
  keepFiles?: boolean;
}

/** Runs the scenario and answers the report; throws (after killing every child) when the hard deadline passes. */
export async function runChaos(profile: ChaosProfile, options: RunOptions = {}): Promise<ChaosReport> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const controller = new AbortController();
  // Every wait and request of the run listens on this one signal.
  setMaxListeners(0, controller.signal);
  let stack: ChaosStack | undefined;
  let deadlineTimer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    deadlineTimer = setTimeout(() => {
      controller.abort();
      const tails = stack ? `\n${stack.tails()}` : '';
      killEveryChild();
      reject(
        new Error(
          `the chaos run did not finish within its hard deadline (${profile.deadlineMs} ms); every child was killed.${tails}`,
        ),
      );
    }, profile.deadlineMs);
  });
  const work = (async () => {
    let report: ChaosReport;
    try {
      report = await scenario(profile, controller.signal, log, (started) => (stack = started));
    } catch (error) {
      if (stack && !(error instanceof Aborted)) log(`\n${stack.tails()}`);
      throw error;
    } finally {
      await stack?.stopAll();
    }
    // A clean run leaves nothing behind (npm test runs it every time); a run with findings, or in which a process
    // exited on its own, keeps its evidence.
    const crashed = Object.values(report.counts.unexpectedExits).some((exits) => exits > 0);
    if (violations(report) === 0 && !crashed && !options.keepFiles && stack) {
      stack.removeFiles();
      report = { ...report, logDir: null };
    }
    return report;
  })();
  work.catch(() => undefined); // when the deadline wins, the work's own failure (aborted) is not news
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(deadlineTimer);
    controller.abort();
  }
}

async function scenario(
  profile: ChaosProfile,
  signal: AbortSignal,
  log: (line: string) => void,
  onStack: (stack: ChaosStack) => void,
): Promise<ChaosReport> {
  const startedAt = Date.now();
  const prng = new Prng(profile.seed);
  const timeline: string[] = [];
  const mark = (line: string) => {
    const entry = `t+${((Date.now() - startedAt) / 1000).toFixed(1)}s ${line}`;
    timeline.push(entry);
    log(`[chaos] ${entry}`);
  };
  mark(`profile ${profile.name}: ${profile.users} end users, seed ${profile.seed}`);

  // The client endpoint's own draws: the order deliveries arrive in is the run's, so they do not touch the plan's.
  const endpointPrng = new Prng(profile.seed ^ 0x5eed);
  const endpointCounts = { refused: 0, answeredLate: 0 };
  const stack = await ChaosStack.start({
    seed: profile.seed,
    env: productEnv(profile),
    niceness: profile.niceness,
    log: (line) => log(`[chaos] ${line}`),
    clientEndpoint: async (delivery) => {
      if (!delivery.verified) return 400;
      const draw = endpointPrng.next();
      if (draw < profile.endpointFaults.refuse) {
        endpointCounts.refused += 1;
        return 503;
      }
      if (draw < profile.endpointFaults.refuse + profile.endpointFaults.late) {
        // Answered after the sender stopped waiting: the client may have acted on it, the product retries it.
        endpointCounts.answeredLate += 1;
        await new Promise((resolve) => setTimeout(resolve, LATE_ANSWER_MS));
      }
      return 204;
    },
  });
  onStack(stack);
  mark(
    `stack up (logs in ${stack.logDir}): dev server ${stack.endpoints.temporalAddress}, sandbox ${stack.endpoints.sandboxUrl}, receiver ${stack.endpoints.receiverUrl}, API ${stack.endpoints.apiUrl}`,
  );

  const connection = await Connection.connect({ address: stack.endpoints.temporalAddress });
  const database = openDatabase(stack.endpoints.databaseUrl, { applicationName: 'chaos harness' });
  // Closed only after a run that ended normally, when no call is left: a call still retrying on a closed connection
  // throws from a timer ("Channel has been shut down") into whatever runs next. After a failure it is left open: a
  // leaked connection is harmless, a timer throwing into the next test file is not.
  const report = await (async (): Promise<ChaosReport> => {
    const client = new Client({ connection, namespace: stack.env.TEMPORAL_NAMESPACE! });
    const ramp = new RampClient({
      connection,
      database,
      namespace: stack.env.TEMPORAL_NAMESPACE!,
      taskQueue: stack.env.TEMPORAL_TASK_QUEUE!,
      timings: loadWorkflowTimings(stack.env),
    });

    // ---- sandbox and API access
    const sandbox = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const answer = await httpJson<T>(`${stack.endpoints.sandboxUrl}/sandbox/v1${path}`, {
        method,
        body,
        timeoutMs: 30_000,
        signal,
      });
      if (answer.status >= 300)
        throw new Error(
          `sandbox ${method} ${path}: ${answer.status} ${answer.error?.code ?? ''} ${answer.error?.message ?? ''}`,
        );
      return answer.data as T;
    };
    const api = <T>(method: string, path: string, timeoutMs = 45_000) =>
      httpJson<T>(`${stack.endpoints.apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${stack.apiKey}` },
        timeoutMs,
        signal,
      });

    /** Retries an operation a client backend would retry (5xx, timeouts, refused connections) until `untilMs`. */
    async function retrying<T>(what: string, untilMs: number, attempt: () => Promise<T>): Promise<T> {
      let last: unknown;
      while (Date.now() < untilMs) {
        try {
          return await attempt();
        } catch (error) {
          if (signal.aborted) throw new Aborted('aborted');
          if (error instanceof Refused || (error instanceof Error && error.name === 'InvalidInputError'))
            throw error;
          last = error;
          await sleep(1_000, signal);
        }
      }
      throw new Error(`${what}: gave up (${message(last)})`);
    }

    // ---- account setup (before any fault), the out-of-band account step, gas
    const setupUntil = Date.now() + 90_000;
    const account = await retrying('account setup', setupUntil, async () => {
      const answer = await api<{ masterWallet: { walletId: string }; gasWallet: { walletId: string } }>(
        'POST',
        '/v1/account/setup',
        60_000,
      );
      if (answer.status !== 200 || !answer.data)
        throw new (refusal(answer.status) ? Refused : Error)(
          `POST /v1/account/setup answered ${answer.status} ${answer.error?.code ?? ''}`,
        );
      return answer.data;
    });
    await sandbox('PUT', '/account', {
      masterWalletId: account.masterWallet.walletId,
      gasWalletId: account.gasWallet.walletId,
    });
    await sandbox('POST', `/wallets/${account.gasWallet.walletId}/balances`, {
      asset: 'TRX',
      amount: '1000000',
    });
    await sandbox('POST', `/wallets/${account.gasWallet.walletId}/balances`, {
      asset: 'ETH',
      amount: '1000',
    });
    const trafficFrom = new Date().toISOString();
    mark(
      `account ready (master ${account.masterWallet.walletId}, gas ${account.gasWallet.walletId}, funded)`,
    );

    // ---- faults
    const baseFaults = {
      deliveries: {
        ...profile.deliveryFaults,
        delayMs: profile.lateDeliveryMs,
        reorderMaxHoldMs: 800,
        // order-created is left alone: before it the operator offers no way to find an order by its reference, so
        // an on-ramp whose every order event is lost cannot be found by any client (spec limitation, not a defect).
        eventTypes: ['transaction-created', 'transaction-updated', 'order-updated'],
      },
      api: { fail: profile.operator503, failStatus: 503 },
      tokenLifetimeMs: profile.tokenLifetimeMs,
    };
    const holdCreateWalletFaults = {
      ...baseFaults,
      api: {
        fail: profile.operator503,
        failStatus: 503,
        slowMs: profile.createWalletHoldMs,
        routes: ['createWallet'],
      },
    };
    let currentFaults: object = baseFaults;
    const setFaults = async (faults: object, extra: Record<string, unknown> = {}) => {
      currentFaults = faults;
      await sandbox('POST', '/faults', { ...faults, ...extra });
    };
    await setFaults(baseFaults);
    mark(
      `faults on: deliveries ${JSON.stringify(profile.deliveryFaults)} (delay ${profile.lateDeliveryMs} ms), operator 503 p=${profile.operator503}, tokens live ${profile.tokenLifetimeMs} ms`,
    );

    // ---- plans (all drawn from the seed before anything runs, so a seed names one plan)
    const tag = (profile.seed >>> 0).toString(36);
    const window = profile.trafficWindowMs;
    const decimal = (min: number, max: number, decimals: number) =>
      `${prng.int(min, max)}.${String(prng.int(0, 10 ** decimals - 1)).padStart(decimals, '0')}`;
    const users: UserPlan[] = Array.from({ length: profile.users }, (_unused, index) => {
      const onRamp = prng.chance(profile.onRampShare);
      const unsettled = onRamp && prng.chance(profile.onRampUnsettledShare);
      const outcome = unsettled ? (prng.chance(0.5) ? 'expired' : 'failed') : 'executed';
      return {
        index,
        endUserId: `chaos-${tag}-u${index}`,
        arrivalMs: Math.round(
          (window * 0.85 * index) / Math.max(1, profile.users) + prng.between(0, window * 0.05),
        ),
        walletCalls: prng.int(1, profile.walletCallsPerUser),
        offRampAmount: decimal(5, 900, 6),
        onRamp: onRamp
          ? {
              reference: `chaos-${tag}-r${index}`,
              outcome,
              mxnAmount: decimal(500, 5_000, 2),
              // By the user's index, not the seeded draws, so the rest of the plan stays as it was.
              announceAfterMs: index % LATE_ANNOUNCEMENT_EVERY === 0 ? 500 + ((index * 997) % 5_000) : null,
            }
          : null,
      };
    });
    const actions: ChaosAction[] = [];
    // The first dev-server restart takes one of the worker kills: the worker dies while the server is down, so
    // whatever it did meanwhile (an operator call whose heartbeat, journal and result could not reach Temporal) is
    // lost for good.
    const workerKillsWhileDown = profile.devServerRestarts > 0 && profile.workerKills > 0 ? 1 : 0;
    for (let i = 0; i < profile.workerKills - workerKillsWhileDown; i += 1) {
      const hold = prng.chance(0.6);
      actions.push({
        atMs: prng.between(0.08, 0.92) * window,
        kind: 'worker-kill',
        holdCreateWalletMs: hold ? prng.int(300, profile.createWalletHoldMs) : 0,
        downtimeMs: prng.int(0, 1_500),
      });
    }
    for (let i = 0; i < profile.receiverKills; i += 1)
      actions.push({
        atMs: prng.between(0.05, 0.95) * window,
        kind: 'receiver-kill',
        downtimeMs: prng.int(300, 4_000),
      });
    for (let i = 0; i < profile.devServerRestarts; i += 1)
      actions.push({
        atMs: prng.between(0.35, 0.65) * window,
        kind: 'dev-server-restart',
        downtimeMs: prng.int(500, 2_500),
        killWorkerWhileDown: i < workerKillsWhileDown,
      });
    for (let i = 0; i < profile.tokenExpiries; i += 1)
      actions.push({ atMs: prng.between(0.05, 0.95) * window, kind: 'token-expiry' });
    // Drawn last, so that the seed's other actions stay where they were without a release; early enough that most
    // users arrive after it, so ramps run on both versions.
    for (let i = 0; i < profile.releases; i += 1)
      actions.push({ atMs: prng.between(0.1, 0.3) * window, kind: 'release', buildId: `chaos-${i + 1}` });
    // Drawn after the releases, for the same reason; after them, so that a release is not held up, while ramps are
    // in every step.
    for (let i = 0; i < profile.databaseKills + profile.databaseRestarts; i += 1)
      actions.push({
        atMs: prng.between(0.35, 0.9) * window,
        kind: i < profile.databaseKills ? 'database-kill' : 'database-restart',
        downtimeMs: prng.int(1_000, Math.max(1_000, profile.databaseDowntimeMs)),
      });
    // One reconciliation while the faults go on, drawn after everything else for the same reason.
    actions.push({ atMs: prng.between(0.4, 0.7) * window, kind: 'reconcile' });
    actions.sort((a, b) => a.atMs - b.atMs);

    // ---- traffic and chaos, together
    const expected: ExpectedProcess[] = [];
    const shownWallets = new Map<string, Set<string>>();
    const trafficErrors: string[] = [];
    const onRampIds = new Map<string, { reference: string; orderId: string; transactionId: string | null }>();
    const counts = {
      walletCalls: 0,
      workerKills: 0,
      held: 0,
      receiverKills: 0,
      tokenExpiries: 0,
      lateAnnouncements: 0,
      lateClaims: 0,
      releases: 0,
    };
    let reconcile: WorkflowHandle<typeof reconcileWorkflow> | undefined;
    /** From each worker kill until its successor serves: an operator answer in there reached no one. */
    const workerDownWindows: { from: number; to: number }[] = [];
    const windowStart = Date.now();
    const trafficUntil = windowStart + window + profile.trafficDrainMs;

    const walletLatencies: number[] = [];
    async function ensureWallet(user: UserPlan): Promise<{ walletId: string; tron: string }> {
      const asked = Date.now();
      const calls = Array.from({ length: user.walletCalls }, () =>
        retrying(`deposit wallet of ${user.endUserId}`, trafficUntil, async () => {
          counts.walletCalls += 1;
          const answer = await api<{ walletId: string; addresses: { network: string; address: string }[] }>(
            'POST',
            `/v1/end-users/${user.endUserId}/deposit-wallet`,
          );
          if (answer.status !== 200 || !answer.data)
            throw new (refusal(answer.status) ? Refused : Error)(
              `answered ${answer.status} ${answer.error?.code ?? ''}`,
            );
          return answer.data;
        }),
      );
      const answers = await Promise.all(calls);
      walletLatencies.push(Date.now() - asked);
      const shown = shownWallets.get(user.endUserId) ?? new Set<string>();
      for (const answer of answers) shown.add(answer.walletId);
      shownWallets.set(user.endUserId, shown);
      const first = answers[0]!;
      const tron = first.addresses.find((entry) => entry.network === TRON)?.address;
      if (!tron) throw new Error(`the wallet of ${user.endUserId} has no Tron address`);
      return { walletId: first.walletId, tron };
    }

    async function userTraffic(user: UserPlan): Promise<void> {
      await sleep(Math.max(0, windowStart + user.arrivalMs - Date.now()), signal);
      expected.push({
        workflowId: `end-user/${user.endUserId}`,
        end: { kind: 'running', status: 'wallet-ready' },
        endUserId: user.endUserId,
        kind: 'end-user',
        key: user.endUserId,
      });
      const onRamp = user.onRamp;
      const onRampDone = onRamp
        ? (async () => {
            // Before the deposit the process cannot end, so retrying startOnRamp here can never start a second run;
            // after it, a retry finds the run its order events started (attributed, or claimed once it ended).
            const announce = () =>
              retrying(`startOnRamp ${onRamp.reference}`, trafficUntil, () =>
                ramp.startOnRamp(user.endUserId, onRamp.reference),
              );
            if (onRamp.announceAfterMs === null) await announce();
            const order = await sandbox<{ orderId: string; transactionId: string | null }>(
              'POST',
              '/onramp/deposits',
              {
                reference: onRamp.reference,
                amount: onRamp.mxnAmount,
                coinTo: 'USDT',
                chainTo: 'TRX',
                outcome: onRamp.outcome,
              },
            );
            onRampIds.set(`onramp/${onRamp.reference}`, { reference: onRamp.reference, ...order });
            if (onRamp.announceAfterMs !== null) {
              await sleep(onRamp.announceAfterMs, signal);
              const answer = await announce();
              counts.lateAnnouncements += 1;
              if (answer.claimed) counts.lateClaims += 1;
            }
            const status = onRamp.outcome === 'executed' ? 'settled' : onRamp.outcome;
            expected.push({
              workflowId: `onramp/${onRamp.reference}`,
              end: { kind: 'closed', status },
              endUserId: user.endUserId,
              kind: 'on-ramp',
              key: onRamp.reference,
            });
          })()
        : Promise.resolve();
      const offRampDone = (async () => {
        const wallet = await ensureWallet(user);
        const deposit = await sandbox<{ transactionId: string }>('POST', '/offramp/deposits', {
          address: wallet.tron,
          coin: 'USDT',
          amount: user.offRampAmount,
        });
        expected.push({
          workflowId: `offramp/${deposit.transactionId}`,
          end: { kind: 'closed', status: 'settled' },
          endUserId: user.endUserId,
          kind: 'off-ramp',
          key: deposit.transactionId,
        });
      })();
      const results = await Promise.allSettled([onRampDone, offRampDone]);
      for (const result of results) {
        if (result.status === 'rejected' && !(result.reason instanceof Aborted))
          trafficErrors.push(`${user.endUserId}: ${message(result.reason)}`);
      }
    }

    async function conduct(): Promise<void> {
      for (const action of actions) {
        await sleep(Math.max(0, windowStart + action.atMs - Date.now()), signal);
        switch (action.kind) {
          case 'worker-kill': {
            await stack.worker.settled();
            const hold = action.holdCreateWalletMs > 0;
            if (hold) {
              // Hold CreateWallet at the operator so the kill lands inside the round trip of whatever is in flight.
              await setFaults(holdCreateWalletFaults);
              await sleep(action.holdCreateWalletMs, signal);
              counts.held += 1;
            }
            const pid = stack.worker.pid;
            const killedAt = Date.now();
            await stack.worker.kill('SIGKILL');
            counts.workerKills += 1;
            if (hold) await setFaults(baseFaults);
            mark(
              `SIGKILL worker (pid ${pid})${hold ? ` after holding CreateWallet ${action.holdCreateWalletMs} ms` : ''}; restart in ${action.downtimeMs} ms`,
            );
            await sleep(action.downtimeMs, signal);
            await stack.worker.start();
            workerDownWindows.push({ from: killedAt, to: Date.now() });
            mark(`worker back (pid ${stack.worker.pid})`);
            break;
          }
          case 'receiver-kill': {
            await stack.receiver.settled();
            const pid = stack.receiver.pid;
            await stack.receiver.kill('SIGKILL');
            counts.receiverKills += 1;
            mark(`SIGKILL receiver (pid ${pid}); restart in ${action.downtimeMs} ms`);
            await sleep(action.downtimeMs, signal);
            await stack.receiver.start();
            mark(`receiver back (pid ${stack.receiver.pid})`);
            break;
          }
          case 'dev-server-restart': {
            await stack.worker.settled();
            await stack.stopDevServer(profile.devServerSignal);
            mark(
              `${profile.devServerSignal} dev server; start again on ${stack.endpoints.temporalAddress} with the same data file in ${action.downtimeMs} ms`,
            );
            let killedAt: number | undefined;
            if (action.killWorkerWhileDown) {
              const pid = stack.worker.pid;
              killedAt = Date.now();
              await stack.worker.kill('SIGKILL');
              counts.workerKills += 1;
              mark(`SIGKILL worker (pid ${pid}) while the dev server is down`);
            }
            await sleep(action.downtimeMs, signal);
            await stack.devServer.start();
            mark('dev server back');
            if (killedAt !== undefined) {
              await stack.worker.start();
              workerDownWindows.push({ from: killedAt, to: Date.now() });
              mark(`worker back (pid ${stack.worker.pid})`);
            }
            break;
          }
          case 'token-expiry': {
            await sandbox('POST', '/faults', { ...currentFaults, expireTokensNow: true });
            counts.tokenExpiries += 1;
            mark('every operator token expired now');
            break;
          }
          case 'database-kill':
          case 'database-restart': {
            const kill = action.kind === 'database-kill';
            const pid = stack.postgres.pid;
            mark(
              `${kill ? 'SIGKILL' : 'fast shutdown (SIGINT) of'} PostgreSQL (pid ${pid}); start again on its data folder in ${action.downtimeMs} ms`,
            );
            await stack.restartDatabase(kill ? 'SIGKILL' : 'SIGINT', action.downtimeMs);
            mark(`PostgreSQL back (pid ${stack.postgres.pid})`);
            break;
          }
          case 'release': {
            await stack.worker.settled();
            const previous = stack.workers[stack.workers.length - 1]!.buildId;
            await stack.startWorkerVersion(action.buildId);
            mark(`worker ${action.buildId} started beside ${previous} (pid ${stack.worker.pid})`);
            await stack.release(action.buildId);
            counts.releases += 1;
            mark(`release: ${action.buildId} is current; ${previous} keeps what is pinned to it`);
            break;
          }
          case 'reconcile': {
            reconcile = await client.workflow.start<typeof reconcileWorkflow>('reconcileWorkflow', {
              workflowId: `ops/reconcile-chaos-${new Date().toISOString()}`,
              taskQueue: stack.env.TEMPORAL_TASK_QUEUE!,
              args: [{ timings: loadWorkflowTimings(stack.env) }],
            });
            mark(`reconciliation started (${reconcile.workflowId})`);
            break;
          }
        }
      }
    }

    mark(
      `traffic and chaos for ${(window / 1000).toFixed(0)} s: ${actions.map((action) => `${action.kind}@${(action.atMs / 1000).toFixed(1)}s`).join(', ')}`,
    );
    const conductor = conduct();
    const traffic = Promise.all(users.map((user) => userTraffic(user)));
    await conductor;
    mark('chaos actions done');
    await traffic;
    mark(`traffic done (${expected.length} processes expected, ${trafficErrors.length} traffic errors)`);

    // ---- settle: every process at its end, every delivery over (late ones included), then a grace period
    const down = await stack.allUp();
    if (down.length > 0) throw new Error(`processes down after the chaos phase: ${down.join(', ')}`);

    const listRuns = async (): Promise<RunInfo[]> => {
      const runs: RunInfo[] = [];
      const query = `WorkflowType IN ('offRampWorkflow', 'onRampWorkflow', 'endUserWorkflow', 'accountSetupWorkflow')`;
      for await (const execution of client.workflow.list({ query, pageSize: 1000 }))
        runs.push(toRunInfo(execution));
      return runs;
    };
    const pendingDeliveries = async (): Promise<number> => {
      const [events, deliveries] = await Promise.all([
        sandbox<SandboxEventRecord[]>('GET', '/events'),
        sandbox<SandboxDeliveryRecord[]>('GET', '/deliveries'),
      ]);
      return countPendingDeliveries(
        events.filter((event) => event.time >= trafficFrom),
        deliveries,
      );
    };
    /** Outcome events the ledger still has to deliver to the client endpoint. */
    const pendingEvents = async (): Promise<number> => {
      const row = await database.db
        .selectFrom('outcome_events')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('delivery', '=', 'pending')
        .executeTakeFirstOrThrow();
      return Number(row.count);
    };
    const settleUntil = Date.now() + profile.settleTimeoutMs;
    let outstanding = expected.length;
    let pending = -1;
    let eventsPending = -1;
    for (;;) {
      try {
        const byId = groupRuns(await listRuns());
        outstanding = expected.filter(
          (process) => !reachedEnd(process.end, byId.get(process.workflowId)),
        ).length;
        pending = await pendingDeliveries();
        eventsPending = await pendingEvents();
      } catch (error) {
        if (signal.aborted) throw new Aborted('aborted');
        log(`[chaos] settle read failed (${message(error)}); reading again`);
      }
      if (outstanding === 0 && pending === 0 && eventsPending === 0) break;
      if (Date.now() > settleUntil) break;
      await sleep(2_000, signal);
    }
    mark(
      `settled: ${expected.length - outstanding}/${expected.length} processes at their end, ${pending} deliveries pending, ${eventsPending} outcome events pending; grace ${profile.graceMs} ms`,
    );
    await sleep(profile.graceMs, signal);
    // The reconciliation run during the faults ends like any process: completed, whatever it found.
    const reconciled = reconcile
      ? await Promise.race([
          reconcile.result().then(
            (result) =>
              `completed: ${result.processesChecked} open ramps and ${result.walletsChecked} wallets checked, ` +
              `${result.operatorCalls ?? 0} operator calls, found ${JSON.stringify(result.found)}`,
            (error: unknown) => `failed: ${message(error)}`,
          ),
          sleep(profile.settleTimeoutMs, signal).then(() => 'still running after the settle time'),
        ])
      : 'not started';
    mark(`reconciliation ${reconciled}`);

    // ---- read everything from the outside
    const runs = await listRuns();
    const byId = groupRuns(runs);
    const [wallets, events, deliveries, calls, offRampRuns] = await Promise.all([
      sandbox<SandboxWallet[]>('GET', '/wallets'),
      sandbox<SandboxEventRecord[]>('GET', '/events'),
      sandbox<SandboxDeliveryRecord[]>('GET', '/deliveries'),
      sandbox<SandboxCallRecord[]>('GET', '/calls'),
      sandbox<SandboxOffRampRun[]>('GET', '/offramp/runs'),
    ]);
    const findings: ChaosReport['findings'] = {
      lost: [],
      duplicateRuns: [],
      unrecordedWallets: [],
      misattributed: [],
      ...noLedgerFindings(),
    };

    // One run per process ID.
    const duplicates = findDuplicateRuns(byId);
    for (const finding of duplicates)
      findings.duplicateRuns.push(
        `${finding.workflowId}: ${finding.runs.length} runs: ${describeRuns(finding.runs)}`,
      );

    // Every expected process at its expected end.
    for (const process of expected) {
      const processRuns = byId.get(process.workflowId);
      if (!reachedEnd(process.end, processRuns))
        findings.lost.push(
          `${process.workflowId} (expected ${process.end.status}): ${describeRuns(processRuns)}`,
        );
    }
    if (!reconciled.startsWith('completed')) findings.lost.push(`the reconciliation run: ${reconciled}`);
    // A user whose traffic never got through is lost too (its processes never started).
    for (const error of trafficErrors) findings.lost.push(`traffic that never got through: ${error}`);

    // One wallet per end user, or every extra one recorded.
    const walletsByOwner = new Map<string, SandboxWallet[]>();
    for (const wallet of wallets) {
      const owner = ownerOfLabel(wallet.externalUserId);
      if (owner === null) continue;
      walletsByOwner.set(owner, [...(walletsByOwner.get(owner) ?? []), wallet]);
    }
    const createdWhileWorkerDown = (wallet: SandboxWallet) => {
      const createdAt = Date.parse(wallet.createdAt);
      return workerDownWindows.some((window) => createdAt >= window.from && createdAt <= window.to);
    };
    const describeWallet = (wallet: SandboxWallet) =>
      `${wallet.id} created ${wallet.createdAt}${createdWhileWorkerDown(wallet) ? ' while the worker was dead' : ''}`;
    let recordedExtras = 0;
    let operatorWalletsOfEndUsers = 0;
    let unrecordedTotal = 0;
    // Wallets labelled for an end user no traffic named: nothing of ours can account for them.
    for (const [owner, list] of walletsByOwner) {
      if (users.some((user) => user.endUserId === owner)) continue;
      unrecordedTotal += list.length;
      findings.unrecordedWallets.push(
        `end-user:${owner}: ${list.length} wallets at the operator for a user nobody asked for`,
      );
    }
    const endUserStates = new Map<string, EndUserState | undefined>();
    await mapLimit(users, 6, async (user) => {
      const operatorWallets = walletsByOwner.get(user.endUserId) ?? [];
      operatorWalletsOfEndUsers += operatorWallets.length;
      const answer = await retrying(`GET end user ${user.endUserId}`, Date.now() + 30_000, async () => {
        const read = await api<Record<string, unknown>>('GET', `/v1/end-users/${user.endUserId}`, 20_000);
        if (read.status >= 500) throw new Error(`answered ${read.status}`);
        return read;
      });
      const view = answer.data;
      // The extra wallets an end user accounts for are in its workflow's journal, which no client view publishes.
      const state = await retrying(`query end user ${user.endUserId}`, Date.now() + 30_000, () =>
        client.workflow.getHandle(endUserWorkflowId(user.endUserId)).query(endUserStateQuery),
      ).catch((): EndUserState | undefined => undefined);
      endUserStates.set(user.endUserId, state);
      recordedExtras += recordedExtraWallets(state);
      const missing = unrecordedWallets(operatorWallets.length, state);
      unrecordedTotal += missing;
      if (missing > 0) {
        findings.unrecordedWallets.push(
          `${user.endUserId}: ${operatorWallets.length} wallets at the operator (${operatorWallets.map(describeWallet).join('; ')}), ` +
            `${recordedExtraWallets(state)} extra recorded in its state: ${missing} unrecorded`,
        );
      }
      const shownWallet = (view?.wallet as { walletId?: string } | undefined)?.walletId;
      const shown = [...(shownWallets.get(user.endUserId) ?? [])];
      // Two different wallets shown to one user is the worst form of "more than one wallet": count every extra one.
      const distinctShown = new Set([...shown, ...(shownWallet ? [shownWallet] : [])]);
      if (distinctShown.size > 1) {
        unrecordedTotal += distinctShown.size - 1;
        findings.unrecordedWallets.push(
          `${user.endUserId}: the API showed different wallets: ${[...distinctShown].join(', ')}`,
        );
      }
      if (shownWallet && !operatorWallets.some((wallet) => wallet.id === shownWallet)) {
        unrecordedTotal += 1;
        findings.unrecordedWallets.push(
          `${user.endUserId}: the wallet its state shows (${shownWallet}) is not one of its wallets at the operator`,
        );
      }
    });

    // Each process attributed to the right end user, as the typed client answers it (the latest run).
    const ownerOfWallet = new Map(wallets.map((wallet) => [wallet.id, ownerOfLabel(wallet.externalUserId)]));
    const walletOfDeposit = new Map(offRampRuns.map((run) => [run.depositId, run.walletId]));
    await mapLimit(
      expected.filter((process) => process.kind !== 'end-user' && byId.has(process.workflowId)),
      6,
      async (process) => {
        let state: unknown;
        try {
          state =
            process.kind === 'on-ramp'
              ? await ramp.getOnRamp(process.key)
              : await ramp.getOffRamp(process.key);
        } catch (error) {
          findings.misattributed.push(
            `${process.workflowId}: its state could not be read (${message(error)})`,
          );
          return;
        }
        const named = stateEndUserId(state);
        const owner =
          process.kind === 'on-ramp'
            ? process.endUserId
            : (ownerOfWallet.get(walletOfDeposit.get(process.key) ?? '') ?? null);
        if (named !== owner)
          findings.misattributed.push(
            `${process.workflowId}: state names ${named ?? 'no end user'}, started for ${owner ?? '(unknown owner)'}`,
          );
      },
    );

    // Deliveries: what the faults did, and which arrived after their process had ended.
    const processOfResource = new Map<string, string>();
    for (const run of offRampRuns) {
      for (const id of [run.depositId, run.topUpId, run.sweepId, run.orderTransactionId])
        if (id) processOfResource.set(id, `offramp/${run.depositId}`);
    }
    for (const [workflowId, ids] of onRampIds) {
      processOfResource.set(ids.orderId, workflowId);
      if (ids.transactionId) processOfResource.set(ids.transactionId, workflowId);
    }
    const late = lateDeliveries(deliveries, processOfResource, byId);
    const ours = events.filter((event) => event.time >= trafficFrom);
    const distinct = (predicate: (record: SandboxDeliveryRecord) => boolean) =>
      new Set(deliveries.filter(predicate).map((record) => record.deliveryId)).size;

    // The ledger, read with SQL, against Temporal, the operator's records and the client endpoint's deliveries.
    const expectedEnd = new Map(expected.map((process) => [process.workflowId, process.end.status]));
    const ownerOfReference = new Map(
      users.flatMap((user) => (user.onRamp ? [[user.onRamp.reference, user.endUserId] as const] : [])),
    );
    const rampsOfTraffic: RampOfTraffic[] = [
      ...offRampRuns.map((run) => {
        const workflowId = offRampWorkflowId(run.depositId);
        return {
          workflowId,
          direction: 'off-ramp' as const,
          status: expectedEnd.get(workflowId) ?? 'settled',
          endUserId: ownerOfWallet.get(run.walletId) ?? '(no end user)',
          orderReference: null,
          orderId: run.orderId,
          depositTransactionId: run.depositId,
          gasTransactionIds: [run.topUpId, run.sweepId].filter((id): id is string => id !== null),
        };
      }),
      ...[...onRampIds].map(([workflowId, ids]) => ({
        workflowId,
        direction: 'on-ramp' as const,
        status: expectedEnd.get(workflowId) ?? '(never announced)',
        endUserId: ownerOfReference.get(ids.reference) ?? '(no end user)',
        orderReference: ids.reference,
        orderId: ids.orderId,
        depositTransactionId: ids.transactionId,
        gasTransactionIds: [],
      })),
    ];
    const operator = new OperatorClient({
      config: loadOperatorConfig(stack.env),
      logger: pino({ level: 'silent' }),
    });
    const ledger = await readAndCheckLedger({
      db: database.db,
      client,
      operator,
      runsById: byId,
      ramps: rampsOfTraffic,
      endUsers: endUserStates,
      deliveries: stack.clientEndpoint.deliveries,
    });
    for (const key of Object.keys(ledger.findings) as (keyof LedgerFindings)[])
      findings[key].push(...ledger.findings[key]);

    const figures: ChaosFigures = {
      lost: findings.lost.length,
      duplicateRuns: duplicateRunCount(duplicates),
      unrecordedWallets: unrecordedTotal,
      misattributed: findings.misattributed.length,
      lostRows: findings.lostRows.length,
      staleRows: findings.staleRows.length,
      duplicateRows: findings.duplicateRows.length,
      bookingMismatches: findings.bookingMismatches.length,
    };

    const onRampCounts = { settled: 0, expired: 0, failed: 0 };
    for (const process of expected)
      if (process.kind === 'on-ramp') onRampCounts[process.end.status as keyof typeof onRampCounts] += 1;
    const unexpectedExits = Object.fromEntries(
      stack.processes.map((child: ManagedProcess) => [child.name, child.unexpectedExits]),
    );
    const taskQueue = stack.env.TEMPORAL_TASK_QUEUE!;
    const rampsOn = async (buildId: string, clause = '') =>
      (
        await client.workflow.count(
          `WorkflowType IN ('offRampWorkflow', 'onRampWorkflow') AND TemporalWorkerDeploymentVersion = '${taskQueue}:${buildId}'${clause}`,
        )
      ).count;
    const versions = await Promise.all(
      (await deploymentReport(client, taskQueue)).versions.map(async (version) => ({
        ...version,
        ramps: await rampsOn(version.buildId),
        rampsRunning: await rampsOn(version.buildId, " AND ExecutionStatus = 'Running'"),
      })),
    );

    return {
      profile: profile.name,
      seed: profile.seed,
      durationMs: Date.now() - startedAt,
      figures,
      findings,
      counts: {
        users: users.length,
        walletCalls: counts.walletCalls,
        walletLatencyMs: {
          median: [...walletLatencies].sort((a, b) => a - b)[Math.floor(walletLatencies.length / 2)] ?? 0,
          max: Math.max(0, ...walletLatencies),
        },
        offRamps: expected.filter((process) => process.kind === 'off-ramp').length,
        onRamps: onRampCounts,
        lateAnnouncements: counts.lateAnnouncements,
        lateClaims: counts.lateClaims,
        endUsers: expected.filter((process) => process.kind === 'end-user').length,
        workerKills: counts.workerKills,
        workerKillsWithCreateWalletHeld: counts.held,
        receiverKills: counts.receiverKills,
        devServerRestarts: stack.devServerRestarts,
        databaseKills: stack.databaseKills,
        databaseRestarts: stack.databaseRestarts,
        releases: counts.releases,
        versions,
        unexpectedExits,
        tokenExpiriesForced: counts.tokenExpiries,
        tokenExpiredAnswers: calls.filter((call) => call.errorCode === 'token_expired').length,
        operator503s: calls.filter((call) => call.injectedFault && call.status === 503).length,
        operatorWalletsOfEndUsers,
        walletsCreatedWhileWorkerDown: wallets.filter(
          (wallet) => ownerOfLabel(wallet.externalUserId) !== null && createdWhileWorkerDown(wallet),
        ).length,
        recordedExtraWallets: recordedExtras,
        events: ours.length,
        deliveries: {
          delivered: deliveries.filter((record) => record.outcome === 'delivered').length,
          dropped: deliveries.filter((record) => record.outcome === 'dropped').length,
          duplicated: distinct((record) => record.duplicateOf !== undefined),
          delayed: distinct((record) => record.fault === 'delay'),
          reordered: distinct((record) => record.fault === 'reorder'),
          failedAttempts: deliveries.filter((record) => record.outcome === 'failed').length,
          gaveUp: deliveries.filter((record) => record.outcome === 'gave-up').length,
        },
        lateDeliveries: late,
        trafficErrors,
        ledger: ledger.counts,
        bookedBehindOperator: ledger.bookedBehindOperator,
        appliedAfterFinalWrite: ledger.appliedAfterFinalWrite,
        gasBookedLate: ledger.gasBookedLate,
        clientEndpoint: { deliveries: stack.clientEndpoint.deliveries.length, ...endpointCounts },
      },
      timeline,
      logDir: stack.logDir,
    };
  })();
  await connection.close();
  await database.close();
  return report;
}

function toRunInfo(execution: WorkflowExecutionInfo): RunInfo {
  return {
    workflowId: execution.workflowId,
    runId: execution.runId,
    type: execution.type,
    status: execution.status.name,
    startTime: execution.startTime,
    closeTime: execution.closeTime,
    rampStatus: execution.typedSearchAttributes.get(RampStatus),
  };
}

/** Deliveries the receiver accepted after the first run of their process had closed. */
function lateDeliveries(
  deliveries: readonly SandboxDeliveryRecord[],
  processOfResource: ReadonlyMap<string, string>,
  byId: ReadonlyMap<string, RunInfo[]>,
): ChaosReport['counts']['lateDeliveries'] {
  const result = { afterProcessEnded: 0, delayedByFault: 0, retries: 0, examples: [] as string[] };
  for (const record of deliveries) {
    if (record.outcome !== 'delivered') continue;
    const workflowId = processOfResource.get(record.resourceId);
    const firstRun = workflowId ? byId.get(workflowId)?.[0] : undefined;
    if (!workflowId || !firstRun?.closeTime) continue;
    const afterMs = Date.parse(record.time) - firstRun.closeTime.getTime();
    if (afterMs <= 0) continue;
    result.afterProcessEnded += 1;
    if (record.fault === 'delay') result.delayedByFault += 1;
    if (record.attempt > 1) result.retries += 1;
    const runs = byId.get(workflowId)!.filter((run) => run.status !== 'CONTINUED_AS_NEW').length;
    result.examples.push(
      `${record.eventType} of ${record.resourceId} (${record.fault ?? `attempt ${record.attempt}`}) delivered ${(afterMs / 1000).toFixed(1)} s after ${workflowId} closed; ${workflowId} now has ${runs} run${runs === 1 ? '' : 's'}`,
    );
  }
  return result;
}
