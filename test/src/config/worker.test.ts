import { cacheSizing, loadWorkerConfig, sdkDefaultMaxCachedWorkflows } from '../../../src/config/worker';
import { workerTuningOptions } from '../../../src/temporal/worker';

describe('worker cache and slots', () => {
  test('an empty environment gives the SDK defaults, made explicit', () => {
    expect(loadWorkerConfig({}, 4144)).toEqual({
      maxCachedWorkflows: 2310,
      maxConcurrentWorkflowTaskExecutions: 40,
      maxConcurrentActivityTaskExecutions: 100,
      maxConcurrentLocalActivityExecutions: 100,
      workflowTaskPollers: 10,
      activityTaskPollers: 10,
      stickyQueueScheduleToStartTimeoutMs: 10_000,
      shutdownForceTimeMs: 30_000,
      cachedWorkflowMiB: 1,
      heapLimitMiB: 4144,
    });
  });

  test('the default cache follows the heap as the SDK sizes it, never below 10', () => {
    expect(sdkDefaultMaxCachedWorkflows(2048)).toBe(1082);
    expect(sdkDefaultMaxCachedWorkflows(100)).toBe(10);
  });

  test('each variable lands, durations included', () => {
    const tuning = loadWorkerConfig(
      {
        WORKER_MAX_CACHED_WORKFLOWS: '12000',
        WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: '8',
        WORKER_MAX_CONCURRENT_ACTIVITIES: '50',
        WORKER_MAX_CONCURRENT_LOCAL_ACTIVITIES: '5',
        WORKER_ACTIVITY_TASK_POLLERS: '4',
        WORKER_STICKY_QUEUE_TIMEOUT: '2s',
        WORKER_SHUTDOWN_FORCE_TIME: '1m',
        WORKER_CACHED_WORKFLOW_MIB: '0.4',
      },
      6000,
    );
    expect(tuning).toMatchObject({
      maxCachedWorkflows: 12_000,
      maxConcurrentWorkflowTaskExecutions: 8,
      maxConcurrentActivityTaskExecutions: 50,
      maxConcurrentLocalActivityExecutions: 5,
      workflowTaskPollers: 8,
      activityTaskPollers: 4,
      stickyQueueScheduleToStartTimeoutMs: 2_000,
      shutdownForceTimeMs: 60_000,
      cachedWorkflowMiB: 0.4,
    });
    expect(workerTuningOptions(tuning)).toEqual({
      maxCachedWorkflows: 12_000,
      maxConcurrentWorkflowTaskExecutions: 8,
      maxConcurrentActivityTaskExecutions: 50,
      maxConcurrentLocalActivityExecutions: 5,
      workflowTaskPollerBehavior: { type: 'simple-maximum', maximum: 8 },
      activityTaskPollerBehavior: { type: 'simple-maximum', maximum: 4 },
      stickyQueueScheduleToStartTimeout: 2_000,
      shutdownForceTime: 60_000,
    });
  });

  test('settings the SDK would quietly change are refused, each named', () => {
    expect(() => loadWorkerConfig({ WORKER_MAX_CACHED_WORKFLOWS: '1' }, 4000)).toThrow(
      /WORKER_MAX_CACHED_WORKFLOWS: must be 0 \(no cache\) or at least 2/,
    );
    expect(() =>
      loadWorkerConfig(
        { WORKER_MAX_CACHED_WORKFLOWS: '20', WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: '40' },
        4000,
      ),
    ).toThrow(/WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: must not exceed WORKER_MAX_CACHED_WORKFLOWS \(20\)/);
    expect(() => loadWorkerConfig({ WORKER_WORKFLOW_TASK_POLLERS: '50' }, 4000)).toThrow(
      /WORKER_WORKFLOW_TASK_POLLERS: must not exceed/,
    );
    expect(() => loadWorkerConfig({ WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: '1' }, 4000)).toThrow(
      /Invalid worker configuration/,
    );
    expect(() => loadWorkerConfig({ WORKER_STICKY_QUEUE_TIMEOUT: 'soon' }, 4000)).toThrow(
      /WORKER_STICKY_QUEUE_TIMEOUT/,
    );
  });

  test('no cache is allowed, whatever the slots', () => {
    expect(
      loadWorkerConfig({ WORKER_MAX_CACHED_WORKFLOWS: '0' }, 4000).maxConcurrentWorkflowTaskExecutions,
    ).toBe(40);
  });

  test('the sizing rule: cache x MiB per workflow + 200 MiB against the heap limit', () => {
    const tuning = loadWorkerConfig({ WORKER_MAX_CACHED_WORKFLOWS: '10000' }, 4096);
    expect(cacheSizing(tuning)).toEqual({ cacheMiB: 10_000, heapLimitMiB: 4096, fits: false });
    const measured = loadWorkerConfig(
      { WORKER_MAX_CACHED_WORKFLOWS: '10000', WORKER_CACHED_WORKFLOW_MIB: '0.34' },
      4096,
    );
    expect(cacheSizing(measured)).toEqual({ cacheMiB: 3_400, heapLimitMiB: 4096, fits: true });
    expect(cacheSizing(loadWorkerConfig({}, 4096)).fits).toBe(true);
  });
});
