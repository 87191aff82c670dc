/**
 * Health, readiness and metrics settings (docs/operations.md).
 * - TEMPORAL_METRICS_BIND_ADDRESS: host:port where the worker process serves the Temporal SDK's own Prometheus
 *   metrics (Runtime telemetry); unset: none.
 * - METRICS_TOKEN: when set, GET /metrics on the receiver and the API needs `Authorization: Bearer <token>`.
 * - READINESS_TIMEOUT: how long /readyz waits for each check (Temporal, operator login).
 */
import { z } from 'zod';
import { durationMs } from './duration';
import { type Env, parseSection } from './env';
import { SecretString } from './operator';

const observabilityEnv = z.object({
  TEMPORAL_METRICS_BIND_ADDRESS: z
    .string()
    .regex(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'must be host:port, e.g. 127.0.0.1:9464')
    .optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  READINESS_TIMEOUT: durationMs('3s'),
});

export interface ObservabilityConfig {
  temporalMetricsBindAddress: string | undefined;
  metricsToken: SecretString | undefined;
  readinessTimeoutMs: number;
}

export function loadObservabilityConfig(env: Env = process.env): ObservabilityConfig {
  const raw = parseSection('observability', observabilityEnv, env);
  return {
    temporalMetricsBindAddress: raw.TEMPORAL_METRICS_BIND_ADDRESS,
    metricsToken: raw.METRICS_TOKEN ? new SecretString(raw.METRICS_TOKEN) : undefined,
    readinessTimeoutMs: raw.READINESS_TIMEOUT,
  };
}
