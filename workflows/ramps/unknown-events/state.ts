/** Pure rules of the unknown-events store. Workflow-safe: no I/O, no Temporal calls. */
import type { UnknownEventRecord } from './types';

/** How many deliveries the store keeps (the oldest go first). */
export const KEEP_UNKNOWN_EVENTS = 200;

export interface UnknownEventsState {
  events: UnknownEventRecord[];
  /** Deliveries seen by this run, the carried ones included. */
  total: number;
}

export function newUnknownEventsState(carried: UnknownEventRecord[] = []): UnknownEventsState {
  return { events: carried, total: carried.length };
}

/** Keeps one more delivery; answers the store's details line. */
export function recordUnknownEvent(
  state: UnknownEventsState,
  event: UnknownEventRecord,
  keep = KEEP_UNKNOWN_EVENTS,
): string {
  state.events.push(event);
  state.total += 1;
  if (state.events.length > keep) state.events.shift();
  return `${state.total} delivery(ies) of unknown event kinds; last: ${event.eventType}`;
}
