/**
 * Health, readiness and metrics settings (docs/operations.md).
 * - TEMPORAL_METRICS_BIND_ADDRESS: host:port where the worker process serves the Temporal SDK's own Prometheus
 *   metrics (Runtime telemetry); unset: none.
 * - METRICS_TOKEN: the bearer token GET /metrics and the details of GET /readyz need on the receiver and the API.
 *   Without it they are served only by a server bound to loopback (src/observability/health.ts).
 * - METRICS_CACHE_TTL: how long the figures /metrics reads from Temporal (visibility counts, open alerts) are reused.
 * - READINESS_TIMEOUT: how long /readyz waits for each check (Temporal, operator login).
 */
import { z } from 'zod';
import { durationMs } from './duration';
import { type Env, parseSection } from './env';
import { SecretString } from '../secrets/secret-string';

const observabilityEnv = z.object({
  TEMPORAL_METRICS_BIND_ADDRESS: z
    .string()
    .regex(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'must be host:port, e.g. 127.0.0.1:9464')
    .optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  METRICS_CACHE_TTL: durationMs('15s'),
  READINESS_TIMEOUT: durationMs('3s'),
});

export interface ObservabilityConfig {
  temporalMetricsBindAddress: string | undefined;
  metricsToken: SecretString | undefined;
  metricsCacheTtlMs: number;
  readinessTimeoutMs: number;
}

export function loadObservabilityConfig(env: Env): ObservabilityConfig {
  const raw = parseSection('observability', observabilityEnv, env);
  return {
    temporalMetricsBindAddress: raw.TEMPORAL_METRICS_BIND_ADDRESS,
    metricsToken: raw.METRICS_TOKEN ? new SecretString(raw.METRICS_TOKEN) : undefined,
    metricsCacheTtlMs: raw.METRICS_CACHE_TTL,
    readinessTimeoutMs: raw.READINESS_TIMEOUT,
  };
}
