/**
 * The Temporal SDK's process-wide Runtime: its log level and, when TEMPORAL_METRICS_BIND_ADDRESS is set, the
 * worker's own Prometheus metrics (task slots, polls, latencies, workflow/activity counts) at
 * http://<bind address>/metrics. Runtime.install may run once per process, before any worker or native
 * connection is created: call installRuntime() first thing in an entry point.
 */
import { DefaultLogger, type LogLevel, Runtime } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { ObservabilityConfig } from '../config/observability';
import { SETTLE_TIME_BUCKETS_S, SETTLE_TIME_METRIC } from '../domain/metrics';
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
  return Runtime.install({
    logger: options.logger
      ? new PinoSdkLogger(options.logger)
      : new DefaultLogger(options.logLevel ?? 'WARN'),
    ...(options.shutdownSignals ? { shutdownSignals: options.shutdownSignals } : {}),
    ...(Object.keys(telemetryOptions).length > 0 ? { telemetryOptions } : {}),
  });
}
