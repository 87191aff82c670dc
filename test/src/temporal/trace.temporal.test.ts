/**
 * One trace per ramp: with tracing on, one off-ramp's spans reach an OTLP receiver (OTLP/HTTP protobuf, decoded here)
 * as one connected trace, from the receiver's span of its first delivery through the signal that starts it, the
 * workflow, its activities and their operator calls, to the webhook of its settled outcome event; the client's
 * backend is handed the trace context, and the log lines written in the trace carry its IDs. No secret reaches a span.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@temporalio/client';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger, Worker } from '@temporalio/worker';
import { listen } from '../../../src/http/listen';
import { startOutcomeReceiver, withDemoBackend } from '../../../src/demo/outcome-receiver';
import { offRampWorkflowId } from '../../../src/domain/ids';
import { startTracing, WORKFLOW_TRACING_MODULE, type Tracing } from '../../../src/temporal/tracing';
import { WORKFLOWS_PATH } from '../../../src/temporal/worker';
import {
  depositCrypto,
  endUserWithWallet,
  offRampEnded,
  type RampStack,
  startRampStack,
  waitFor,
} from '../../helpers/ramp-stack';
import { HISTORIES_DIR, recordHistory } from '../../helpers/histories';
import { connectTestClient, testServer } from '../../helpers/temporal';

// The OTLP protobuf messages, as the exporter's own transformer package defines them.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { opentelemetry } = require('@opentelemetry/otlp-transformer/build/src/generated/root') as {
  opentelemetry: {
    proto: {
      collector: {
        trace: {
          v1: {
            ExportTraceServiceRequest: {
              decode(buffer: Buffer): unknown;
              toObject(m: unknown, o: object): unknown;
            };
          };
        };
      };
    };
  };
};
const ExportTraceServiceRequest = opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
  service: string;
}

interface OtlpRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        attributes?: Array<{ key: string; value: Record<string, unknown> }>;
      }>;
    }>;
  }>;
}

/** An OTLP/HTTP receiver: POST /v1/traces with protobuf bodies, every span kept. */
async function startOtlpReceiver() {
  const spans: CollectedSpan[] = [];
  const contentTypes = new Set<string>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      contentTypes.add(String(request.headers['content-type']));
      const decoded = ExportTraceServiceRequest.toObject(
        ExportTraceServiceRequest.decode(Buffer.concat(chunks)),
        { bytes: String, longs: String, defaults: false },
      ) as OtlpRequest;
      const hex = (value: string | undefined) => (value ? Buffer.from(value, 'base64').toString('hex') : '');
      for (const resourceSpans of decoded.resourceSpans ?? []) {
        const service =
          resourceSpans.resource?.attributes?.find((attribute) => attribute.key === 'service.name')?.value
            .stringValue ?? '';
        for (const scope of resourceSpans.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({
              traceId: hex(span.traceId),
              spanId: hex(span.spanId),
              parentSpanId: hex(span.parentSpanId),
              name: span.name,
              service,
              attributes: Object.fromEntries(
                (span.attributes ?? []).map((attribute) => [
                  attribute.key,
                  Object.values(attribute.value)[0],
                ]),
              ),
            });
      }
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  const listening = await listen(server, 0, '127.0.0.1', 'http');
  return {
    url: listening.url,
    spans,
    contentTypes,
    close: listening.close,
    port: (server.address() as AddressInfo).port,
  };
}

describe('one trace per ramp', () => {
  let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let tracing: Tracing;
  let stack: RampStack | undefined;
  /** The workflows with the tracing interceptors, as `npm run build` makes the traced bundle. */
  let code: string;

  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    tracing = startTracing({ otlpEndpoint: otlp.url }, 'ramp-trace-test')!;
    ({ code } = await bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      workflowInterceptorModules: [WORKFLOW_TRACING_MODULE],
      logger: new DefaultLogger('WARN'),
    }));
  });
  afterAll(async () => {
    await stack?.close();
    await tracing?.shutdown();
    await otlp?.close();
  });

  test("an off-ramp's spans are one connected trace from its first delivery to its settled outcome event", async () => {
    const { connection } = await connectTestClient();
    // The clients of a tracing process carry the trace in Temporal's headers.
    const client = new Client({
      connection,
      namespace: testServer().namespace,
      interceptors: { workflow: tracing.clientInterceptors },
    });
    const backend = await startOutcomeReceiver();
    stack = await startRampStack(client, connection, {
      directForward: true,
      receiverTemporal: client,
      workflowBundle: { code },
      clientWebhooks: withDemoBackend({ endpoints: [], secrets: [], timeoutMs: 5_000 }, backend),
    });
    const s = stack;
    const user = await endUserWithWallet(s);
    const depositId = await depositCrypto(s, user.address);
    expect((await offRampEnded(s, depositId)).status).toBe('settled');
    const settled = await waitFor('the settled outcome event', () =>
      Promise.resolve(backend.deliveries.find((delivery) => delivery.event?.type === 'off_ramp.settled')),
    );
    await recordHistory(client, offRampWorkflowId(depositId), 'offramp-settled-traced');
    // Its workflow span ends when its run does, which may be a write after the ledger says settled.
    await client.workflow.getHandle(offRampWorkflowId(depositId)).result();
    await s.close();
    stack = undefined;
    await tracing.shutdown(); // flushes what is buffered

    const workflowId = offRampWorkflowId(depositId);
    // The process's own work: every activity it ran, in one trace.
    const activities = otlp.spans.filter(
      (span) => span.name.startsWith('RunActivity:') && span.attributes.temporalWorkflowId === workflowId,
    );
    // At least its attribution and its ledger write (a fast sandbox may settle it at its first evaluation).
    expect(activities.length).toBeGreaterThanOrEqual(2);
    const traceIds = new Set(activities.map((span) => span.traceId));
    expect(traceIds.size).toBe(1);
    const [traceId] = [...traceIds] as [string];
    const trace = otlp.spans.filter((span) => span.traceId === traceId);
    const byId = new Map(trace.map((span) => [span.spanId, span]));
    const names = trace.map((span) => span.name);

    // Connected: one root, and every other span's parent is in the trace.
    const roots = trace.filter((span) => !span.parentSpanId);
    expect(roots.map((span) => span.name)).toEqual(['POST /webhooks/:kind/:secret']);
    expect(
      trace.filter((span) => span.parentSpanId && !byId.has(span.parentSpanId)).map((span) => span.name),
    ).toEqual([]);

    // receiver -> signal -> workflow -> activities (operator calls) -> outcome webhook
    const parentOf = (name: string) => byId.get(trace.find((span) => span.name === name)!.parentSpanId)!.name;
    expect(names).toContain('SignalWithStartWorkflow:offRampWorkflow');
    expect(parentOf('RunWorkflow:offRampWorkflow')).toBe('SignalWithStartWorkflow:offRampWorkflow');
    expect(names).toEqual(expect.arrayContaining(['RunActivity:attributeOffRamp', 'RunActivity:recordRamp']));
    expect(names.filter((name) => name.startsWith('operator ')).length).toBeGreaterThan(0);
    // The outcome webhook is sent by the dispatcher, under the trace of the ledger write that raised the event.
    expect(parentOf('outcome webhook off_ramp.settled')).toBe('RunActivity:recordRamp');
    expect(new Set(trace.map((span) => span.service))).toEqual(new Set(['ramp-trace-test']));
    // A later delivery is a trace of its own, from its request to the signal the process handles in it.
    const laterDeliveries = otlp.spans.filter(
      (span) =>
        span.traceId !== traceId && span.name === 'POST /webhooks/:kind/:secret' && !span.parentSpanId,
    );
    expect(laterDeliveries.length).toBeGreaterThan(0);
    for (const root of laterDeliveries)
      expect(otlp.spans.filter((span) => span.traceId === root.traceId).map((span) => span.name)).toContain(
        'HandleSignal:offRampTransaction',
      );
    expect(otlp.contentTypes).toEqual(new Set(['application/x-protobuf']));

    // The client's backend got the trace context with the event.
    expect(settled.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    // The log lines written inside the trace carry its IDs.
    const traced = s.logLines().filter((line) => line.trace_id === traceId);
    expect(traced.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['request completed', 'Webhook delivery recorded', 'outcome event delivered']),
    );
    for (const line of traced) expect(byId.has(String(line.span_id))).toBe(true);
    // No secret in any span: the receiver's secret path segments, the outcome endpoint's URL.
    const text = JSON.stringify(otlp.spans);
    expect(text).not.toContain(s.receiverConfig.transactionSecret.reveal());
    expect(text).not.toContain(backend.url);
  });

  test('turning tracing on leaves running workflows deterministic: every recorded history replays with the interceptors', async () => {
    const files = readdirSync(HISTORIES_DIR).filter((file) => file.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const history = JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8')) as Parameters<
        typeof Worker.runReplayHistory
      >[1];
      // A traced history's spans are made again on replay: they go nowhere.
      await Worker.runReplayHistory(
        { workflowBundle: { code }, sinks: { exporter: { export: { fn: () => undefined } } } },
        history,
        `replay-traced-${file}`,
      );
    }
  });
});
