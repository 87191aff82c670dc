/**
 * The processes' writes to the ledger (PostgreSQL): a ramp's view, events and booked row (`recordRamp`), an end
 * user's view, wallet and events (`recordEndUser`). Each is one transaction, idempotent, retried by Temporal for
 * as long as the database is away while its process waits; after LEDGER_INCIDENT_AFTER_ATTEMPTS failed attempts in
 * a row it raises one `ledger-unavailable` incident, and the first write that succeeds after that resolves it.
 */
import { Context } from '@temporalio/activity';
import { errorMessage } from '../../src/domain/errors';
import { type EndUserRecord, writeEndUser } from '../../src/ledger/end-users';
import { type RampRecord, writeRamp } from '../../src/ledger/ramps';
import { activeTraceParent } from '../../src/http/spans';
import type { ActivityDeps } from '../deps';
import { createAlertActivities } from '../operations/alerts/activities';

/** Five attempts, the waits doubling from the retry policy's first: about half a minute with the default timings. */
export const LEDGER_INCIDENT_AFTER_ATTEMPTS = 5;

/** The activity's trace, kept with the events it records (their deliveries join it). */
const traced = (): { traceParent?: string } => {
  const traceParent = activeTraceParent();
  return traceParent ? { traceParent } : {};
};

export function createLedgerActivities(deps: ActivityDeps) {
  const alerts = createAlertActivities(deps);
  const details = { subject: 'database' };

  async function withIncident(write: () => Promise<void>): Promise<void> {
    const { attempt, workflowExecution } = Context.current().info;
    try {
      await write();
    } catch (error) {
      if (attempt === LEDGER_INCIDENT_AFTER_ATTEMPTS) {
        await alerts
          .raiseAlert({
            kind: 'ledger-unavailable',
            message: `The database does not take the processes' writes (${errorMessage(error)}); they wait and retry.`,
            workflowId: workflowExecution?.workflowId ?? 'ledger',
            details,
          })
          .catch(() => undefined);
      }
      throw error;
    }
    if (attempt > LEDGER_INCIDENT_AFTER_ATTEMPTS)
      await alerts
        .resolveAlert({ kind: 'ledger-unavailable', details, resolution: 'the database takes writes again' })
        .catch(() => undefined);
  }

  return {
    recordRamp(record: RampRecord): Promise<void> {
      return withIncident(() => writeRamp(deps.ledger, { ...record, ...traced() }));
    },
    recordEndUser(record: EndUserRecord): Promise<void> {
      return withIncident(() => writeEndUser(deps.ledger, { ...record, ...traced() }));
    },
  };
}
