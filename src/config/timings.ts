import { z } from 'zod';
import type { WorkflowTimings } from '../domain/timings';
import { clientWebhookTimeout } from './client-webhooks';
import { durationMs } from './duration';
import { marketRules, quoteToleranceField, rampMarketsField } from './markets';
import { type Env, parseSection } from './env';
import { setting, type SettingMeta, TEMPORAL_CLIENTS } from './setting';

/** A workflow duration: read by every process that starts workflows, since it travels in their input. */
const duration = (defaultText: string, meta: Omit<SettingMeta, 'readBy' | 'default'>) =>
  setting(durationMs(defaultText), { ...meta, default: defaultText, readBy: TEMPORAL_CLIENTS });

/** Every workflow duration, from the environment. Tests pass shorter ones in code instead of sleeping. */
export const timingsEnv = z.object({
  RAMP_STEP_DEADLINE: duration('30m', {
    group: 'production',
    meaning:
      'How long each step of a ramp process waits for its event before the process polls the operator and is ' +
      'flagged stuck: how late is late for the business.',
    example: '30m',
  }),
  RAMP_PROCESS_TIMEOUT: duration('7d', {
    group: 'production',
    meaning:
      'How long a ramp process may run, counted from its start, before it gives up as timed out (an off-ramp raises ' +
      'an incident); a router lane retries a failing read as long.',
    example: '7d',
  }),
  ONRAMP_CLAIM_WINDOW: duration('7d', {
    group: 'production',
    meaning:
      'How long an on-ramp nobody announced stays claimable (startOnRamp) after it ends; then it closes unclaimed ' +
      "with an incident. The namespace's retention must exceed RAMP_PROCESS_TIMEOUT plus this.",
    example: '7d',
  }),
  RAMP_MARKETS: rampMarketsField,
  RAMP_QUOTE_TOLERANCE: quoteToleranceField,
  CLIENT_WEBHOOK_RETRY_FOR: duration('24h', {
    group: 'tests shorten',
    meaning:
      "How long an outcome event is retried while the client's backend does not answer 2xx; then it is recorded " +
      'failed and an incident is raised, and the events API redelivers it once the backend is back.',
  }),
  RAMP_ACTIVITY_START_TO_CLOSE: duration('30s', {
    group: 'tests shorten',
    meaning: 'One attempt of an operator call (an activity).',
  }),
  RAMP_ACTIVITY_SCHEDULE_TO_CLOSE: duration('10m', {
    group: 'tests shorten',
    meaning: 'An operator call with all its retries.',
  }),
  RAMP_ACTIVITY_RETRY_INITIAL: duration('1s', {
    group: 'tests shorten',
    meaning: 'The first retry delay of an operator call; it doubles up to RAMP_ACTIVITY_RETRY_MAXIMUM.',
  }),
  RAMP_ACTIVITY_RETRY_MAXIMUM: duration('1m', {
    group: 'tests shorten',
    meaning: 'The longest retry delay of an operator call.',
  }),
  RAMP_ACTIVITY_HEARTBEAT: duration('20s', {
    group: 'tests shorten',
    meaning: 'The heartbeat timeout of the wallet-creation activities: a silent worker is given up after it.',
  }),
  RAMP_POLL_INITIAL: duration('1m', {
    group: 'tests shorten',
    meaning: "The first poll delay once a step's event is late; it doubles up to RAMP_POLL_MAXIMUM.",
  }),
  RAMP_POLL_MAXIMUM: duration('30m', {
    group: 'tests shorten',
    meaning: 'The longest delay between two polls of a late process.',
  }),
  CLIENT_WEBHOOK_TIMEOUT: clientWebhookTimeout,
});

/** Room an attempt gets beyond the HTTP timeout (signing, connecting, reporting back). */
const OUTCOME_ATTEMPT_MARGIN_MS = 5_000;
/** Quote life when the operator's answer has no expires_at: the spec's 25 s. */
const QUOTE_TTL_MS = 25_000;
/**
 * How long a router re-reads a resource the operator answers 404 for: its read can lag its own webhook by moments;
 * a resource still unknown after minutes is a forged or misrouted event.
 */
const UNKNOWN_RESOURCE_TIMEOUT_MS = 10 * 60_000;
/** Outcome events retry at 5 s doubling to 1 h: a backend back within minutes hears at once, one down for hours hourly. */
const OUTCOME_RETRY_INITIAL_MS = 5_000;
const OUTCOME_RETRY_MAXIMUM_MS = 60 * 60_000;

export function loadWorkflowTimings(env: Env): WorkflowTimings {
  const raw = parseSection('workflow timings', timingsEnv, env);
  return {
    activityStartToCloseMs: raw.RAMP_ACTIVITY_START_TO_CLOSE,
    activityScheduleToCloseMs: raw.RAMP_ACTIVITY_SCHEDULE_TO_CLOSE,
    activityRetryInitialMs: raw.RAMP_ACTIVITY_RETRY_INITIAL,
    activityRetryMaximumMs: raw.RAMP_ACTIVITY_RETRY_MAXIMUM,
    activityHeartbeatMs: raw.RAMP_ACTIVITY_HEARTBEAT,
    stepDeadlineMs: raw.RAMP_STEP_DEADLINE,
    pollInitialMs: raw.RAMP_POLL_INITIAL,
    pollMaximumMs: raw.RAMP_POLL_MAXIMUM,
    processTimeoutMs: raw.RAMP_PROCESS_TIMEOUT,
    onRampClaimWindowMs: raw.ONRAMP_CLAIM_WINDOW,
    markets: marketRules(raw.RAMP_MARKETS, raw.RAMP_QUOTE_TOLERANCE),
    quoteTtlMs: QUOTE_TTL_MS,
    unknownResourceTimeoutMs: UNKNOWN_RESOURCE_TIMEOUT_MS,
    outcomeDelivery: {
      attemptTimeoutMs: raw.CLIENT_WEBHOOK_TIMEOUT + OUTCOME_ATTEMPT_MARGIN_MS,
      retryInitialMs: OUTCOME_RETRY_INITIAL_MS,
      retryMaximumMs: OUTCOME_RETRY_MAXIMUM_MS,
      retryForMs: raw.CLIENT_WEBHOOK_RETRY_FOR,
    },
  };
}
