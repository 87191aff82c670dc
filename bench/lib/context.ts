/**
 * What every measurement runs against, started once per run on loopback:
 * - `baseline`: a dev server with the WAL pragmas Temporal's own SDK stress runs use (journal_mode=WAL,
 *   synchronous=OFF) and the CLI's defaults otherwise, headless, its SQLite in a temporary folder: the raw speed of
 *   Temporal on this machine;
 * - `subject`: a dev server exactly as `npm start` launches it (DEV_SERVER_TUNING, a data file, the Web UI),
 *   with the product's HTTPS receiver in front of it, logging as under `npm start` (warn) to /dev/null.
 * No worker runs: what is measured is the hand-off into Temporal (signal-with-start) that precedes every 200.
 * With `serverMetrics`, the subject also serves its Prometheus metrics on a loopback port, read per leg. A leg that
 * counts requests starts a metered server of its own (`startMeteredServer`), so that no other leg's work is counted.
 * Beside them, the product's database: the embedded PostgreSQL npm start runs, its data in the same temporary
 * folder, with a migrated template that each stack copies into a database of its own (`freshDatabase`).
 */
import http from 'node:http';
import https from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import pino from 'pino';
import { type Database, openDatabase } from '../../src/database/connection';
import {
  ensureDatabase,
  type RunningPostgres,
  startEmbeddedPostgres,
} from '../../src/database/embedded-server';
import { migrateToLatest } from '../../src/database/migrate';
import { loadReceiverConfig } from '../../src/config/receiver';
import { loadWorkflowTimings } from '../../src/config/timings';
import { freePort } from '../../src/http/free-port';
import { WORKFLOW_TYPES } from '../../src/domain/ids';
import type { WorkflowTimings } from '../../src/domain/timings';
import { createLogger } from '../../src/logging';
import { OperatorClient } from '../../src/operator/client';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { loadOperatorConfig } from '../../src/config/operator';
import {
  DEV_SERVER_TUNING,
  type DevServerTuning,
  type RunningDevServer,
  startDevServer,
} from '../../src/temporal/dev-server';
import { ensureTemporalCli } from '../../src/temporal/install-cli';
import { connectTemporal, type TemporalConnection } from '../../src/temporal/wiring';
import { type RunningReceiver, startReceiver } from '../../src/webhooks/receiver';
import { webhookDeliveriesSignal } from '../../workflows/ramps/router/messages';
import type { WebhookEventSignal } from '../../workflows/ramps/router/types';
import type { FrontendRequests } from './billable-actions';
import { type PersistenceCounts, parseFrontendRequests, parsePersistenceMetrics } from './server-metrics';

export const BENCH_NAMESPACE = 'bench';
export const BENCH_TASK_QUEUE = 'bench-no-worker';
export const BASELINE_PRAGMAS = ['journal_mode=WAL', 'synchronous=OFF'];
/** The migrated database each stack's own is copied from. */
const TEMPLATE_DATABASE = 'bench_template';

/** A database of one stack or leg on the bench's PostgreSQL: its URL (for a worker process) and a pool on it. */
export interface BenchDatabase extends Database {
  url: string;
  name: string;
}

export interface BenchServer {
  label: string;
  tuning: DevServerTuning;
  server: RunningDevServer;
  temporal: TemporalConnection;
}

export interface MeteredServer extends BenchServer {
  /** The frontend's requests of the bench namespace so far, by operation (throws when the scrape fails). */
  frontendRequests(): Promise<FrontendRequests>;
  stop(): Promise<void>;
}

export interface BenchContext {
  baseline: BenchServer;
  subject: BenchServer;
  receiver: RunningReceiver;
  timings: WorkflowTimings;
  /** The embedded PostgreSQL of the run (its process: a leg reads its CPU time). */
  postgres: RunningPostgres;
  /** A new database with the newest schema and no rows (the leg closes its pool; the server goes with the run). */
  freshDatabase(label: string): Promise<BenchDatabase>;
  /** The subject server's persistence counters so far (undefined when the scrape failed); only with `serverMetrics`. */
  subjectPersistence?: () => Promise<PersistenceCounts | undefined>;
  /**
   * Another dev server launched as `npm start` launches it, that also serves its metrics, for a leg that counts the
   * requests its namespace received; the leg stops it (or the context does, when it closes first).
   */
  startMeteredServer(label: string): Promise<MeteredServer>;
  /**
   * POSTs a body over HTTPS or HTTP (keep-alive, self-signed certificate accepted); resolves the status. `onAnswer`,
   * when given, gets the answer's body (otherwise it is not kept).
   */
  post(url: string, body: string, onAnswer?: (answer: string) => void): Promise<number>;
  close(): Promise<void>;
}

/**
 * A raw signal-with-start of a new execution per resource ID: the delivery signal the receiver's hand-over sends, to
 * a router of its own (no worker runs on this task queue). What one delivery costs the server at the least.
 */
