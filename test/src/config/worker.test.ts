import { cacheSizing, loadWorkerConfig, sdkDefaultMaxCachedWorkflows } from '../../../src/config/worker';
import { workerTuningOptions } from '../../../src/temporal/worker';

describe('worker cache and slots', () => {
  test('an empty environment gives the SDK defaults, made explicit, and no health port', () => {
    expect(loadWorkerConfig({}, 4144)).toEqual({
      tuning: {
        maxCachedWorkflows: 2310,
        maxConcurrentWorkflowTaskExecutions: 40,
        maxConcurrentActivityTaskExecutions: 100,
        heapLimitMiB: 4144,
      },
      healthPort: undefined,
    });
  });

  test('the default cache follows the heap as the SDK sizes it, never below 10', () => {
    expect(sdkDefaultMaxCachedWorkflows(2048)).toBe(1082);
    expect(sdkDefaultMaxCachedWorkflows(100)).toBe(10);
  });

  test('each variable lands; pollers, the sticky queue and the shutdown wait follow from them', () => {
    const { tuning, healthPort } = loadWorkerConfig(
      {
        WORKER_MAX_CACHED_WORKFLOWS: '12000',
        WORKER_MAX_CONCURRENT_ACTIVITIES: '50',
        WORKER_HEALTH_PORT: '8081',
      },
      6000,
    );
    expect(healthPort).toBe(8081);
    expect(workerTuningOptions(tuning)).toEqual({
      maxCachedWorkflows: 12_000,
      maxConcurrentWorkflowTaskExecutions: 40,
      maxConcurrentActivityTaskExecutions: 50,
      workflowTaskPollerBehavior: { type: 'simple-maximum', maximum: 10 },
      activityTaskPollerBehavior: { type: 'simple-maximum', maximum: 10 },
      stickyQueueScheduleToStartTimeout: 10_000,
    });
  });

  test('settings the SDK would quietly change are refused, each named', () => {
    expect(() => loadWorkerConfig({ WORKER_MAX_CACHED_WORKFLOWS: '1' }, 4000)).toThrow(
      /WORKER_MAX_CACHED_WORKFLOWS: must be 0 \(no cache\) or at least 2/,
    );
    expect(
      loadWorkerConfig({ WORKER_MAX_CACHED_WORKFLOWS: '20' }, 4000).tuning
        .maxConcurrentWorkflowTaskExecutions,
    ).toBe(20);
    expect(() => loadWorkerConfig({ WORKER_HEALTH_PORT: 'eighty' }, 4000)).toThrow(/WORKER_HEALTH_PORT/);
  });

  test('no cache is allowed, whatever the slots', () => {
    expect(
      loadWorkerConfig({ WORKER_MAX_CACHED_WORKFLOWS: '0' }, 4000).tuning.maxConcurrentWorkflowTaskExecutions,
    ).toBe(40);
  });

  test('the sizing rule: cache x 1 MiB per workflow + 200 MiB against the heap limit', () => {
    const tuning = (env: Record<string, string>, heapMiB: number) => loadWorkerConfig(env, heapMiB).tuning;
    expect(cacheSizing(tuning({ WORKER_MAX_CACHED_WORKFLOWS: '10000' }, 4096))).toEqual({
      cacheMiB: 10_000,
      heapLimitMiB: 4096,
      fits: false,
    });
    expect(cacheSizing(tuning({ WORKER_MAX_CACHED_WORKFLOWS: '3896' }, 4096)).fits).toBe(true);
    expect(cacheSizing(tuning({ WORKER_MAX_CACHED_WORKFLOWS: '3897' }, 4096)).fits).toBe(false);
    expect(cacheSizing(tuning({}, 4096)).fits).toBe(true);
  });
});
