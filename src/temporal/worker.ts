import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Logger } from 'pino';
import { activeTracing } from './tracing';
import { cacheSizing, type WorkerTuning } from '../config/worker';
import type { WorkerVersion } from '../config/worker-version';

const execFileAsync = promisify(execFile);

/** True when this module runs compiled (dist/src/temporal/worker.js), false under tsx from src/. */
const COMPILED = path.extname(__filename) === '.js';

/** The workflows' entry point beside this module's tree: workflows/index.ts in the sources, index.js in dist/. */
export const WORKFLOWS_PATH = path.resolve(
  __dirname,
  '..',
  '..',
  'workflows',
  COMPILED ? 'index.js' : 'index.ts',
);

/** Written by `npm run build` (src/entry/bundle-workflows.ts) at the root of dist/. */
export const PREBUILT_BUNDLE_PATH = path.resolve(__dirname, '..', '..', 'workflow-bundle.js');
/** The same workflows with the tracing interceptors, for a worker that traces (OTEL_EXPORTER_OTLP_ENDPOINT). */
export const PREBUILT_TRACED_BUNDLE_PATH = path.resolve(__dirname, '..', '..', 'workflow-bundle-traced.js');

/**
 * The compiled build runs the bundle made at build time: bundling at every start costs seconds of CPU and needs
 * webpack's loaders at run time. Under tsx (development, `npm start`) the workflows are bundled at start, so edits are
 * picked up without a build, in a child process: webpack keeps about 125 MiB it never gives back, which then leaves
 * with the child instead of staying in the worker for its whole life.
 */
export async function defaultWorkflowSource(
  traced = false,
): Promise<{ workflowBundle: { code: string } | { codePath: string } }> {
  if (!COMPILED) return { workflowBundle: { code: await bundleInChildProcess(traced) } };
  const bundle = traced ? PREBUILT_TRACED_BUNDLE_PATH : PREBUILT_BUNDLE_PATH;
  if (!existsSync(bundle)) {
    throw new Error(
      `${bundle} is missing: build with \`npm run build\`, which writes it beside the compiled code`,
    );
  }
  return { workflowBundle: { codePath: bundle } };
}

/** The bundling entry point (src/entry/bundle-workflows.ts), run with this process's own loader flags. */
const BUNDLE_ENTRY = path.resolve(__dirname, '..', 'entry', 'bundle-workflows.ts');

async function bundleInChildProcess(traced: boolean): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'workflow-bundle-'));
  const out = path.join(folder, 'bundle.js');
  // A debugger flag would make the child fight the parent for its port.
  const loaderFlags = process.execArgv.filter((flag) => !flag.startsWith('--inspect'));
  try {
    await execFileAsync(
      process.execPath,
      [...loaderFlags, BUNDLE_ENTRY, '--out', out, ...(traced ? ['--traced'] : [])],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    return await readFile(out, 'utf8');
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`Bundling the workflows failed${stderr ? `: ${stderr}` : ''}`);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

export interface RampWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  /** Every activity the workflows call (activities/index.ts, which sits above this module). */
  activities: NonNullable<WorkerOptions['activities']>;
  /** A pre-built bundle (tests build it once per run); otherwise defaultWorkflowSource(). */
  workflowBundle?: WorkerOptions['workflowBundle'];
  identity?: string;
  /** Payload codecs (encryption): src/temporal/data-converter.ts dataConverterFromConfig(). */
  dataConverter?: WorkerOptions['dataConverter'];
  /** Longest wait for in-flight tasks on shutdown before giving up (default SHUTDOWN_FORCE_TIME_MS). */
  shutdownForceTime?: WorkerOptions['shutdownForceTime'];
  /** Cache and slots (src/config/worker.ts); without it, the SDK's defaults (tests). */
  tuning?: WorkerTuning;
  /**
   * The Worker Deployment version it polls as (src/config/worker-version.ts): it then takes only the tasks Temporal
   * routes to that version. Without it, an unversioned worker (the tests').
   */
  version?: WorkerVersion;
}

