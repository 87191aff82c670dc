/**
 * What each step of a deposit wallet took, read from the end users' workflow histories (any version's: activities
 * are named by their type): from the run's start to the update's answer, each activity type from scheduled to
 * completed and how many a wallet ran, the workflow tasks (how many, and started to completed), the signals, and the
 * history's events and bytes.
 */
import { tsToMs } from '../../src/temporal/sdk-internals';
import { temporal } from '@temporalio/proto';
import { type LatencySummary, summarize } from './stats';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

export interface StepTimes {
  perWallet: number;
  ms: LatencySummary;
}

export interface WalletSteps {
  /** Histories read. */
  wallets: number;
  /** The run's start to its first update's completion: what the caller waited for inside Temporal. */
  answer: LatencySummary;
  /** Per activity type. */
  activities: Record<string, StepTimes>;
  /** Workflow tasks, each started to completed. */
  workflowTasks: StepTimes;
  signalsPerWallet: number;
  historyEventsPerWallet: number;
  /** The history's size as the server stores it (protobuf), payloads included. */
  historyBytesPerWallet: number;
}

const timeMs = (event: HistoryEvent): number => tsToMs(event.eventTime);

export function walletSteps(histories: ReadonlyArray<readonly HistoryEvent[]>): WalletSteps {
  const answers: number[] = [];
  const activities = new Map<string, number[]>();
  const tasks: number[] = [];
  let signals = 0;
  let events = 0;
  let bytes = 0;
  for (const history of histories) {
    events += history.length;
    for (const event of history) bytes += temporal.api.history.v1.HistoryEvent.encode(event).finish().length;
    const startMs = history[0] ? timeMs(history[0]) : 0;
    const scheduled = new Map<string, { type: string; atMs: number }>();
    let taskStartedMs: number | undefined;
    let answered = false;
    for (const event of history) {
      const activity = event.activityTaskScheduledEventAttributes;
      if (activity) {
        scheduled.set(String(event.eventId), {
          type: activity.activityType?.name ?? '?',
          atMs: timeMs(event),
        });
      } else if (event.activityTaskCompletedEventAttributes) {
        const of = scheduled.get(String(event.activityTaskCompletedEventAttributes.scheduledEventId));
        if (of) {
          const list = activities.get(of.type) ?? [];
          list.push(timeMs(event) - of.atMs);
          activities.set(of.type, list);
        }
      } else if (event.workflowTaskStartedEventAttributes) {
        taskStartedMs = timeMs(event);
      } else if (event.workflowTaskCompletedEventAttributes && taskStartedMs !== undefined) {
        tasks.push(timeMs(event) - taskStartedMs);
        taskStartedMs = undefined;
      } else if (event.workflowExecutionSignaledEventAttributes) {
        signals += 1;
      } else if (event.workflowExecutionUpdateCompletedEventAttributes && !answered) {
        answers.push(timeMs(event) - startMs);
        answered = true;
      }
    }
  }
  const per = (count: number) => (histories.length > 0 ? count / histories.length : 0);
  return {
    wallets: histories.length,
    answer: summarize(answers),
    activities: Object.fromEntries(
      [...activities].map(([type, ms]) => [type, { perWallet: per(ms.length), ms: summarize(ms) }]),
    ),
    workflowTasks: { perWallet: per(tasks.length), ms: summarize(tasks) },
    signalsPerWallet: per(signals),
    historyEventsPerWallet: per(events),
    historyBytesPerWallet: per(bytes),
  };
}
