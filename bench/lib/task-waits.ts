/**
 * Where a workflow task's time goes, read from run histories: how long each task waited to be picked up by a worker
 * (scheduled to started) and how long it then took (started to completed, the worker's work and the server's write).
 * A run's first task comes from the task queue every worker polls; its later ones from the sticky queue of the worker
 * that has it cached, so the two waits are kept apart.
 */
import { tsToMs } from '../../src/temporal/sdk-internals';
import type { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** One run's history, as `fetchHistory` answers it. */
export type HistoryEvents = HistoryEvent[];

export interface TaskWaits {
  /** Scheduled to started of each run's first workflow task, ms. */
  firstPickupMs: number[];
  /** Scheduled to started of every later workflow task, ms. */
  laterPickupMs: number[];
  /** Started to completed of every workflow task that completed, ms. */
  runMs: number[];
}

const timeMs = (event: HistoryEvent): number => tsToMs(event.eventTime);

export function taskWaits(histories: ReadonlyArray<readonly HistoryEvent[]>): TaskWaits {
  const waits: TaskWaits = { firstPickupMs: [], laterPickupMs: [], runMs: [] };
  for (const events of histories) {
    let scheduledAt: number | undefined;
    let startedAt: number | undefined;
    let tasksStarted = 0;
    for (const event of events) {
      if (event.workflowTaskScheduledEventAttributes) {
        scheduledAt = timeMs(event);
      } else if (event.workflowTaskStartedEventAttributes && scheduledAt !== undefined) {
        startedAt = timeMs(event);
        (tasksStarted === 0 ? waits.firstPickupMs : waits.laterPickupMs).push(startedAt - scheduledAt);
        tasksStarted += 1;
        scheduledAt = undefined;
      } else if (event.workflowTaskCompletedEventAttributes && startedAt !== undefined) {
        waits.runMs.push(timeMs(event) - startedAt);
        startedAt = undefined;
      } else if (event.workflowTaskFailedEventAttributes || event.workflowTaskTimedOutEventAttributes) {
        startedAt = undefined;
      }
    }
  }
  return waits;
}
