/**
 * Every import of the Temporal SDK's internals (`@temporalio/<package>/lib/...`, outside the packages' documented
 * entry points) goes through this module, so an SDK upgrade that moves one is fixed here alone. It is bundled into
 * the traced workflow bundle (tracing-interceptors.ts), so only workflow-safe internals belong here:
 * Node-only SDK helpers have public equivalents (src/temporal/data-converter.ts decodes payloads with them).
 */
export {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';
export { TRACE_HEADER } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
export { msToTs, optionalTsToMs, tsToMs } from '@temporalio/common/lib/time';
