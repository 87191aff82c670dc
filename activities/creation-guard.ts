import { ApplicationFailure, Context } from '@temporalio/activity';

/**
 * Guards of the wallet-creation activities against a "zombie" attempt: Temporal times an attempt out on the
 * server, but the activity function keeps running on the worker. An attempt that sent CreateWallet after its own
 * timeout would race the next attempt and leave an extra wallet. So an attempt reads the journal within a bounded
 * part of its time, and sends CreateWallet only while enough of its time is left for the answer to be journaled.
 */

/** Share of start-to-close a journal read may take. */
const JOURNAL_READ_SHARE = 0.4;
/** Share of start-to-close that must remain when CreateWallet is sent. */
const CREATE_MIN_REMAINING_SHARE = 0.5;

/**
 * Milliseconds left in this attempt. `startedAtMs` is when the activity function began: the server starts the
 * start-to-close clock a moment earlier (dispatch to this worker), a difference of milliseconds.
 */
function attemptTimeLeftMs(startedAtMs: number): number {
  return startedAtMs + Context.current().info.startToCloseTimeoutMs - Date.now();
}

/** Runs the journal read, or fails this attempt (retryable, nothing created) if it does not answer in time. */
export async function readJournalInTime<T>(read: Promise<T>, startedAtMs: number): Promise<T> {
  const budgetMs = Math.max(0, Math.min(attemptTimeLeftMs(startedAtMs), Context.current().info.startToCloseTimeoutMs * JOURNAL_READ_SHARE));
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      read,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(ApplicationFailure.retryable(`the wallet journal did not answer within ${budgetMs} ms; nothing created`, 'JournalUnavailable')),
          budgetMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Throws (retryable, nothing created) when too little of this attempt is left to create and journal safely. */
export function assertTimeToCreate(startedAtMs: number): void {
  const { startToCloseTimeoutMs } = Context.current().info;
  const left = attemptTimeLeftMs(startedAtMs);
  if (left < startToCloseTimeoutMs * CREATE_MIN_REMAINING_SHARE) {
    throw ApplicationFailure.retryable(`only ${left} ms left in this attempt: not sending CreateWallet; the next attempt will`, 'AttemptTooLate');
  }
}
