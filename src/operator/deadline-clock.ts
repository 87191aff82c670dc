/**
 * The clock that operator-call deadlines are counted on: the wall clock read once, when the process started, plus a
 * monotonic count since. A deadline decides whether CreateWallet may still be sent, so a wall-clock step (NTP, a
 * manual `date`) must not stretch it: with `Date.now()`, a clock set back by a minute would let an attempt send a
 * minute past its own timeout, beside the retry that replaced it. Deadlines are compared within one process only.
 */
export function deadlineClockMs(): number {
  // Whole milliseconds, as Date.now() gives them.
  return Math.floor(performance.timeOrigin + performance.now());
}
