/**
 * The clock that operator-call deadlines are counted on. A deadline decides whether CreateWallet may still be sent,
 * so it must never be reopened: with `Date.now()`, a wall clock set back by a minute (NTP, a manual `date`) would let
 * an attempt send a minute past its own timeout, beside the retry that replaced it. A monotonic count alone is not
 * enough either: it stands still while the machine is suspended, so an attempt waking after the server timed it out
 * would still see time left. So the clock runs at the monotonic rate and follows the wall clock's jumps forward,
 * never its steps back: a jump can only make an attempt give up sooner. Deadlines are compared within one process.
 */
let wallClockAheadMs = 0;

export function deadlineClockMs(): number {
  const monotonicMs = performance.timeOrigin + performance.now();
  wallClockAheadMs = Math.max(wallClockAheadMs, Date.now() - monotonicMs);
  // Whole milliseconds, as Date.now() gives them.
  return Math.floor(monotonicMs + wallClockAheadMs);
}
