/**
 * The worker's cache and slots, set explicitly (the SDK would otherwise size them itself), and its health port.
 * The sizing rule (docs/configuration.md, "Sizing a worker"): the cache, at about 1 MiB per cached workflow
 * (CACHED_WORKFLOW_MIB), plus a 200 MiB reserve must fit the heap limit (--max-old-space-size); the worker says at
 * start when it does not.
 */
import v8 from 'node:v8';
import { z } from 'zod';
import { type Env, parseSection } from './env';
import { setting } from './setting';

/** Heap the SDK and the process need beside the cache, as the SDK's own rule reserves. */
export const WORKER_HEAP_RESERVE_MIB = 200;

/**
 * Heap budgeted per cached workflow by the sizing check: an end-user workflow measured about 0.34 MiB (the SDK's own
 * rule assumes 0.59), so 1 MiB errs on the safe side; the worker warns rather than refuses, the figure being an estimate.
 */
export const CACHED_WORKFLOW_MIB = 1;

/**
 * Workflow tasks a worker runs at once (the SDK's default): they use the CPU, so more slots than the cores serve only
 * queue and a worker grows by replicas instead; never more than the cache, which the SDK requires.
 */
export const WORKFLOW_TASK_SLOTS = 40;

export const workerEnv = z.object({
  WORKER_MAX_CACHED_WORKFLOWS: setting(z.coerce.number().int().min(0).optional(), {
    group: 'production',
    default: "the SDK's rule: max(10, (heap MiB - 200) x 600 / 1024)",
    meaning:
      'Workflows kept in memory between tasks: a cached one answers a signal or a query without replaying its ' +
      'history. 0: no cache; otherwise at least 2 (below 40 it also caps the workflow tasks run at once).',
    readBy: ['npm start', 'worker'],
    example: '3000',
  }),
  WORKER_MAX_CONCURRENT_ACTIVITIES: setting(z.coerce.number().int().min(1).default(100), {
    group: 'production',
    default: '100',
    meaning:
      'Activities the worker runs at once; they wait on the operator, so this bounds calls in flight to it.',
    readBy: ['npm start', 'worker'],
    example: '100',
  }),
  WORKER_HEALTH_PORT: setting(z.coerce.number().int().min(0).max(65535).optional(), {
    group: 'production',
    default: 'no health server',
    meaning: "The port of `npm run worker`'s GET /healthz (200 while it polls), for container health checks.",
    readBy: ['worker', 'healthcheck'],
    example: '8081',
  }),
});

export interface WorkerTuning {
  maxCachedWorkflows: number;
  maxConcurrentWorkflowTaskExecutions: number;
  maxConcurrentActivityTaskExecutions: number;
  /** The heap the sizing check compares the cache with. */
  heapLimitMiB: number;
}

export interface WorkerConfig {
  tuning: WorkerTuning;
  /** Where `npm run worker` serves /healthz; undefined: nowhere. */
  healthPort: number | undefined;
}

/** The V8 heap limit of this process (--max-old-space-size moves it). */
export const processHeapLimitMiB = (): number => v8.getHeapStatistics().heap_size_limit / 2 ** 20;

/** The SDK's default cache size for a heap of this size (reused V8 context). */
export const sdkDefaultMaxCachedWorkflows = (heapLimitMiB: number): number =>
  Math.max(Math.floor((Math.max(heapLimitMiB - WORKER_HEAP_RESERVE_MIB, 0) * 600) / 1024), 10);

export function loadWorkerConfig(env: Env, heapLimitMiB = processHeapLimitMiB()): WorkerConfig {
  const raw = parseSection('worker', workerEnv, env);
  const maxCachedWorkflows = raw.WORKER_MAX_CACHED_WORKFLOWS ?? sdkDefaultMaxCachedWorkflows(heapLimitMiB);
  // The SDK would quietly change a cache of 1; it is refused instead.
  if (maxCachedWorkflows === 1)
    throw new Error(
      'Invalid worker configuration:\n  WORKER_MAX_CACHED_WORKFLOWS: must be 0 (no cache) or at least 2',
    );
  const workflowSlots =
    maxCachedWorkflows > 0 ? Math.min(WORKFLOW_TASK_SLOTS, maxCachedWorkflows) : WORKFLOW_TASK_SLOTS;
  return {
    tuning: {
      maxCachedWorkflows,
      maxConcurrentWorkflowTaskExecutions: workflowSlots,
      maxConcurrentActivityTaskExecutions: raw.WORKER_MAX_CONCURRENT_ACTIVITIES,
      heapLimitMiB,
    },
    healthPort: raw.WORKER_HEALTH_PORT,
  };
}

/** The sizing rule: cache x CACHED_WORKFLOW_MIB + the reserve must fit the heap limit. */
export function cacheSizing(tuning: WorkerTuning): { cacheMiB: number; heapLimitMiB: number; fits: boolean } {
  const cacheMiB = Math.round(tuning.maxCachedWorkflows * CACHED_WORKFLOW_MIB);
  const heapLimitMiB = Math.round(tuning.heapLimitMiB);
  return { cacheMiB, heapLimitMiB, fits: cacheMiB + WORKER_HEAP_RESERVE_MIB <= heapLimitMiB };
}
