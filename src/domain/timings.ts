import type { MarketRules } from './markets';

/**
 * Every duration a workflow uses, in milliseconds, and the account's market rules. Workflows cannot read the
 * environment, so the starter loads these from configuration (src/config/timings.ts) and passes them in the workflow
 * input; a continued-as-new run carries them on. Tests shorten time by passing smaller values.
 */
export interface WorkflowTimings {
  /** Start-to-close of one operator call attempt. */
  activityStartToCloseMs: number;
  /** Schedule-to-close of an operator call, retries included. */
  activityScheduleToCloseMs: number;
  /** First retry delay of an operator call; doubles up to the maximum. */
  activityRetryInitialMs: number;
  activityRetryMaximumMs: number;
  /** Heartbeat timeout of activities that heartbeat (wallet creation). */
  activityHeartbeatMs: number;
  /** Deadline of each step of an on-ramp or off-ramp process before it polls / is flagged. */
  stepDeadlineMs: number;
  /** First poll delay when an expected event is late; doubles up to the maximum. */
  pollInitialMs: number;
  pollMaximumMs: number;
  /** How long a ramp process may run, counted from its start, before it gives up as timed out. */
  processTimeoutMs: number;
  /**
   * How long an on-ramp nobody announced stays claimable after it ends (ONRAMP_CLAIM_WINDOW). Absent from the inputs
   * of processes started by version 1.0: those wait DEFAULT_ONRAMP_CLAIM_WINDOW_MS.
   */
  onRampClaimWindowMs?: number;
  /**
   * The account's markets and quote tolerance (RAMP_MARKETS). Absent from the inputs of processes started by
   * version 1.0: those check no market and no tolerance.
   */
  markets?: MarketRules;
  /** A quote's life (25 s per spec): the quote activity's whole budget, since a later answer is of no use. */
  quoteTtlMs: number;
  /**
   * How long a router keeps re-reading a resource the operator answers 404 for: its read can lag its own webhook
   * briefly, but a resource it never knows is a forged or misrouted event.
   */
  unknownResourceTimeoutMs: number;
  /** Delivery of outcome events to the client's backend. */
  outcomeDelivery: OutcomeDeliveryTimings;
}

/** Delivery of outcome events to the client's backend (CLIENT_WEBHOOK_*). */
export interface OutcomeDeliveryTimings {
  /** One attempt: every endpoint is tried at once, each within the client webhook timeout. */
  attemptTimeoutMs: number;
  retryInitialMs: number;
  retryMaximumMs: number;
  /** How long an event keeps being retried before it is recorded as failed and an incident is raised. */
  retryForMs: number;
}

/** The test event is a check of the endpoints now: a few attempts within a minute, not a day of retries. */
export const TEST_EVENT_RETRY_FOR_MS = 60_000;
/** ONRAMP_CLAIM_WINDOW's default: a week, as long as a process may wait for its events. */
export const DEFAULT_ONRAMP_CLAIM_WINDOW_MS = 7 * 86_400_000;
