/** What both ramp processes keep about themselves besides their steps: for people looking in, and the client's events. */
import type { Outbox } from '../../outcomes/outbox';

export interface RampBookkeeping {
  /** The last operator read that failed (the process keeps going and tries again), for people looking in. */
  lastFailure?: { what: string; message: string; at: string };
  eventsApplied: number;
  duplicates: number;
  polls: number;
  startedAt: string;
  endedAt?: string;
  /** The outcome events told to the client's backend (a run that records into the ledger keeps only their count). */
  outcomes: Outbox;
  /** How many times the process wrote its view to the ledger (absent in runs from before the ledger). */
  recordedRevision?: number;
}
