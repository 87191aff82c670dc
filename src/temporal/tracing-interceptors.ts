/**
 * The workflow side of tracing (src/temporal/tracing.ts): Temporal's OpenTelemetry workflow interceptors, for a
 * workflow started with a trace context only. One started without one (before tracing was turned on, or by a process
 * that does not trace) runs exactly as it was recorded, with no interceptor in its way: the interceptors' own
 * compatibility path for such histories yields where the recorded run did not, which replay would reject. Bundled
 * only into the traced workflow bundle; deterministic like any workflow code (no I/O, the spans go out by a sink).
 */
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
  TRACE_HEADER,
} from './sdk-internals';
import type { WorkflowInterceptors } from '@temporalio/workflow';

export const interceptors = (): WorkflowInterceptors => {
  // One workflow's choice, made when it starts (its first activation) from the headers of its start.
  let otel:
    | {
        inbound: OpenTelemetryInboundInterceptor;
        outbound: OpenTelemetryOutboundInterceptor;
        internals: OpenTelemetryInternalsInterceptor;
      }
    | undefined;
  return {
    inbound: [
      {
        execute(input, next) {
          if (input.headers[TRACE_HEADER] === undefined) return next(input);
          otel = {
            inbound: new OpenTelemetryInboundInterceptor(),
            outbound: new OpenTelemetryOutboundInterceptor(),
            internals: new OpenTelemetryInternalsInterceptor(),
          };
          return otel.inbound.execute(input, next);
        },
        handleSignal: (input, next) => (otel ? otel.inbound.handleSignal(input, next) : next(input)),
        handleUpdate: (input, next) => (otel ? otel.inbound.handleUpdate(input, next) : next(input)),
        validateUpdate: (input, next) => (otel ? otel.inbound.validateUpdate(input, next) : next(input)),
        handleQuery: (input, next) => (otel ? otel.inbound.handleQuery(input, next) : next(input)),
      },
    ],
    outbound: [
      {
        scheduleActivity: (input, next) => (otel ? otel.outbound.scheduleActivity(input, next) : next(input)),
        scheduleLocalActivity: (input, next) =>
          otel ? otel.outbound.scheduleLocalActivity(input, next) : next(input),
        startChildWorkflowExecution: (input, next) =>
          otel ? otel.outbound.startChildWorkflowExecution(input, next) : next(input),
        continueAsNew: (input, next) => (otel ? otel.outbound.continueAsNew(input, next) : next(input)),
        signalWorkflow: (input, next) => (otel ? otel.outbound.signalWorkflow(input, next) : next(input)),
        getLogAttributes: (input, next) => (otel ? otel.outbound.getLogAttributes(input, next) : next(input)),
      },
    ],
    internals: [
      {
        dispose(input, next) {
          if (otel) void otel.internals.dispose(input, next);
          else next(input);
        },
      },
    ],
  };
};