export function signalLikeReceiver(
  temporal: TemporalConnection,
  timings: WorkflowTimings,
  resourceId: string,
): Promise<unknown> {
  const event: WebhookEventSignal = {
    eventType: 'transaction-created',
    resourceId,
    receivedAt: new Date().toISOString(),
  };
  const router = `bench-raw/${resourceId}`;
  return temporal.client.workflow.signalWithStart(WORKFLOW_TYPES.webhookRouter, {
    workflowId: router,
    taskQueue: BENCH_TASK_QUEUE,
    args: [{ router, timings }],
    signal: webhookDeliveriesSignal,
    signalArgs: [{ deliveries: [{ kind: 'transaction', event }], timings }],
  });
}

/** The receiver's configuration: the product's, on an ephemeral port. */
export const benchReceiverConfig = () => loadReceiverConfig({ RECEIVER_PORT: '0' });

/**
 * The product's HTTPS receiver on an ephemeral loopback port, in this process, handing deliveries to `taskQueue`
 * with `timings` in the router's input; logging as under `npm start` (warn) unless told, to /dev/null.
 */
export function startBenchReceiver(
  temporal: Client,
  taskQueue: string,
  timings: WorkflowTimings,
  options: { level?: 'warn' | 'info'; operator?: OperatorClient } = {},
): Promise<RunningReceiver> {
  const level = options.level ?? 'warn';
  return startReceiver(benchReceiverConfig(), {
    temporal,
    taskQueue,
    timings,
    ...(options.operator ? { operator: options.operator } : {}),
    logger: createLogger({
      level,
      destination: pino.destination({ dest: process.env.BENCH_RECEIVER_LOG ?? '/dev/null', sync: false }),
    }),
  });
}

const BENCH_OPERATOR_EMAIL = 'bench-ramps@example.com';
const BENCH_OPERATOR_PASSCODE = 'bench-ramps-passcode-3f9d2c';

/**
 * The sandbox operator in this process, on loopback, with a seed of its own (its IDs never meet another leg's), and
 * an operator client for it, which logs in on its first call as the product's does.
 */
export async function startBenchOperator(options: {
  timeScale: number;
  deliveryConcurrency: number;
}): Promise<{ sandbox: RunningSandbox; operator: OperatorClient; email: string; passcode: string }> {
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    seed: Math.floor(Math.random() * 2 ** 31),
    timeScale: options.timeScale,
    deliveryConcurrency: options.deliveryConcurrency,
    email: BENCH_OPERATOR_EMAIL,
    passcode: BENCH_OPERATOR_PASSCODE,
    faults: {},
  });
  const operator = new OperatorClient({
    config: loadOperatorConfig({
      OPERATOR_BASE_URL: sandbox.url,
      OPERATOR_EMAIL: BENCH_OPERATOR_EMAIL,
      OPERATOR_PASSCODE: BENCH_OPERATOR_PASSCODE,
    }),
    logger: pino({ level: 'silent' }),
  });
  return { sandbox, operator, email: BENCH_OPERATOR_EMAIL, passcode: BENCH_OPERATOR_PASSCODE };
}

/** The body the operator sends for a new transaction. */
export const deliveryBody = (resourceId: string): string =>
  JSON.stringify({ data: { eventType: 'transaction-created', payload: { id: resourceId } } });

/** A server's pragmas and dynamic config, as the settings line names them. */
export const describeTuning = (tuning: DevServerTuning): string =>
  [...tuning.sqlitePragmas, ...tuning.dynamicConfig].join(' ') || 'SQLite and CLI defaults';

