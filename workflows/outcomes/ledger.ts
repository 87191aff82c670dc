/**
 * How a process records what it shows and tells: its view and the outcome events raised since its last write go to
 * the ledger (PostgreSQL) in one activity, before the process waits for its next event or ends, and the ledger's
 * dispatcher delivers the events in the process's order (src/outcomes/dispatcher.ts). The process never waits for
 * the client's backend, and its state carries no list of events: only their count, so webhook-ids never repeat.
 *
 * Runs taken from a 1.0 history keep their own outbox and sender loop (sender.ts); `patched(LEDGER_PATCH)` decides
 * once, at a run's start, which of the two it has.
 */
import { type ActivityOptions, patched, workflowInfo } from '@temporalio/workflow';
import {
  outcomeWebhookId,
  parseOutcomeWebhookId,
  type OutcomeEventData,
  type OutcomeEventType,
  type RaisedEvent,
} from '../../src/domain/outcome-events';
import type { WorkflowTimings } from '../../src/domain/timings';
import type { Outbox } from './outbox';
import type { OutcomeSender } from './sender';

export const LEDGER_PATCH = 'ledger';

/** True in a run that records into the ledger: every run but those replaying a 1.0 history. Call it at the start. */
export const recordsIntoLedger = (): boolean => patched(LEDGER_PATCH);

/**
 * A ledger write is retried for as long as the database is away (the process waits: nothing it shows or tells may
 * be lost), with waits growing to a minute; the activity raises an incident once it has failed for a while.
 */
export function ledgerActivityOptions(timings: WorkflowTimings): ActivityOptions {
  return {
    startToCloseTimeout: timings.activityStartToCloseMs,
    retry: {
      initialInterval: timings.activityRetryInitialMs,
      maximumInterval: Math.max(timings.activityRetryMaximumMs, LEDGER_RETRY_MAXIMUM_MS),
      backoffCoefficient: 2,
    },
  };
}

/** The longest wait between two attempts of a ledger write while the database is away. */
export const LEDGER_RETRY_MAXIMUM_MS = 60_000;

/** An outcome sender that records into the ledger: raise() queues, sync() writes, drained() is the last write. */
export interface LedgerSender extends OutcomeSender {
  /** Something the view shows changed (a status published): the next sync() writes even without events. */
  touch(): void;
  /** Writes the view and the events raised since the last write, when either changed. */
  sync(): Promise<void>;
}

/**
 * `write` records the view and the given events (the process's own activity call); the outbox holds the sequence,
 * carried over continue-as-new by the processes that continue.
 */
export function ledgerSender(
  outbox: Outbox,
  write: (raised: RaisedEvent[], final: boolean) => Promise<void>,
): LedgerSender {
  const { workflowId } = workflowInfo();
  // Events a run from before the ledger carried over undelivered are recorded with the first write, ids unchanged.
  let raised: RaisedEvent[] = outbox.events
    .filter((record) => record.delivery === 'pending')
    .map((record) => ({
      webhookId: record.webhookId,
      sequence: parseOutcomeWebhookId(record.webhookId)?.sequence ?? 0,
      event: record.event,
    }));
  outbox.events = [];
  let dirty = false;
  return {
    raise(type: OutcomeEventType, data: OutcomeEventData) {
      outbox.sequence += 1;
      raised.push({
        webhookId: outcomeWebhookId(workflowId, outbox.sequence),
        sequence: outbox.sequence,
        event: { type, timestamp: new Date().toISOString(), data },
      });
    },
    touch() {
      dirty = true;
    },
    async sync() {
      if (!dirty && raised.length === 0) return;
      const batch = raised;
      raised = [];
      dirty = false;
      await write(batch, false);
    },
    async drained() {
      const batch = raised;
      raised = [];
      dirty = false;
      await write(batch, true);
    },
  };
}
