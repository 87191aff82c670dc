/**
 * Reconciliation activities: its two halves, the open processes against the operator (open-processes.ts) and the
 * deposit wallets (deposit-wallets.ts). Reconciliation covers the processes of its own task queue (the worker's),
 * found through Temporal visibility.
 */
import { Context } from '@temporalio/activity';
import type { WorkflowTimings } from '../../../src/domain/timings';
import { visibilityLiteral } from '../../../src/temporal/visibility';
import type { ActivityDeps } from '../../deps';
import { type DepositWalletsInput, reconcileDepositWallets } from './deposit-wallets';
import { reconcileOpenProcesses } from './open-processes';
import { bookMissing, checkBookings } from './ledger';

/** The worker's task queue, checked to stand in a visibility query. */
const taskQueueLiteral = () => visibilityLiteral(Context.current().info.taskQueue, 'task queue name');

export function createReconcileActivities(deps: ActivityDeps) {
  return {
    /**
     * Every running on-ramp and off-ramp of this task queue: its state (query) against the operator's (Get
     * Transaction / Get Order). A process behind the operator is a mismatch and gets the fresh snapshot.
     */
    async reconcileOpenProcesses(_input: { timings: WorkflowTimings }) {
      return await reconcileOpenProcesses(deps, taskQueueLiteral());
    },

    /**
     * Every running end user's deposit wallet: deposits no process knows about (listed with the ASSUMED
     * wallet-transactions route) get their off-ramp started (signal-with-start); token balances that no open
     * off-ramp of the wallet accounts for are reported as unaccounted funds.
     */
    async reconcileDepositWallets(input: DepositWalletsInput) {
      return await reconcileDepositWallets(deps, taskQueueLiteral(), input);
    },

    /**
     * The ledger against Temporal and the operator: ramps closed within the lookback without a booked row are booked
     * from their result; booked rows not yet checked are read again at the operator, their verdict recorded.
     */
    async reconcileLedger(_input: { timings: WorkflowTimings }) {
      const booked = await bookMissing(deps, taskQueueLiteral());
      const checked = await checkBookings(deps);
      return {
        closedChecked: booked.checked,
        bookingsChecked: checked.checked,
        findings: [...booked.findings, ...checked.findings],
      };
    },
  };
}
