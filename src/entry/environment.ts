/**
 * The environment an entry point loads its configuration from: process.env, with defaults under it. Nothing is
 * written back into process.env; the entry point passes this object to every loader.
 */
import type { Env } from '../config/env';
import { isSandboxMode } from '../config/env';

/** Defaults below the given environment: a variable that is set, even to '', wins. */
export function withDefaults(defaults: Env, env: Env): Env {
  return { ...defaults, ...env };
}

/**
 * Demo defaults of `npm start`, only against our own sandbox: the sandbox runs 20 times faster than real chains,
 * and a sweep that has not started 10 s after its deposit confirmed counts as stuck, so the whole story takes
 * about a minute. The demo's waits follow the step deadline (src/config/demo.ts).
 */
export const SANDBOX_DEMO_DEFAULTS: Readonly<Env> = {
  SANDBOX_TIME_SCALE: '0.05',
  RAMP_STEP_DEADLINE: '10s',
  RAMP_POLL_INITIAL: '1s',
  RAMP_POLL_MAXIMUM: '5s',
  SANDBOX_LOG_LEVEL: 'error',
};

/**
 * `npm start`'s environment: start-up and demo progress go to stdout as plain lines, so the logger shows warnings
 * and above unless LOG_LEVEL says otherwise; against the sandbox, the demo defaults too.
 */
export function startEnvironment(env: Env): Env {
  return withDefaults({ LOG_LEVEL: 'warn', ...(isSandboxMode(env) ? SANDBOX_DEMO_DEFAULTS : {}) }, env);
}
