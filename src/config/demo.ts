/**
 * The demo's waits (`npm start` against the sandbox, `npm run demo`). They follow the step deadline: the
 * gas-shortfall scenario only ends once a step deadline has passed (the stranded sweep counts as stuck then), so a
 * wait shorter than the deadline cannot succeed and is refused with both names.
 */
import { z } from 'zod';
import { parseDurationMs } from './duration';
import { type Env, parseSection } from './env';
import { setting } from './setting';
import { loadWorkflowTimings } from './timings';

/** The shortest default wait; longer step deadlines lengthen it (three deadlines: confirmation, sweep, alert). */
export const DEMO_MIN_SCENARIO_TIMEOUT_MS = 120_000;
const DEADLINES_PER_SCENARIO = 3;

export interface DemoConfig {
  /** Longest wait for one scenario. */
  scenarioTimeoutMs: number;
}

export const demoEnv = z.object({
  DEMO_SCENARIO_TIMEOUT: setting(
    z
      .string()
      .optional()
      .transform((text, ctx) => {
        if (text === undefined) return undefined;
        try {
          return parseDurationMs(text);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      }),
    {
      group: 'local development',
      default: 'three RAMP_STEP_DEADLINEs, at least 120s',
      meaning: "The demo's longest wait for one scenario; it must be longer than RAMP_STEP_DEADLINE.",
      readBy: ['npm start', 'demo'],
    },
  ),
});

export function loadDemoConfig(env: Env): DemoConfig {
  const { stepDeadlineMs } = loadWorkflowTimings(env);
  const explicit = parseSection('demo', demoEnv, env).DEMO_SCENARIO_TIMEOUT;
  if (explicit !== undefined && explicit <= stepDeadlineMs) {
    throw new Error(
      `Invalid demo configuration:\n  DEMO_SCENARIO_TIMEOUT (${env.DEMO_SCENARIO_TIMEOUT}) must be longer than RAMP_STEP_DEADLINE ` +
        `(${env.RAMP_STEP_DEADLINE ?? 'its default'}): the gas-shortfall scenario ends only after a step deadline has passed`,
    );
  }
  return {
    scenarioTimeoutMs:
      explicit ?? Math.max(DEMO_MIN_SCENARIO_TIMEOUT_MS, DEADLINES_PER_SCENARIO * stepDeadlineMs),
  };
}
