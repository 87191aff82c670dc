/**
 * The Temporal SDK's process-wide Runtime: its log level and, when TEMPORAL_METRICS_BIND_ADDRESS is set, the
 * worker's own Prometheus metrics (task slots, polls, latencies, workflow/activity counts) at
 * http://<bind address>/metrics. Runtime.install may run once per process, before any worker or native
 * connection is created: call installRuntime() first thing in an entry point.
 */
import { DefaultLogger, type LogLevel, Runtime } from '@temporalio/worker';
import type { ObservabilityConfig } from '../config/observability';

export interface InstallRuntimeOptions {
  logLevel?: LogLevel;
  /** Signals on which the SDK shuts workers down itself; [] when the entry point stops them in order. */
  shutdownSignals?: NodeJS.Signals[];
}

export function installRuntime(config: Pick<ObservabilityConfig, 'temporalMetricsBindAddress'>, options: InstallRuntimeOptions = {}): Runtime {
  return Runtime.install({
    logger: new DefaultLogger(options.logLevel ?? 'WARN'),
    ...(options.shutdownSignals ? { shutdownSignals: options.shutdownSignals } : {}),
    ...(config.temporalMetricsBindAddress
      ? { telemetryOptions: { metrics: { prometheus: { bindAddress: config.temporalMetricsBindAddress } } } }
      : {}),
  });
}
