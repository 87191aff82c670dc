/**
 * Where the receiver's extra latency goes. Closed loops of the same concurrency and ID spread on the npm-start
 * server, each adding one layer to the last: the client call alone; a bare node:http handler around it; the same
 * over TLS; express with express.json; the product's receiver (validation, request logging, metrics, health
 * routes), logging as under `npm start` (warn); the same at info (as `npm run receiver` alone); and the same receiver
 * in a process of its own (bench/lib/receiver-process.ts), so that the load generator no longer shares its event loop. Beside them, the CPU
 * time one delivery's validation and one log line cost, measured in a tight loop.
 * The receiver's behaviour is not changed: every variant answers 200 only after the signal-with-start.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import express from 'express';
import pino from 'pino';
import { DEV_TRANSACTION_SECRET } from '../src/config/receiver';
import { routerWorkflowId } from '../src/domain/ids';
import { createLogger } from '../src/logging';
import { knownEvent, webhookDelivery } from '../src/operator/schemas';
import { freePort } from '../src/http/free-port';
import { getLocalCertificate } from '../src/tls/local-certificate';
import { identifierIssue } from '../src/validation/identifiers';
import {
  BENCH_NAMESPACE,
  BENCH_TASK_QUEUE,
  type BenchContext,
  deliveryBody,
  signalLikeReceiver,
  startBenchReceiver,
} from './lib/context';
import { closedLoop, type LoadResult } from './lib/load';
import type { Figure } from './lib/report';
import { type Measurement, resourceIdOf, RUN_TAG } from './lib/measurement';
import { median } from './lib/stats';

interface Variant {
  name: string;
  /** What this variant adds to the one before it. */
  adds: string;
  url?: string;
  close: () => Promise<void>;
  /** The variant it is compared with; the one before it unless named. */
  against?: string;
}

const PROJECT_ROOT = path.resolve(__dirname, '..');

/** The resource ID of a delivery body, as cheaply as a handler can read it. */
const idOfBody = (body: unknown): string => {
  const id = (body as { data?: { payload?: { id?: unknown } } }).data?.payload?.id;
  return typeof id === 'string' ? id : '';
};

async function bareServer(
  context: BenchContext,
  secure: boolean,
): Promise<{ url: string; close: () => Promise<void> }> {
  const handler: http.RequestListener = (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const id = idOfBody(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      signalLikeReceiver(context.subject.temporal, context.timings, id).then(
        () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}'),
        () => response.writeHead(503).end(),
      );
    });
  };
  const server = secure
    ? https.createServer(await getLocalCertificate(), handler)
    : http.createServer(handler);
  return listenOn(server, secure ? 'https' : 'http');
}

async function expressServer(context: BenchContext): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  app.post('/webhooks/transactions/:secret', express.json({ limit: '16kb' }), async (request, response) => {
    try {
      await signalLikeReceiver(context.subject.temporal, context.timings, idOfBody(request.body));
      response.status(200).json({ received: true });
    } catch {
      response.status(503).end();
    }
  });
  return listenOn(https.createServer(await getLocalCertificate(), app), 'https');
}

