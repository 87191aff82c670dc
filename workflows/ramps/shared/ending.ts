/**
 * How a ramp meets its end, for both ramps: an end already there at its first look is settled in the loop like any
 * other, and what came in while its last write ran is booked too. Workflow code: each path that changes a run's
 * commands is behind a patch, so histories recorded before it replay as they ran.
 */
import { patched } from '@temporalio/workflow';
import type { OutcomeSender } from '../../outcomes/sender';

/** A ramp whose first look finds it settled publishes its last step first; the loop settles it. */
export const SETTLE_IN_LOOP_PATCH = 'settle-in-loop';
/** A snapshot applied while the ramp's last write ran is booked by one more write. */
export const BOOK_LATE_SNAPSHOTS_PATCH = 'book-late-snapshots';

/**
 * The status a ramp's first publish shows. Started after the operator had finished (its first events came late), a
 * ramp is settled at its first look; shown at its last step instead, it settles in the loop, after its booking and
 * the exceptions it meets, so its settled event carries both, as every other ramp's does.
 */
export function firstShown<Status extends string>(evaluated: Status, lastStep: Status): Status {
  return evaluated === 'settled' && patched(SETTLE_IN_LOOP_PATCH) ? lastStep : evaluated;
}

/**
 * The ramp's last write, which books it. A snapshot its signal applied while that write ran (a gas top-up whose
 * event came last) would be in the process's result and not in its booked row: the row is refreshed and written
 * again until a write passes with no message applied meanwhile: each further write needs a new message, and the
 * operator's snapshots only ever move a resource forward.
 */
export async function bookEnd(
  outcomes: OutcomeSender,
  recorded: boolean,
  revision: () => number,
  refreshBooking: () => void,
): Promise<void> {
  for (;;) {
    const seen = revision();
    refreshBooking();
    await outcomes.drained();
    if (!recorded || revision() === seen || !patched(BOOK_LATE_SNAPSHOTS_PATCH)) return;
  }
}
