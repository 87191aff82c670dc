/**
 * The time budget of one wallet-creation attempt, which guards it against being a "zombie": Temporal times an attempt
 * out on the server, but the activity function keeps running on the worker. An attempt that sent CreateWallet after
 * its own timeout would race the next attempt and leave an extra wallet. So an attempt reads and writes the journal
 * within a bounded part of its time, sends CreateWallet only while enough of its time is left for the answer to be
 * journaled, and heartbeats throughout so that its heartbeat timeout passes only when its worker is gone.
 * CreateWallet has a deadline, which the journaled request records; a retry, or a new activity whose owner names an
 * earlier request, waits an unanswered request out (its worker may only have stalled, and still get the answer)
 * before it creates (journal-read.ts).
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { deadlineClockMs } from '../../src/operator/deadline-clock';

/** Share of start-to-close a journal read or write may take. */
const JOURNAL_SHARE = 0.4;
/** Share of start-to-close that must remain when CreateWallet is sent. */
const CREATE_MIN_REMAINING_SHARE = 0.5;
/**
 * Share of start-to-close kept after CreateWallet's deadline for journaling its answer. A retry that finds a request
 * without an answer also waits this long past the request's window for an answer still on its way.
 */
export const ANSWER_SHARE = 0.1;

/** When (deadline clock) this attempt stops sending CreateWallet and abandons one in flight. */
export function createDeadlineMs(startedAtMs: number): number {
  return startedAtMs + Context.current().info.startToCloseTimeoutMs * (1 - ANSWER_SHARE);
}

/**
 * Milliseconds left in this attempt. `startedAtMs` is when the activity function began, on the deadline clock (no
 * wall-clock step moves it): the server starts the start-to-close clock a moment earlier (dispatch to this worker),
 * a difference of milliseconds.
 */
function attemptTimeLeftMs(startedAtMs: number): number {
  return startedAtMs + Context.current().info.startToCloseTimeoutMs - deadlineClockMs();
}

/** When a journal read or write started now must have answered: within its share, and within the attempt. */
export function journalDeadlineMs(startedAtMs: number): number {
  const now = deadlineClockMs();
  return (
    now +
    Math.min(attemptTimeLeftMs(startedAtMs), Context.current().info.startToCloseTimeoutMs * JOURNAL_SHARE)
  );
}

/** Runs a journal read or write, or fails this attempt (retryable, nothing created) if it does not answer in time. */
export async function journalInTime<T>(
  call: Promise<T>,
  startedAtMs: number,
  what = 'the wallet journal',
): Promise<T> {
  const budgetMs = Math.max(0, journalDeadlineMs(startedAtMs) - deadlineClockMs());
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      call,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () =>
            reject(
              ApplicationFailure.retryable(
                `${what} did not answer within ${budgetMs} ms; nothing created`,
                'JournalUnavailable',
              ),
            ),
          budgetMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Heartbeats for as long as the attempt runs, every third of its heartbeat timeout, with `progress()`. A live attempt
 * must not go silent while a journal write or CreateWallet is slow: past the heartbeat timeout the server would take
 * it for a dead worker and start the next attempt beside it, and both would create a wallet. So only a worker that
 * stopped (or stalled for the whole timeout) goes silent. Answers the stop.
 */
export function heartbeatThroughout(progress: () => unknown): () => void {
  const context = Context.current();
  context.heartbeat(progress());
  const timeoutMs = context.info.heartbeatTimeoutMs;
  if (!timeoutMs) return () => undefined;
  const timer = setInterval(() => context.heartbeat(progress()), Math.max(1, Math.floor(timeoutMs / 3)));
  return () => clearInterval(timer);
}

/** Throws (retryable, nothing created) when too little of this attempt is left to create and journal safely. */
export function assertTimeToCreate(startedAtMs: number): void {
  const { startToCloseTimeoutMs } = Context.current().info;
  const left = attemptTimeLeftMs(startedAtMs);
  if (left < startToCloseTimeoutMs * CREATE_MIN_REMAINING_SHARE) {
    throw ApplicationFailure.retryable(
      `only ${left} ms left in this attempt: not sending CreateWallet; the next attempt will`,
      'AttemptTooLate',
    );
  }
}

/**
 * Throws (retryable, nothing sent) when CreateWallet would have less than half the time it could ever get (one
 * request timeout, or 90 % of the attempt): a request cut short may still be carried out, its answer lost.
 */
export function assertTimeToSend(deadlineMs: number, requestTimeoutMs: number): void {
  const left = deadlineMs - deadlineClockMs();
  const most = Math.min(requestTimeoutMs, Context.current().info.startToCloseTimeoutMs * (1 - ANSWER_SHARE));
  if (left < most / 2) {
    throw ApplicationFailure.retryable(
      `only ${Math.round(left)} ms left before CreateWallet's deadline: not sending it; the next attempt will`,
      'AttemptTooLate',
    );
  }
}