function listenOn(server: http.Server, scheme: string): Promise<{ url: string; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `${scheme}://127.0.0.1:${port}/webhooks/transactions/${DEV_TRANSACTION_SECRET}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

async function receiverInProcess(context: BenchContext, level: 'warn' | 'info') {
  const receiver = await startBenchReceiver(
    context.subject.temporal.client,
    BENCH_TASK_QUEUE,
    context.timings,
    { level },
  );
  return { url: receiver.recipientUrls.transaction, close: () => receiver.close() };
}

/** The receiver against the npm-start server, in a child process; ready once a delivery is answered 200. */
async function receiverProcess(context: BenchContext, readyTimeoutMs: number) {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(PROJECT_ROOT, 'bench/lib/receiver-process.ts')],
    {
      cwd: PROJECT_ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TEMPORAL_ADDRESS: context.subject.server.address,
        TEMPORAL_NAMESPACE: BENCH_NAMESPACE,
        TEMPORAL_TASK_QUEUE: BENCH_TASK_QUEUE,
        RECEIVER_PORT: String(port),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const url = `https://127.0.0.1:${port}/webhooks/transactions/${DEV_TRANSACTION_SECRET}`;
  const close = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the receiver process exited: ${stderr}`);
    const status = await context.post(url, deliveryBody(`bd-${RUN_TAG}-ready`)).catch(() => 0);
    if (status === 200) return { url, close };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await close();
  throw new Error(`the receiver process did not answer within ${readyTimeoutMs} ms: ${stderr}`);
}

/** Microseconds of CPU per call of `work`, over `iterations` calls after a warm-up. */
function microseconds(iterations: number, work: (index: number) => void): number {
  for (let index = 0; index < Math.min(1000, iterations); index += 1) work(index);
  const startedAt = process.cpuUsage();
  for (let index = 0; index < iterations; index += 1) work(index);
  const used = process.cpuUsage(startedAt);
  return (used.user + used.system) / iterations;
}

export const receiverBreakdown: Measurement = {
  name: 'receiver-breakdown',
  description: "where the receiver's extra latency goes: one layer at a time, on the npm-start server",
  async run(context, settings, _shared, log) {
    const variants: Variant[] = [];
    const add = async (
      name: string,
      adds: string,
      start: () => Promise<{ url: string; close: () => Promise<void> }>,
      against?: string,
    ) => {
      const started = await start();
      variants.push({ name, adds, url: started.url, close: started.close, ...(against ? { against } : {}) });
    };
    const results: Record<string, LoadResult[]> = {};
    try {
      variants.push({ name: 'client call', adds: 'signalWithStart alone', close: () => Promise.resolve() });
      await add('node:http', 'a bare HTTP handler', () => bareServer(context, false));
      await add('node:https', 'TLS', () => bareServer(context, true));
      await add('express', 'express and express.json', () => expressServer(context));
      await add('receiver (warn)', "the receiver's validation, middleware and routes", () =>
        receiverInProcess(context, 'warn'),
      );
      await add('receiver (info)', 'logging at info (each request and delivery)', () =>
        receiverInProcess(context, 'info'),
      );
      await add(
        'receiver process',
        'a process of its own, at warn (the load generator off its event loop)',
        () => receiverProcess(context, settings.legTimeLimitMs),
        'receiver (warn)',
      );
      for (let round = 0; round < settings.rounds; round += 1) {
        const order = variants.map((_, index) => variants[(index + round) % variants.length]!);
        for (const variant of order) {
          const idOf = resourceIdOf(
            `bd-${RUN_TAG}-${round}-${variant.name.replace(/[^a-z]+/g, '-')}`,
            settings.ids,
          );
          const url = variant.url;
          const result = await closedLoop({
            count: settings.deliveries,
            concurrency: settings.concurrency,
            timeLimitMs: settings.legTimeLimitMs,
            send: url
              ? async (index) => (await context.post(url, deliveryBody(idOf(index)))) === 200
              : async (index) => {
                  await signalLikeReceiver(context.subject.temporal, context.timings, idOf(index));
                  return true;
                },
          });
          (results[variant.name] ??= []).push(result);
          log(
            `[receiver-breakdown] round ${round + 1} ${variant.name}: ${result.throughput.toFixed(1)}/s, ` +
              `p50 ${result.latency.p50.toFixed(1)} ms, p99 ${result.latency.p99.toFixed(1)} ms, errors ${result.errors}`,
          );
        }
      }
    } finally {
      for (const variant of variants) await variant.close().catch(() => undefined);
    }

    const body = deliveryBody('bench-tx-1');
    const validation = microseconds(20_000, () => {
      const parsed = webhookDelivery.safeParse(JSON.parse(body));
      if (parsed.success) {
        const known = knownEvent.safeParse(parsed.data.data);
        if (known.success) identifierIssue(known.data.payload.id, 'resource ID');
      }
    });
    const lineLogger = createLogger({
      level: 'info',
      destination: pino.destination({ dest: '/dev/null', sync: true }),
    });
    const logLine = microseconds(20_000, (index) =>
      lineLogger.info(
        {
          eventType: 'transaction-created',
          workflowId: routerWorkflowId(BENCH_TASK_QUEUE, 'transaction', String(index)),
        },
        'Webhook delivery recorded',
      ),
    );

    const figures: Figure[] = [];
    const throughput = (name: string) => median((results[name] ?? []).map((result) => result.throughput));
    const p50 = (name: string) => median((results[name] ?? []).map((result) => result.latency.p50));
    variants.forEach((variant, index) => {
      const before = variant.against
        ? variants.find((other) => other.name === variant.against)
        : variants[index - 1];
      figures.push({
        measurement: 'receiver breakdown',
        what: `${variant.name}: throughput`,
        value: throughput(variant.name),
        unit: '/s',
        ...(before ? { baseline: { what: before.name, value: throughput(before.name) } } : {}),
        note: `adds ${variant.adds}`,
      });
      figures.push({
        measurement: 'receiver breakdown',
        what: `${variant.name}: ack p50`,
        value: p50(variant.name),
        unit: 'ms',
        ...(before
          ? { baseline: { what: before.name, value: p50(before.name) }, comparison: 'difference' as const }
          : {}),
      });
    });
    figures.push(
      {
        measurement: 'receiver breakdown',
        what: 'CPU per delivery: JSON parse, both schemas, identifier check',
        value: validation,
        unit: 'µs',
      },
      {
        measurement: 'receiver breakdown',
        what: 'CPU per info log line (pino, redaction)',
        value: logLine,
        unit: 'µs',
      },
    );
    return {
      figures,
      legs: { ...results, validationMicroseconds: validation, logLineMicroseconds: logLine },
    };
  },
};
