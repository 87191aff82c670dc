/**
 * Observability settings (docs/operations.md): the worker's SDK metrics, the token that guards /metrics, and where
 * traces go (OpenTelemetry's own OTEL_EXPORTER_OTLP_ENDPOINT; unset, no tracing is set up at all).
 */
import { z } from 'zod';
import { type Env, parseSection } from './env';
import { setting } from './setting';
import { SecretString } from '../secrets/secret-string';

export const observabilityEnv = z.object({
  TEMPORAL_METRICS_BIND_ADDRESS: setting(
    z
      .string()
      .regex(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'must be host:port, e.g. 127.0.0.1:9464')
      .optional(),
    {
      group: 'production',
      default: 'not served',
      meaning: "host:port where the worker serves the Temporal SDK's own Prometheus metrics.",
      readBy: ['npm start', 'worker'],
      example: '0.0.0.0:9464',
    },
  ),
  METRICS_TOKEN: setting(z.string().min(16, 'must be at least 16 characters').optional(), {
    group: 'production',
    default: 'loopback only',
    meaning:
      'The bearer token GET /metrics and the details of GET /readyz need on the receiver and the API; without it ' +
      'only a server bound to loopback serves them.',
    secret: true,
    readBy: ['npm start', 'receiver', 'api', 'operator:probe'],
    required: 'when the receiver or the API binds beyond loopback',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: setting(z.url({ protocol: /^https?$/ }).optional(), {
    group: 'production',
    default: 'no tracing',
    meaning:
      'The OTLP/HTTP endpoint (protobuf) traces are exported to, e.g. an OpenTelemetry Collector; spans go to ' +
      "`<endpoint>/v1/traces` (OpenTelemetry's own name). Unset, no tracing is set up and no trace header is sent.",
    readBy: ['npm start', 'worker', 'receiver', 'api'],
    example: 'http://otel-collector.observability:4318',
  }),
});

export interface ObservabilityConfig {
  temporalMetricsBindAddress: string | undefined;
  metricsToken: SecretString | undefined;
  /** Where spans go (`<endpoint>/v1/traces`); undefined: tracing is off. */
  otlpEndpoint: string | undefined;
}

export function loadObservabilityConfig(env: Env): ObservabilityConfig {
  const raw = parseSection('observability', observabilityEnv, env);
  return {
    temporalMetricsBindAddress: raw.TEMPORAL_METRICS_BIND_ADDRESS,
    metricsToken: raw.METRICS_TOKEN ? new SecretString(raw.METRICS_TOKEN) : undefined,
    otlpEndpoint: raw.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, ''),
  };
}
