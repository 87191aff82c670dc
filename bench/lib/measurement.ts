/** What the runner hands each measurement, and what a measurement gives back. */
import type { BenchContext } from './context';
import type { Figure } from './report';

export interface BenchSettings {
  /** Deliveries per closed-loop leg, and senders at once. */
  deliveries: number;
  concurrency: number;
  /** Distinct resource IDs the deliveries of a leg cycle through (the ID spread); deliveries means all distinct. */
  ids: number;
  /** Closed-loop rounds; legs interleave within a round, figures are medians over rounds. */
  rounds: number;
  legTimeLimitMs: number;
  openLoopDurationMs: number;
  /** The open loop's rate as a share of the raw maximum measured in the same run. */
  openLoopShare: number;
  maxInFlight: number;
  drainMs: number;
  requestTimeoutMs: number;
  /** End users whose deposit wallets are created, and the sample timed one call at a time. */
  walletUsers: number;
  walletSample: number;
  /** deposit-wallets: the project checkout whose worker and API are measured (default: this one). */
  checkout?: string;
  /** event-to-state: the open loop's rate when set (otherwise openLoopShare of the raw maximum). */
  eventRate?: number;
  /** bursts: off-ramps posted at once. */
  burstSize: number;
  /**
   * bursts and concurrent off-ramps: the sandbox's first attempts in flight at once to the receiver
   * (the sandbox's deliveryConcurrency); bursts also runs once at the sandbox's default of 1.
   */
  deliveryConcurrency: number;
  /** concurrent off-ramps: how many, for how many end users (deposits go round the users), and how long they may take. */
  offRamps: number;
  offRampUsers: number;
  settleTimeLimitMs: number;
  /** statement: booked ramps in the statement's period. */
  statementRamps: number;
  /** events: outcome events in the ledger. */
  events: number;
  /** cost: off-ramps, and as many on-ramps, settled end to end. */
  costRamps: number;
  /** scale: open ramps and end users' deposit wallets one reconciliation run checks. */
  scaleRamps: number;
  scaleWallets: number;
}

/**
 * Figures one measurement leaves for the next ones of the same run: `rawMaxThroughput` (raw signalWithStart, closed
 * loop, WAL baseline server) and `receiverThroughput` (the receiver, closed loop, npm-start server), in /s.
 */
export type Shared = Record<string, number>;

export interface MeasurementResult {
  figures: Figure[];
  legs: Record<string, unknown>;
}

export interface Measurement {
  name: string;
  description: string;
  run(
    context: BenchContext,
    settings: BenchSettings,
    shared: Shared,
    log: (line: string) => void,
  ): Promise<MeasurementResult>;
}

/** `<prefix>-<n>` for the index-th delivery of a leg: the leg's own IDs, cycling through `ids` of them. */
export const resourceIdOf = (prefix: string, ids: number) => (index: number) => `${prefix}-${index % ids}`;

/** A tag unique to this run, so that legs never reuse the workflows of an earlier run or leg. */
export const RUN_TAG = Date.now().toString(36);