export async function startBenchContext(options: {
  env: NodeJS.ProcessEnv;
  maxSockets: number;
  requestTimeoutMs: number;
  /** Start the subject with `--metrics-port` (the server then records and serves its metrics, as npm start's does not). */
  serverMetrics: boolean;
  log: (line: string) => void;
}): Promise<BenchContext> {
  const stoppers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
    stoppers.length = 0;
  };
  try {
    const cli = await ensureTemporalCli({ log: () => undefined, env: options.env });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ramp-bench-'));
    stoppers.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
    const launch = async (
      label: string,
      tuning: DevServerTuning,
      ui: boolean,
      extraArgs: string[] = [],
    ): Promise<BenchServer & { stop: () => Promise<void> }> => {
      const server = await startDevServer({
        cliPath: cli.path,
        namespace: BENCH_NAMESPACE,
        uiPort: ui ? 0 : null,
        dbFile: path.join(dir, label, 'temporal.sqlite'),
        tuning,
        extraArgs,
      });
      const temporal = await connectTemporal({
        temporal: { namespace: BENCH_NAMESPACE, connection: {} },
        address: server.address,
      }).catch(async (error: unknown) => {
        await server.stop();
        throw error;
      });
      options.log(`[bench] ${label} dev server ${server.address}: ${describeTuning(tuning)}`);
      let stopped: Promise<void> | undefined;
      const stop = () => (stopped ??= temporal.close().finally(() => server.stop()));
      return { label, tuning, server, temporal, stop };
    };
    const start = async (...args: Parameters<typeof launch>): Promise<BenchServer> => {
      const { stop, ...started } = await launch(...args);
      stoppers.push(stop);
      return started;
    };
    const scrape = async (port: number): Promise<string> => {
      const response = await fetch(`http://127.0.0.1:${port}/metrics`, {
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.text();
    };
    const postgres = await startEmbeddedPostgres({ dataDir: path.join(dir, 'postgres') });
    stoppers.push(() => postgres.stop());
    options.log(`[bench] PostgreSQL on 127.0.0.1:${postgres.port}`);
    await ensureDatabase(postgres.urlOf('postgres'), TEMPLATE_DATABASE);
    const template = openDatabase(postgres.urlOf(TEMPLATE_DATABASE), {
      applicationName: 'bench setup',
      poolSize: 1,
    });
    // A template must have no connection open when a database is copied from it.
    await migrateToLatest(template.db).finally(() => template.close());
    let databases = 0;
    const freshDatabase = async (label: string): Promise<BenchDatabase> => {
      databases += 1;
      const name = `bench_${label.replace(/[^a-z0-9]/g, '_')}_${databases}`;
      await ensureDatabase(postgres.urlOf('postgres'), name, TEMPLATE_DATABASE);
      const url = postgres.urlOf(name);
      return { ...openDatabase(url, { applicationName: `bench ${label}` }), url, name };
    };
    const baseline = await start('baseline', { sqlitePragmas: BASELINE_PRAGMAS, dynamicConfig: [] }, false);
    const metricsPort = options.serverMetrics ? await freePort() : undefined;
    const subject = await start(
      'npm-start',
      DEV_SERVER_TUNING,
      true,
      metricsPort ? ['--metrics-port', String(metricsPort)] : [],
    );
    // A scrape that fails costs its leg the persistence figures, never the run.
    const subjectPersistence = metricsPort
      ? async () => {
          try {
            return parsePersistenceMetrics(await scrape(metricsPort));
          } catch (error) {
            options.log(
              `[bench] dev server metrics not read: ${error instanceof Error ? error.message : String(error)}`,
            );
            return undefined;
          }
        }
      : undefined;
    const startMeteredServer = async (label: string): Promise<MeteredServer> => {
      const port = await freePort();
      const launched = await launch(label, DEV_SERVER_TUNING, true, ['--metrics-port', String(port)]);
      stoppers.push(launched.stop);
      return {
        ...launched,
        frontendRequests: async () => parseFrontendRequests(await scrape(port), BENCH_NAMESPACE),
      };
    };
    // The product's default timings.
    const timings = loadWorkflowTimings({});
    // The operator the receiver re-reads from, as under npm start: it knows none of these legs' resources, so every
    // delivery is read (404) and then handed to a router.
    const { sandbox, operator } = await startBenchOperator({ timeScale: 1, deliveryConcurrency: 1 });
    stoppers.push(() => sandbox.close());
    const receiver = await startBenchReceiver(subject.temporal.client, BENCH_TASK_QUEUE, timings, {
      operator,
    });
    stoppers.push(() => receiver.close());
    const agents = {
      https: new https.Agent({ rejectUnauthorized: false, keepAlive: true, maxSockets: options.maxSockets }),
      http: new http.Agent({ keepAlive: true, maxSockets: options.maxSockets }),
    };
    stoppers.push(() => Promise.resolve(Object.values(agents).forEach((agent) => agent.destroy())));
    const post = (url: string, body: string, onAnswer?: (answer: string) => void) =>
      new Promise<number>((resolve, reject) => {
        const secure = url.startsWith('https:');
        const request = (secure ? https : http).request(
          url,
          {
            method: 'POST',
            agent: secure ? agents.https : agents.http,
            headers: { 'content-type': 'application/json' },
          },
          (response) => {
            const chunks: Buffer[] = [];
            if (onAnswer) response.on('data', (chunk: Buffer) => chunks.push(chunk));
            else response.resume();
            response.on('end', () => {
              onAnswer?.(Buffer.concat(chunks).toString());
              resolve(response.statusCode ?? 0);
            });
          },
        );
        request.on('error', reject);
        request.setTimeout(options.requestTimeoutMs, () => request.destroy(new Error('timeout')));
        request.end(body);
      });
    return {
      baseline,
      subject,
      receiver,
      timings,
      postgres,
      freshDatabase,
      ...(subjectPersistence ? { subjectPersistence } : {}),
      startMeteredServer,
      post,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
