/**
 * The IDs of the long-lived processes, shared by the activities and the typed client so that both address the
 * same workflows. ALERTS_WORKFLOW_ID names the incident store (default ops/alerts); the account setup has no
 * variable (tests sharing one server pass their own IDs in code).
 */
import { z } from 'zod';
import { DEFAULT_PROCESS_IDS, type ProcessIds } from '../domain/ids';
import { type Env, parseSection } from './env';

const processIdsEnv = z.object({
  ALERTS_WORKFLOW_ID: z
    .string()
    .regex(/^[A-Za-z0-9._:@/-]{1,200}$/)
    .default(DEFAULT_PROCESS_IDS.alertsWorkflowId),
});

export function loadProcessIds(env: Env): ProcessIds {
  const raw = parseSection('process IDs', processIdsEnv, env);
  return { ...DEFAULT_PROCESS_IDS, alertsWorkflowId: raw.ALERTS_WORKFLOW_ID };
}
