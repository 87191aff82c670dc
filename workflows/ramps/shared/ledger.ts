/**
 * A ramp's records in the ledger: its view (with its booked row once it ended) and its outcome events, written by
 * the `recordRamp` activity at each sync (workflows/outcomes/ledger.ts). The revision counts the ramp's writes, in
 * its state, so that reconciliation repairing a row writes the same revision the ramp did.
 */
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { WorkflowTimings } from '../../../src/domain/timings';
import type { createLedgerActivities } from '../../../activities/ledger/activities';
import { ledgerActivityOptions, ledgerSender, type LedgerSender } from '../../outcomes/ledger';
import type { OffRampState } from '../offramp/types';
import type { OnRampState } from '../onramp/types';

type LedgerActivities = ReturnType<typeof createLedgerActivities>;

export function rampLedger(
  ramp: { direction: 'off-ramp'; state: OffRampState } | { direction: 'on-ramp'; state: OnRampState },
  timings: WorkflowTimings,
): LedgerSender {
  const { recordRamp } = proxyActivities<LedgerActivities>(ledgerActivityOptions(timings));
  const { workflowId } = workflowInfo();
  const { state } = ramp;
  return ledgerSender(state.outcomes, async (raised, final) => {
    state.recordedRevision = (state.recordedRevision ?? 0) + 1;
    const at = new Date().toISOString();
    await recordRamp({
      ramp: { ...ramp, workflowId },
      revision: state.recordedRevision,
      raised,
      retryForMs: timings.outcomeDelivery.retryForMs,
      at,
      ...(final ? { closedAt: at } : {}),
    });
  });
}
