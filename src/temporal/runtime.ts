/**
 * The Temporal SDK's process-wide Runtime: its log level and, when TEMPORAL_METRICS_BIND_ADDRESS is set, the
 * worker's own Prometheus metrics (task slots, polls, latencies, workflow/activity counts) at
 * http://<bind address>/metrics. Runtime.install may run once per process, before any worker or native
 * connection is created: call installRuntime() first thing in an entry point.
 */
import { DefaultLogger, type LogLevel, Runtime } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { ObservabilityConfig } from '../config/observability';
import {
  ROUTER_GIVE_UP_REASONS,
  ROUTER_GIVE_UPS_HELP,
  ROUTER_GIVE_UPS_METRIC,
  ROUTER_HOP_RESULTS,
  ROUTER_HOPS_HELP,
  ROUTER_HOPS_METRIC,
  SETTLE_TIME_BUCKETS_S,
  SETTLE_TIME_METRIC,
} from '../domain/metrics';
import { PinoSdkLogger, sdkLevelOf } from './sdk-logger';

export interface InstallRuntimeOptions {
  /** The entry point's pino logger: the SDK's and workflows' lines go through it (its level and redaction). */
  logger?: Logger;
  /** Without a pino logger: the level of the SDK's plain-text stderr logger (default WARN). */
  logLevel?: LogLevel;
  /** Signals on which the SDK shuts workers down itself; [] when the entry point stops them in order. */
  shutdownSignals?: NodeJS.Signals[];
}

export function installRuntime(
  config: Pick<ObservabilityConfig, 'temporalMetricsBindAddress'>,
  options: InstallRuntimeOptions = {},
): Runtime {
  const telemetryOptions = {
    // Core's own lines (Rust) are forwarded to the pino logger too, at its level; other crates only on errors.
    ...(options.logger
      ? { logging: { forward: {}, filter: { core: sdkLevelOf(options.logger), other: 'ERROR' as const } } }
      : {}),
    ...(config.temporalMetricsBindAddress
      ? {
          metrics: {
            prometheus: {
              bindAddress: config.temporalMetricsBindAddress,
              histogramBucketOverrides: { [SETTLE_TIME_METRIC]: SETTLE_TIME_BUCKETS_S },
            },
          },
        }
      : {}),
  };
  const runtime = Runtime.install({
    logger: options.logger
      ? new PinoSdkLogger(options.logger)
      : new DefaultLogger(options.logLevel ?? 'WARN'),
    ...(options.shutdownSignals ? { shutdownSignals: options.shutdownSignals } : {}),
    ...(Object.keys(telemetryOptions).length > 0 ? { telemetryOptions } : {}),
  });
  if (config.temporalMetricsBindAddress) declareWorkflowCounters(runtime);
  return runtime;
}

/**
 * The counters the workflows add to, served from the start at 0: a dashboard and an alert see them before the first
 * router hop (a workflow's own series carry its namespace, task queue and type besides).
 */
function declareWorkflowCounters(runtime: Runtime): void {
  const hops = runtime.metricMeter.createCounter(ROUTER_HOPS_METRIC, 'hops', ROUTER_HOPS_HELP);
  for (const result of ROUTER_HOP_RESULTS) hops.add(0, { result });
  const givenUp = runtime.metricMeter.createCounter(
    ROUTER_GIVE_UPS_METRIC,
    'resources',
    ROUTER_GIVE_UPS_HELP,
  );
  for (const reason of ROUTER_GIVE_UP_REASONS) givenUp.add(0, { reason });
}
