/**
 * The spans of our HTTP edges, named and attributed by us so that no secret reaches a trace: a request to the
 * receiver is named by its route (`/webhooks/:kind/:secret`, never the secret itself), an operator call by the
 * operation and its route template, an outcome webhook by the event type and the endpoint's label. Without tracing
 * started (src/temporal/tracing.ts) none is made and nothing is injected.
 */
import {
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
} from '@opentelemetry/api';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

const tracer = () => trace.getTracer('ramp-orchestrator');

/** Set by src/temporal/tracing.ts while tracing runs: this module stays free of the SDK it loads. */
let tracing = false;
export function setTracingActive(active: boolean): void {
  tracing = active;
}
const activeTracing = () => tracing;

/** Probes and scrapes come every few seconds and follow no ramp: never traced. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * A server span per request, under the caller's context when its `traceparent` says so, active while the request is
 * handled (its log lines carry its IDs). Named once routed, by the route's template.
 */
export function serverSpans(server: string): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!activeTracing() || UNTRACED_PATHS.has(req.path)) return next();
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer().startSpan(
      `${req.method} ${server}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } },
      parent,
    );
    res.once('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path;
      if (route) {
        span.updateName(`${req.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    res.once('close', () => {
      if (!res.writableFinished) span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}

/**
 * Runs an outgoing HTTP call in a client span, with the `traceparent` of that span in `headers` (so that the other
 * side may continue the trace). A thrown error or a 5xx marks the span as failed.
 */
export async function inClientSpan<T extends { status: number }>(
  name: string,
  attributes: Attributes,
  headers: Record<string, string>,
  call: () => Promise<T>,
): Promise<T> {
  if (!activeTracing()) return call();
  return tracer().startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span: Span) => {
    propagation.inject(context.active(), headers);
    try {
      const answer = await call();
      span.setAttribute('http.response.status_code', answer.status);
      if (answer.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      return answer;
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).name });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The IDs of the active span, for log lines (pino's mixin); none outside a traced request or activity. */
export function activeTraceIds(): { trace_id: string; span_id: string } | Record<string, never> {
  const spanContext = trace.getSpan(context.active())?.spanContext();
  if (!spanContext || !trace.isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}

/** The `traceparent` of the active span, to be kept with work that continues later elsewhere; none untraced. */
export function activeTraceParent(): string | undefined {
  if (!activeTracing()) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** Runs `work` under a kept `traceparent` (the work that raised it), so its spans and log lines join that trace. */
export function underTraceParent<T>(traceParent: string | null | undefined, work: () => T): T {
  if (!activeTracing() || !traceParent) return work();
  return context.with(propagation.extract(context.active(), { traceparent: traceParent }), work);
}
