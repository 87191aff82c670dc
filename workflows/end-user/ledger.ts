/**
 * The end user's records in the ledger: its view, its wallet (how an off-ramp finds its owner) and its outcome
 * events, written by the `recordEndUser` activity; the revision counts the writes across runs. A local activity: a
 * client's request for a wallet is answered once the wallet is in the ledger (read-after-write), and one statement on
 * the worker's own pool is not worth a round trip through the task queue on that path.
 */
import { proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { createLedgerActivities } from '../../activities/ledger/activities';
import { ledgerActivityOptions, ledgerSender, type LedgerSender } from '../outcomes/ledger';
import { recordedEndUser } from './state';
import type { EndUserInput, EndUserState } from './types';

type LedgerActivities = ReturnType<typeof createLedgerActivities>;

export function endUserLedger(state: EndUserState, input: EndUserInput): LedgerSender {
  const { recordEndUser } = proxyLocalActivities<LedgerActivities>(ledgerActivityOptions(input.timings));
  const { workflowId } = workflowInfo();
  return ledgerSender(state.outcomes, async (raised) => {
    state.recordedRevision = (state.recordedRevision ?? 0) + 1;
    await recordEndUser({
      workflowId,
      state: recordedEndUser(state),
      revision: state.recordedRevision,
      raised,
      retryForMs: input.timings.outcomeDelivery.retryForMs,
      at: new Date().toISOString(),
    });
  });
}
