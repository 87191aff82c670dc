/**
 * Reconciliation activities: its two halves, the open processes against the operator and the deposit wallets.
 * Reconciliation covers the processes of its own task queue (the worker's), found through Temporal visibility.
 */
import { Context } from '@temporalio/activity';
import { type WorkflowHandle, WorkflowNotFoundError } from '@temporalio/client';
import { compareDecimals } from '../../../src/domain/decimal';
import { offRampWorkflowId, WORKFLOW_TYPES } from '../../../src/domain/ids';
import type { WorkflowTimings } from '../../../src/domain/timings';
import { nativeAssetOfNetwork, TRANSACTION_KINDS } from '../../../src/domain/vocabulary';
import { OperatorError } from '../../../src/operator/errors';
import type { Transaction } from '../../../src/operator/schemas';
import { signalWithStartProcess } from '../../../src/temporal/process-start';
import { visibilityLiteral } from '../../../src/temporal/visibility';
import { endUserStateQuery } from '../../../workflows/end-user/messages';
import type { ReconcileFinding } from '../../../workflows/operations/reconcile/types';
import { unreadableProcess } from '../../../workflows/operations/reconcile/findings';
import { offRampStateQuery, offRampTransactionSignal } from '../../../workflows/ramps/offramp/messages';
import type { OffRampRole } from '../../../workflows/ramps/offramp/types';
import {
  onRampOrderSignal,
  onRampStateQuery,
  onRampTransactionSignal,
} from '../../../workflows/ramps/onramp/messages';
import {
  orderRank,
  type TransactionSnapshot,
  transactionRank,
} from '../../../workflows/ramps/shared/snapshots';
import type { ActivityDeps } from '../../deps';
import { cancellable } from '../../shared/cancellable';
import { callOperator } from '../../shared/operator-failure';
import * as snapshots from '../../shared/snapshots';

/** The worker's task queue, checked to stand in a visibility query. */
const taskQueueLiteral = () => visibilityLiteral(Context.current().info.taskQueue, 'task queue name');

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

const HANDED_OVER = 'handed the fresh snapshot to the process';

