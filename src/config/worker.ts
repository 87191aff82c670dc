/**
 * The worker's cache and slots, set explicitly (the SDK would otherwise size them itself):
 * - WORKER_MAX_CACHED_WORKFLOWS: workflows kept in memory between tasks (sticky). A cached workflow answers a
 *   signal or a query without replaying its history; an evicted one replays it on its next task. Default: the
 *   SDK's own rule, max(10, floor((heap limit MiB - 200) x 600 / 1024)), i.e. about 0.59 MiB of heap per workflow
 *   above a 200 MiB reserve;
 * - WORKER_MAX_CONCURRENT_WORKFLOW_TASKS (40), WORKER_MAX_CONCURRENT_ACTIVITIES (100),
 *   WORKER_MAX_CONCURRENT_LOCAL_ACTIVITIES (100): fixed slot counts, the SDK's defaults;
 * - WORKER_WORKFLOW_TASK_POLLERS, WORKER_ACTIVITY_TASK_POLLERS: long polls kept open, default min(10, slots);
 * - WORKER_STICKY_QUEUE_TIMEOUT (10s): how long a task waits for this worker's sticky queue before any worker
 *   takes it (with a replay);
 * - WORKER_SHUTDOWN_FORCE_TIME (30s): the longest wait for in-flight tasks on shutdown, so Ctrl-C always ends;
 * - WORKER_CACHED_WORKFLOW_MIB (1): the heap one cached workflow is budgeted at when the worker checks that its
 *   cache fits its heap (cache x MiB + 200 MiB reserve <= heap limit); measured here about 0.34 MiB per end user.
 */
import v8 from 'node:v8';
import { z } from 'zod';
import { durationMs } from './duration';
import { type Env, parseSection } from './env';

const count = (min: number) => z.coerce.number().int().min(min).optional();

/** Heap the SDK and the process need beside the cache, as the SDK's own rule reserves. */
export const WORKER_HEAP_RESERVE_MIB = 200;

const workerEnv = z.object({
  WORKER_MAX_CACHED_WORKFLOWS: count(0),
  WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: z.coerce.number().int().min(2).default(40),
  WORKER_MAX_CONCURRENT_ACTIVITIES: z.coerce.number().int().min(1).default(100),
  WORKER_MAX_CONCURRENT_LOCAL_ACTIVITIES: z.coerce.number().int().min(1).default(100),
  WORKER_WORKFLOW_TASK_POLLERS: count(1),
  WORKER_ACTIVITY_TASK_POLLERS: count(1),
  WORKER_STICKY_QUEUE_TIMEOUT: durationMs('10s').pipe(z.number().int().min(1, 'must be more than 0')),
  WORKER_SHUTDOWN_FORCE_TIME: durationMs('30s').pipe(z.number().int().min(1, 'must be more than 0')),
  WORKER_CACHED_WORKFLOW_MIB: z.coerce.number().positive().default(1),
});

export interface WorkerTuning {
  maxCachedWorkflows: number;
  maxConcurrentWorkflowTaskExecutions: number;
  maxConcurrentActivityTaskExecutions: number;
  maxConcurrentLocalActivityExecutions: number;
  workflowTaskPollers: number;
  activityTaskPollers: number;
  stickyQueueScheduleToStartTimeoutMs: number;
  shutdownForceTimeMs: number;
  /** The sizing check: heap budgeted per cached workflow, and the heap it is checked against. */
  cachedWorkflowMiB: number;
  heapLimitMiB: number;
}

/** The V8 heap limit of this process (--max-old-space-size moves it). */
export const processHeapLimitMiB = (): number => v8.getHeapStatistics().heap_size_limit / 2 ** 20;

/** The SDK's default cache size for a heap of this size (reused V8 context). */
export const sdkDefaultMaxCachedWorkflows = (heapLimitMiB: number): number =>
  Math.max(Math.floor((Math.max(heapLimitMiB - WORKER_HEAP_RESERVE_MIB, 0) * 600) / 1024), 10);

export function loadWorkerConfig(env: Env, heapLimitMiB = processHeapLimitMiB()): WorkerTuning {
  const raw = parseSection('worker', workerEnv, env);
  const maxCachedWorkflows = raw.WORKER_MAX_CACHED_WORKFLOWS ?? sdkDefaultMaxCachedWorkflows(heapLimitMiB);
  const workflowSlots = raw.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS;
  const activitySlots = raw.WORKER_MAX_CONCURRENT_ACTIVITIES;
  const tuning: WorkerTuning = {
    maxCachedWorkflows,
    maxConcurrentWorkflowTaskExecutions: workflowSlots,
    maxConcurrentActivityTaskExecutions: activitySlots,
    maxConcurrentLocalActivityExecutions: raw.WORKER_MAX_CONCURRENT_LOCAL_ACTIVITIES,
    workflowTaskPollers: raw.WORKER_WORKFLOW_TASK_POLLERS ?? Math.min(10, workflowSlots),
    activityTaskPollers: raw.WORKER_ACTIVITY_TASK_POLLERS ?? Math.min(10, activitySlots),
    stickyQueueScheduleToStartTimeoutMs: raw.WORKER_STICKY_QUEUE_TIMEOUT,
    shutdownForceTimeMs: raw.WORKER_SHUTDOWN_FORCE_TIME,
    cachedWorkflowMiB: raw.WORKER_CACHED_WORKFLOW_MIB,
    heapLimitMiB,
  };
  // The SDK would quietly change these; a setting it would not honour is refused instead.
  const problems: string[] = [];
  if (maxCachedWorkflows === 1)
    problems.push('WORKER_MAX_CACHED_WORKFLOWS: must be 0 (no cache) or at least 2');
  if (maxCachedWorkflows > 0 && workflowSlots > maxCachedWorkflows)
    problems.push(
      `WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: must not exceed WORKER_MAX_CACHED_WORKFLOWS (${maxCachedWorkflows})`,
    );
  if (tuning.workflowTaskPollers > workflowSlots)
    problems.push('WORKER_WORKFLOW_TASK_POLLERS: must not exceed WORKER_MAX_CONCURRENT_WORKFLOW_TASKS');
  if (tuning.activityTaskPollers > activitySlots)
    problems.push('WORKER_ACTIVITY_TASK_POLLERS: must not exceed WORKER_MAX_CONCURRENT_ACTIVITIES');
  if (problems.length > 0) throw new Error(`Invalid worker configuration:\n  ${problems.join('\n  ')}`);
  return tuning;
}

/** The sizing rule: cache x MiB per cached workflow + the reserve must fit the heap limit. */
export function cacheSizing(tuning: WorkerTuning): { cacheMiB: number; heapLimitMiB: number; fits: boolean } {
  const cacheMiB = Math.round(tuning.maxCachedWorkflows * tuning.cachedWorkflowMiB);
  const heapLimitMiB = Math.round(tuning.heapLimitMiB);
  return { cacheMiB, heapLimitMiB, fits: cacheMiB + WORKER_HEAP_RESERVE_MIB <= heapLimitMiB };
}
