/**
 * The sandbox's notion of "now". It follows the wall clock plus an offset that tests move forward
 * (`POST /sandbox/v1/clock`) to make quotes, tokens and login session IDs expire without waiting.
 */
export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  reset(): void {
    this.offsetMs = 0;
  }

  get offset(): number {
    return this.offsetMs;
  }

  iso(at: number = this.now()): string {
    return new Date(at).toISOString();
  }

  /** ISO 8601 UTC with nine fractional digits, the form the operator uses for session expiries. */
  isoNanos(at: number = this.now()): string {
    return new Date(at).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
  }
}
