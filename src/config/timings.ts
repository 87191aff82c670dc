import { z } from 'zod';
import type { WorkflowTimings } from '../domain/timings';
import { durationMs } from './duration';
import { type Env, parseSection } from './env';

/** Every workflow duration, from the environment. Tests pass shorter ones instead of sleeping. */
const timingsSchema = z.object({
  RAMP_ACTIVITY_START_TO_CLOSE: durationMs('30s'),
  RAMP_ACTIVITY_SCHEDULE_TO_CLOSE: durationMs('10m'),
  RAMP_ACTIVITY_RETRY_INITIAL: durationMs('1s'),
  RAMP_ACTIVITY_RETRY_MAXIMUM: durationMs('1m'),
  RAMP_ACTIVITY_HEARTBEAT: durationMs('20s'),
  RAMP_STEP_DEADLINE: durationMs('30m'),
  RAMP_POLL_INITIAL: durationMs('1m'),
  RAMP_POLL_MAXIMUM: durationMs('30m'),
  RAMP_PROCESS_TIMEOUT: durationMs('7d'),
  RAMP_QUOTE_TTL: durationMs('25s'),
  RAMP_UNKNOWN_RESOURCE_TIMEOUT: durationMs('10m'),
  CLIENT_WEBHOOK_TIMEOUT: durationMs('10s'),
  CLIENT_WEBHOOK_RETRY_INITIAL: durationMs('5s'),
  CLIENT_WEBHOOK_RETRY_MAXIMUM: durationMs('1h'),
  CLIENT_WEBHOOK_RETRY_FOR: durationMs('24h'),
});

/** Room an attempt gets beyond the HTTP timeout (signing, connecting, reporting back). */
const OUTCOME_ATTEMPT_MARGIN_MS = 5_000;

export function loadWorkflowTimings(env: Env): WorkflowTimings {
  const raw = parseSection('workflow timings', timingsSchema, env);
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
    quoteTtlMs: raw.RAMP_QUOTE_TTL,
    unknownResourceTimeoutMs: raw.RAMP_UNKNOWN_RESOURCE_TIMEOUT,
    outcomeDelivery: {
      attemptTimeoutMs: raw.CLIENT_WEBHOOK_TIMEOUT + OUTCOME_ATTEMPT_MARGIN_MS,
      retryInitialMs: raw.CLIENT_WEBHOOK_RETRY_INITIAL,
      retryMaximumMs: raw.CLIENT_WEBHOOK_RETRY_MAXIMUM,
      retryForMs: raw.CLIENT_WEBHOOK_RETRY_FOR,
    },
  };
}