/** The longest wait for in-flight tasks on shutdown, so that Ctrl-C and SIGTERM always end the process. */
export const SHUTDOWN_FORCE_TIME_MS = 30_000;

/**
 * How long a task waits for this worker's sticky queue before any worker takes it (with a replay): the SDK's
 * default, long enough for a busy worker and short enough for a dead one.
 */
const STICKY_QUEUE_TIMEOUT_MS = 10_000;

/** Long polls kept open per task type: the SDK's default of 10, fewer when there are fewer slots to fill. */
const pollersFor = (slots: number) => Math.min(10, slots);

/**
 * A versioned worker's options. Every workflow type declares itself pinned (workflows/shared/versioning.ts); the
 * default only covers a type that forgot, and pinned is the safe side: it never replays on another version.
 */
export const versionedWorkerOptions = (version: WorkerVersion): Partial<WorkerOptions> => ({
  workerDeploymentOptions: { version, useWorkerVersioning: true, defaultVersioningBehavior: 'PINNED' },
});

/** The worker options a tuning stands for; every one explicit, so no SDK default decides them. */
export function workerTuningOptions(tuning: WorkerTuning): Partial<WorkerOptions> {
  return {
    maxCachedWorkflows: tuning.maxCachedWorkflows,
    maxConcurrentWorkflowTaskExecutions: tuning.maxConcurrentWorkflowTaskExecutions,
    maxConcurrentActivityTaskExecutions: tuning.maxConcurrentActivityTaskExecutions,
    workflowTaskPollerBehavior: {
      type: 'simple-maximum',
      maximum: pollersFor(tuning.maxConcurrentWorkflowTaskExecutions),
    },
    activityTaskPollerBehavior: {
      type: 'simple-maximum',
      maximum: pollersFor(tuning.maxConcurrentActivityTaskExecutions),
    },
    stickyQueueScheduleToStartTimeout: STICKY_QUEUE_TIMEOUT_MS,
  };
}

/**
 * The project's worker: every workflow of workflows/index.ts and every activity, on one task queue. In a process
 * that traces, its activities and workflows carry the trace (src/temporal/tracing.ts): a pre-built bundle must
 * then hold the tracing interceptors (the traced bundle of `npm run build`, or one bundled with them).
 */
export async function createRampWorker(options: RampWorkerOptions): Promise<Worker> {
  const tracing = activeTracing();
  const source = options.workflowBundle
    ? { workflowBundle: options.workflowBundle }
    : await defaultWorkflowSource(tracing !== undefined);
  return Worker.create({
    // A bundle holds its workflow interceptors already: only the activities' are added here.
    ...(tracing
      ? { interceptors: { activity: tracing.worker.interceptors.activity }, sinks: tracing.worker.sinks }
      : {}),
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    activities: options.activities,
    shutdownForceTime: options.shutdownForceTime ?? SHUTDOWN_FORCE_TIME_MS,
    ...(options.tuning ? workerTuningOptions(options.tuning) : {}),
    ...(options.version ? versionedWorkerOptions(options.version) : {}),
    ...(options.identity ? { identity: options.identity } : {}),
    ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
    ...source,
  });
}

/** One line at start with the cache and slots in force; a warning when the cache cannot fit the heap. */
export function logWorkerTuning(logger: Logger, tuning: WorkerTuning): void {
  const sizing = cacheSizing(tuning);
  const fields = {
    maxCachedWorkflows: tuning.maxCachedWorkflows,
    workflowTaskSlots: tuning.maxConcurrentWorkflowTaskExecutions,
    activitySlots: tuning.maxConcurrentActivityTaskExecutions,
    cacheMiB: sizing.cacheMiB,
    heapLimitMiB: sizing.heapLimitMiB,
  };
  if (sizing.fits) logger.info(fields, 'Worker cache and slots');
  else
    logger.warn(
      fields,
      'The workflow cache may not fit the heap (cache x 1 MiB + 200 MiB > heap limit): lower WORKER_MAX_CACHED_WORKFLOWS or raise --max-old-space-size',
    );
}