export function createReconcileActivities(deps: ActivityDeps) {
  const { operator, temporal, logger } = deps;
  const readTransaction = (id: string) => snapshots.readTransaction(operator, id);
  const readOrder = (id: string) => snapshots.readOrder(operator, id);

  /** An off-ramp's four transactions and its order against the operator's; fresher transactions are handed over. */
  async function reconcileOffRamp(handle: WorkflowHandle, findings: ReconcileFinding[]): Promise<void> {
    const workflowId = handle.workflowId;
    const state = await handle.query(offRampStateQuery);
    const deposit = await readTransaction(state.depositTransactionId);
    const sweepId = state.sweep?.id ?? deposit.relatedTransactionId;
    const reads: Array<[OffRampRole, TransactionSnapshot | undefined]> = [
      ['deposit', deposit],
      ['sweep', sweepId ? await readTransaction(sweepId) : undefined],
      ['gasTopUp', state.gasTopUp ? await readTransaction(state.gasTopUp.id) : undefined],
      [
        'orderTransaction',
        state.orderTransaction ? await readTransaction(state.orderTransaction.id) : undefined,
      ],
    ];
    for (const [role, fresh] of reads) {
      if (!fresh || transactionRank(fresh.status) <= transactionRank(state[role]?.status)) continue;
      await handle.signal(offRampTransactionSignal, { role, transaction: fresh });
      findings.push({
        kind: 'status-mismatch',
        workflowId,
        subject: `${role} ${fresh.id}`,
        ours: state[role]?.status ?? 'unknown',
        operator: fresh.status,
        action: HANDED_OVER,
        endUserId: state.endUserId,
      });
    }
    const orderId = state.order?.id ?? reads[1]![1]?.orderId;
    if (!orderId) return;
    const order = await readOrder(orderId);
    if (orderRank(order.status) > orderRank(state.order?.status)) {
      findings.push({
        kind: 'status-mismatch',
        workflowId,
        subject: `order ${order.id}`,
        ours: state.order?.status ?? 'unknown',
        operator: order.status,
        action: 'reported (the process reads the order when it reaches settlement)',
        endUserId: state.endUserId,
      });
    }
  }

  /** An on-ramp's order and its deposit against the operator's; fresher snapshots are handed over. */
  async function reconcileOnRamp(handle: WorkflowHandle, findings: ReconcileFinding[]): Promise<void> {
    const workflowId = handle.workflowId;
    const state = await handle.query(onRampStateQuery);
    if (!state.order) return;
    const order = await readOrder(state.order.id);
    if (orderRank(order.status) > orderRank(state.order.status)) {
      await handle.signal(onRampOrderSignal, order);
      findings.push({
        kind: 'status-mismatch',
        workflowId,
        subject: `order ${order.id}`,
        ours: state.order.status,
        operator: order.status,
        action: HANDED_OVER,
        endUserId: state.endUserId,
      });
    }
    const depositId = state.deposit?.id ?? order.transactionId;
    if (!depositId) return;
    const fresh = await readTransaction(depositId);
    if (transactionRank(fresh.status) > transactionRank(state.deposit?.status)) {
      await handle.signal(onRampTransactionSignal, fresh);
      findings.push({
        kind: 'status-mismatch',
        workflowId,
        subject: `deposit ${fresh.id}`,
        ours: state.deposit?.status ?? 'unknown',
        operator: fresh.status,
        action: HANDED_OVER,
        endUserId: state.endUserId,
      });
    }
  }

  return {
    /**
     * Every running on-ramp and off-ramp of this task queue: its state (query) against the operator's (Get
     * Transaction / Get Order). A process behind the operator is a mismatch and gets the fresh snapshot.
     */
    async reconcileOpenProcesses(_input: {
      timings: WorkflowTimings;
    }): Promise<{ checked: number; findings: ReconcileFinding[] }> {
      const query = `TaskQueue = '${taskQueueLiteral()}' AND ExecutionStatus = 'Running' AND RampDirection IN ('on-ramp', 'off-ramp')`;
      const findings: ReconcileFinding[] = [];
      let checked = 0;
      for await (const execution of temporal.workflow.list({ query, pageSize: 100 })) {
        Context.current().heartbeat(checked);
        checked += 1;
        const workflowId = execution.workflowId;
        const handle = temporal.workflow.getHandle(workflowId);
        try {
          if (execution.type === WORKFLOW_TYPES.offRamp) await reconcileOffRamp(handle, findings);
          else if (execution.type === WORKFLOW_TYPES.onRamp) await reconcileOnRamp(handle, findings);
        } catch (error) {
          findings.push(unreadableProcess(workflowId, message(error)));
        }
      }
      return { checked, findings };
    },

    /**
     * Every running end user's deposit wallet: deposits no process knows about (listed with the ASSUMED
     * wallet-transactions route) get their off-ramp started (signal-with-start); token balances that no open
     * off-ramp of the wallet accounts for are reported as unaccounted funds.
     */
    async reconcileDepositWallets(input: {
      timings: WorkflowTimings;
      startMissing: boolean;
    }): Promise<{ checked: number; transactionListing: boolean; findings: ReconcileFinding[] }> {
      const taskQueue = taskQueueLiteral();
      const findings: ReconcileFinding[] = [];
      let checked = 0;
      let transactionListing = true;
      const query = `TaskQueue = '${taskQueue}' AND WorkflowType = '${WORKFLOW_TYPES.endUser}' AND ExecutionStatus = 'Running'`;
      for await (const execution of temporal.workflow.list({ query, pageSize: 100 })) {
        Context.current().heartbeat(checked);
        const workflowId = execution.workflowId;
        let walletId: string;
        let endUserId: string | null = null;
        try {
          const state = await cancellable(temporal, () =>
            temporal.workflow.getHandle(workflowId).query(endUserStateQuery),
          );
          if (!state.wallet) continue;
          walletId = state.wallet.walletId;
          endUserId = state.endUserId;
        } catch (error) {
          findings.push(unreadableProcess(workflowId, message(error)));
          continue;
        }
        checked += 1;
        /** Networks with an off-ramp running (or started now) for a deposit of this wallet. */
        const covered = new Set<string>();
        let anyRunning = false;

        let transactions: Transaction[] = [];
        if (transactionListing) {
          try {
            transactions = await operator.listWalletTransactions(walletId);
          } catch (error) {
            if (!(error instanceof OperatorError) || (error.status !== 404 && error.status !== 405))
              throw error;
            transactionListing = false;
            logger.warn(
              { walletId },
              'The operator does not list wallet transactions: reconciliation checks balances only',
            );
          }
        }
        for (const tx of transactions) {
          if (tx.type !== TRANSACTION_KINDS.deposit.type || tx.orderId) continue;
          const offRampId = offRampWorkflowId(tx.id);
          let running = false;
          try {
            running = (await temporal.workflow.getHandle(offRampId).describe()).status.name === 'RUNNING';
          } catch (error) {
            if (!(error instanceof WorkflowNotFoundError)) throw error;
            const snapshot = snapshots.toTransactionSnapshot(tx);
            let action = 'reported (startMissing is off)';
            if (input.startMissing) {
              // Under the one-run policy: a process that ended meanwhile is left as it ended.
              const outcome = await signalWithStartProcess(temporal, WORKFLOW_TYPES.offRamp, {
                workflowId: offRampId,
                taskQueue,
                args: [{ depositTransactionId: tx.id, timings: input.timings }],
                signal: offRampTransactionSignal,
                signalArgs: [{ role: 'deposit', transaction: snapshot }],
              });
              action = outcome.delivered
                ? 'started its off-ramp (signal-with-start)'
                : `its off-ramp had already ended (${outcome.closed.status ?? outcome.closed.executionStatus})`;
              running = outcome.delivered;
            }
            findings.push({
              kind: 'unknown-deposit',
              workflowId: offRampId,
              subject: `deposit ${tx.id}`,
              ours: 'no process',
              operator: tx.status,
              action,
              endUserId,
              walletId,
              ...(tx.network ? { network: tx.network } : {}),
              ...(tx.asset ? { asset: tx.asset } : {}),
              ...(tx.amount ? { amount: tx.amount } : {}),
            });
          }
          if (running) {
            anyRunning = true;
            if (tx.network) covered.add(tx.network);
          }
        }
        if (!transactionListing) {
          // Without the listing, any running off-ramp of the wallet covers its balances. The wallet ID is the
          // operator's: characters a visibility query cannot carry are dropped rather than failing the run.
          const walletLiteral = walletId.replace(/[^A-Za-z0-9._:@/-]/g, '');
          const offRamps = `TaskQueue = '${taskQueue}' AND WorkflowType = '${WORKFLOW_TYPES.offRamp}' AND ExecutionStatus = 'Running' AND RampWalletId = '${walletLiteral}'`;
          for await (const _ of temporal.workflow.list({ query: offRamps, pageSize: 1 })) {
            anyRunning = true;
            break;
          }
        }
        const entries = await callOperator(() => operator.getWalletAddresses(walletId));
        for (const entry of entries) {
          const network = entry.network.name;
          const native = nativeAssetOfNetwork(network);
          for (const balance of entry.balances) {
            if (balance.asset === native || compareDecimals(balance.amount, '0') <= 0) continue;
            if (covered.has(network) || (!transactionListing && anyRunning)) continue;
            findings.push({
              kind: 'unaccounted-funds',
              workflowId,
              subject: `wallet ${walletId} ${network} ${balance.asset}`,
              ours: 'no open off-ramp',
              operator: `${balance.amount} ${balance.asset}`,
              action: 'alert raised',
              endUserId,
              walletId,
              network,
              asset: balance.asset,
              amount: balance.amount,
            });
          }
        }
      }
      return { checked, transactionListing, findings };
    },
  };
}
