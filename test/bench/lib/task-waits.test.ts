import { msToTs } from '../../../src/temporal/sdk-internals';
import type { temporal } from '@temporalio/proto';
import { taskWaits } from '../../../bench/lib/task-waits';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const at = (ms: number) => ({ eventTime: msToTs(ms) });
const scheduled = (ms: number): HistoryEvent => ({ ...at(ms), workflowTaskScheduledEventAttributes: {} });
const started = (ms: number): HistoryEvent => ({ ...at(ms), workflowTaskStartedEventAttributes: {} });
const completed = (ms: number): HistoryEvent => ({ ...at(ms), workflowTaskCompletedEventAttributes: {} });
const timedOut = (ms: number): HistoryEvent => ({ ...at(ms), workflowTaskTimedOutEventAttributes: {} });
const signaled = (ms: number): HistoryEvent => ({ ...at(ms), workflowExecutionSignaledEventAttributes: {} });

describe('workflow task waits from histories', () => {
  test("a run's first task is kept apart from its later ones; each task's run time is counted", () => {
    const first = [scheduled(1_000), signaled(1_010), started(1_250), completed(1_300)];
    const later = [scheduled(2_000), started(2_040), completed(2_120)];
    expect(
      taskWaits([
        [...first, ...later],
        [scheduled(5_000), started(5_100), completed(5_105)],
      ]),
    ).toEqual({
      firstPickupMs: [250, 100],
      laterPickupMs: [40],
      runMs: [50, 80, 5],
    });
  });

  test('a task that timed out has no run time; the retried task is a later one', () => {
    const history = [
      scheduled(0),
      started(10),
      timedOut(10_010),
      scheduled(10_010),
      started(10_030),
      completed(10_090),
    ];
    expect(taskWaits([history])).toEqual({ firstPickupMs: [10], laterPickupMs: [20], runMs: [60] });
  });
});
