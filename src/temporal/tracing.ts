/**
 * One trace per ramp: OpenTelemetry across the receiver, its signal, the workflow, its activities (the operator
 * calls) and the outcome webhook. An entry point starts it when OTEL_EXPORTER_OTLP_ENDPOINT is set; spans are
 * exported over OTLP/HTTP (protobuf) to `<endpoint>/v1/traces`. Unset, nothing is started: no tracer provider, no
 * interceptor on any client or worker, and the spans of src/http/spans.ts are the API's no-ops.
 *
 * The context travels in Temporal's headers (@temporalio/interceptors-opentelemetry): the receiver's request span is
 * the parent of the signal that starts an off-ramp, whose workflow span is the parent of every activity it schedules,
 * so the process's operator calls and outcome webhooks are one trace from its first delivery. Workflow spans are made
 * in the workflow sandbox by the interceptors' deterministic tracer and handed to the worker through a sink.
 */
import path from 'node:path';
import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { WorkerOptions } from '@temporalio/worker';
import type { ObservabilityConfig } from '../config/observability';
import { setTracingActive } from '../http/spans';

/** The workflow interceptors' module (Temporal's, for workflows started traced), bundled when tracing is on. */
export const WORKFLOW_TRACING_MODULE = path.resolve(
  __dirname,
  `tracing-interceptors${path.extname(__filename)}`,
);

export interface Tracing {
  /** For every Temporal client of the process: spans for starts and signals, the context in their headers. */
  clientInterceptors: WorkflowClientInterceptor[];
  /** For the worker: activity spans under their workflow's, the workflow interceptors, and the workflow span sink. */
  worker: Required<Pick<WorkerOptions, 'sinks'>> & {
    interceptors: Required<Pick<NonNullable<WorkerOptions['interceptors']>, 'activity' | 'workflowModules'>>;
  };
  /** Sends the spans still buffered and stops; call it last, after the servers and the worker stopped. */
  shutdown(): Promise<void>;
}

let started: Tracing | undefined;

/** The tracing this process started, if any: clients and workers built anywhere in it take its interceptors. */
export const activeTracing = (): Tracing | undefined => started;

/**
 * Starts tracing for this process (once) when an OTLP endpoint is configured; undefined, having started nothing,
 * when it is not. `spanProcessor` replaces the OTLP exporter (tests).
 */
export function startTracing(
  config: Pick<ObservabilityConfig, 'otlpEndpoint'>,
  serviceName: string,
  options: { spanProcessor?: SpanProcessor } = {},
): Tracing | undefined {
  if (started) return started;
  if (!config.otlpEndpoint && !options.spanProcessor) return undefined;
  const resource = new Resource({ 'service.name': serviceName });
  const processor =
    options.spanProcessor ??
    new BatchSpanProcessor(new OTLPTraceExporter({ url: `${config.otlpEndpoint}/v1/traces` }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  // The global tracer provider, W3C trace context propagation and the AsyncLocalStorage context manager.
  provider.register();
  setTracingActive(true);
  started = {
    clientInterceptors: [new OpenTelemetryWorkflowClientInterceptor()],
    worker: {
      interceptors: {
        activity: [
          (ctx) => ({
            inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
            outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
          }),
        ],
        workflowModules: [WORKFLOW_TRACING_MODULE],
      },
      sinks: { exporter: makeWorkflowExporter(processor, resource) },
    },
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
      setTracingActive(false);
      started = undefined;
    },
  };
  return started;
}
